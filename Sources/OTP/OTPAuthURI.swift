public import Foundation

/// An `otpauth://` enrolment URI, the text inside an authenticator QR code.
///
/// The format is Google Authenticator's Key Uri Format:
///
/// ```
/// otpauth://totp/ACME%20Co:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30
/// otpauth://hotp/alice?secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&counter=0
/// ```
///
/// Parse one with ``init(parsing:)`` and write one with ``string``. Writing always produces the
/// same canonical form (label `Issuer:account`, then `secret`, `issuer`, `algorithm`, `digits`
/// and `period` or `counter`), so `OTPAuthURI(parsing: uri.string) == uri` for every value, and
/// a canonical string survives `parse` then `write` unchanged.
public struct OTPAuthURI: Sendable, Hashable {
    /// Whether the URI describes a time-based or a counter-based generator.
    public enum Kind: Sendable, Hashable {
        /// TOTP with a step of `period` seconds.
        case totp(period: Int64)
        /// HOTP whose next code is for `counter`.
        case hotp(counter: UInt64)
    }

    /// TOTP or HOTP, with its period or counter.
    public var kind: Kind
    /// The shared secret.
    public var secret: OTPSecret
    /// The service provider, shown above the account in authenticator apps.
    public var issuer: String?
    /// The account name, usually an e-mail address or phone number.
    public var account: String
    /// The HMAC hash; SHA-1 if the URI does not say.
    public var algorithm: OTPAlgorithm
    /// The code length; 6 if the URI does not say.
    public var digits: Int

    /// Creates a URI from its parts.
    /// - Parameters:
    ///   - kind: TOTP with its period, or HOTP with its counter.
    ///   - secret: The shared secret.
    ///   - issuer: The provider; must not contain a colon.
    ///   - account: The account name; must not be empty or contain a colon.
    ///   - algorithm: The HMAC hash.
    ///   - digits: The code length, 6 to 8.
    /// - Throws: ``OTPError`` with code ``OTPError/Code/malformedURI`` for an empty account or a
    ///   colon in a name, ``OTPError/Code/invalidDigits`` or ``OTPError/Code/invalidPeriod``.
    public init(
        kind: Kind,
        secret: OTPSecret,
        issuer: String?,
        account: String,
        algorithm: OTPAlgorithm = .sha1,
        digits: Int = 6
    ) throws(OTPError) {
        guard !account.isEmpty else {
            throw OTPError.malformedURI("the account name is empty; the label must name the account")
        }
        // The label separates issuer and account with a colon, so neither may hold one.
        guard !account.contains(":") else {
            throw OTPError.malformedURI("the account name '\(account)' contains a colon, which the label reserves")
        }
        // The format lets readers drop spaces after the label's colon, so a leading space
        // would not survive a round trip.
        guard account.first != " " else {
            throw OTPError.malformedURI("the account name '\(account)' starts with a space; remove it")
        }
        if let issuer {
            guard !issuer.isEmpty else {
                throw OTPError.malformedURI("the issuer is empty; leave it out or name the service")
            }
            guard !issuer.contains(":") else {
                throw OTPError.malformedURI("the issuer '\(issuer)' contains a colon, which the label reserves")
            }
        }
        guard HOTP.allowedDigits.contains(digits) else { throw OTPError.invalidDigits(digits) }
        if case .totp(let period) = kind, period <= 0 { throw OTPError.invalidPeriod(period) }
        self.kind = kind
        self.secret = secret
        self.issuer = issuer
        self.account = account
        self.algorithm = algorithm
        self.digits = digits
    }

    /// Describes a TOTP generator for enrolment.
    /// - Parameters:
    ///   - totp: The generator; its start time must be 0, which the format cannot express.
    ///   - issuer: The provider.
    ///   - account: The account name.
    /// - Throws: ``OTPError`` as ``init(kind:secret:issuer:account:algorithm:digits:)`` does, or
    ///   ``OTPError/Code/malformedURI`` for a non-zero start time.
    public init(totp: TOTP, issuer: String?, account: String) throws(OTPError) {
        guard totp.startTime == 0 else {
            throw OTPError.malformedURI("otpauth URIs cannot carry a TOTP start time other than 0")
        }
        try self.init(
            kind: .totp(period: totp.period), secret: totp.secret, issuer: issuer,
            account: account, algorithm: totp.algorithm, digits: totp.digits
        )
    }

    /// Describes an HOTP generator for enrolment.
    /// - Parameters:
    ///   - hotp: The generator.
    ///   - counter: The counter of the first code the user will enter.
    ///   - issuer: The provider.
    ///   - account: The account name.
    /// - Throws: ``OTPError`` as ``init(kind:secret:issuer:account:algorithm:digits:)`` does.
    public init(hotp: HOTP, counter: UInt64, issuer: String?, account: String) throws(OTPError) {
        try self.init(
            kind: .hotp(counter: counter), secret: hotp.secret, issuer: issuer,
            account: account, algorithm: hotp.algorithm, digits: hotp.digits
        )
    }

    /// The TOTP generator this URI describes, or `nil` for an HOTP URI.
    public var totp: TOTP? {
        guard case .totp(let period) = kind else { return nil }
        return try? TOTP(secret: secret, algorithm: algorithm, digits: digits, period: period)
    }

    /// The HOTP generator this URI describes (for a TOTP URI, the one under its time steps).
    public var hotp: HOTP {
        // The initialiser already checked the digit count.
        try! HOTP(secret: secret, algorithm: algorithm, digits: digits)
    }

    /// The label as displayed: `Issuer:account`, or the account alone without an issuer.
    public var label: String {
        issuer.map { "\($0):\(account)" } ?? account
    }

    /// The URI in canonical form, every parameter written out.
    public var string: String {
        var text = "otpauth://"
        switch kind {
        case .totp: text += "totp/"
        case .hotp: text += "hotp/"
        }
        if let issuer {
            text += Self.percentEncode(issuer, allowing: Self.labelAllowed) + ":"
        }
        text += Self.percentEncode(account, allowing: Self.labelAllowed)
        var parameters = [("secret", secret.base32)]
        if let issuer {
            parameters.append(("issuer", issuer))
        }
        parameters.append(("algorithm", algorithm.name))
        parameters.append(("digits", String(digits)))
        switch kind {
        case .totp(let period): parameters.append(("period", String(period)))
        case .hotp(let counter): parameters.append(("counter", String(counter)))
        }
        text +=
            "?"
            + parameters
            .map { "\($0.0)=\(Self.percentEncode($0.1, allowing: Self.valueAllowed))" }
            .joined(separator: "&")
        return text
    }

    /// The URI in canonical form, as a `URL`.
    public var url: URL? { URL(string: string) }

    /// Characters left as they are in the label: RFC 3986 unreserved plus `@`, which appears
    /// in most account names and which Google's own examples leave unencoded.
    static let labelAllowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@")
    /// Characters left as they are in parameter values: RFC 3986 unreserved only.
    static let valueAllowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Percent-encodes UTF-8 text, keeping only the allowed characters.
    static func percentEncode(_ text: String, allowing allowed: CharacterSet) -> String {
        // Every string can be percent-encoded; the fallback is unreachable.
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

extension OTPAuthURI: CustomStringConvertible {
    /// A redacted description that names the generator but never shows the secret.
    public var description: String {
        switch kind {
        case .totp(let period):
            "otpauth TOTP \(label) (\(algorithm), \(digits) digits, \(period) s, secret redacted)"
        case .hotp(let counter):
            "otpauth HOTP \(label) (\(algorithm), \(digits) digits, counter \(counter), secret redacted)"
        }
    }
}
