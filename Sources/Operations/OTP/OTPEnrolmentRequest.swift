public import OTP

/// What a front end asks ``OTPEntries/add(_:named:to:using:)`` to enrol: where the secret comes
/// from, and the parameters a Base32 or generated secret needs (an `otpauth://` URI carries its
/// own). Unset parameters take the defaults authenticator apps assume.
public struct OTPEnrolmentRequest: Sendable, Hashable {
    /// Where the secret comes from.
    public enum Source: Sendable, Hashable {
        /// A Base32 secret (case, spaces and padding ignored).
        case base32(String)
        /// An `otpauth://` URI with the secret and every parameter.
        case uri(String)
        /// A new random secret, as long as the algorithm's output (20, 32 or 64 bytes).
        case generated

        /// A value typed where either was asked for: a URI when it starts with `otpauth:`, else Base32.
        public static func typed(_ value: String) -> Source {
            value.lowercased().hasPrefix("otpauth:") ? .uri(value) : .base32(value)
        }
    }

    /// Time-based or counter-based codes.
    public enum Kind: Sendable, Hashable {
        /// TOTP; the period defaults to 30 seconds.
        case totp(period: Int64?)
        /// HOTP; the first counter defaults to 0.
        case hotp(counter: UInt64?)
    }

    public var source: Source
    public var kind: Kind?
    /// Defaults to SHA-1.
    public var algorithm: OTPAlgorithm?
    /// Defaults to 6.
    public var digits: Int?
    public var issuer: String?
    /// The account name authenticator apps show; defaults to the entry's name.
    public var account: String?

    public init(
        source: Source, kind: Kind? = nil, algorithm: OTPAlgorithm? = nil, digits: Int? = nil,
        issuer: String? = nil, account: String? = nil
    ) {
        self.source = source
        self.kind = kind
        self.algorithm = algorithm
        self.digits = digits
        self.issuer = issuer
        self.account = account
    }

    /// Whether any parameter a URI would carry itself was given.
    public var hasParameters: Bool {
        kind != nil || algorithm != nil || digits != nil || issuer != nil || account != nil
    }

    /// The enrolment this request describes, for an entry named `name`.
    ///
    /// - Throws: ``OTPEntryError/parametersWithURI`` for a URI with parameters beside it,
    ///   ``OTPEntryError/invalid(_:)`` for a secret, URI or parameter the OTP module refuses.
    func enrolment(named name: String, using rng: inout some RandomNumberGenerator) throws -> OTPEnrolment {
        let algorithm = algorithm ?? .sha1
        let key: OTPSecret
        switch source {
        case .uri(let uri):
            guard !hasParameters else { throw OTPEntryError.parametersWithURI }
            return OTPEnrolment(uri: try OTPEntryError.mapping { try OTPAuthURI(parsing: uri) })
        case .base32(let secret):
            key = try OTPEntryError.mapping { try OTPSecret(base32: secret) }
        case .generated:
            key = OTPEnrolment.randomSecret(byteCount: algorithm.recommendedSecretByteCount, using: &rng)
        }
        let uriKind: OTPAuthURI.Kind =
            switch kind ?? .totp(period: nil) {
            case .totp(let period): .totp(period: period ?? TOTP.defaultPeriod)
            case .hotp(let counter): .hotp(counter: counter ?? 0)
            }
        let uri = try OTPEntryError.mapping {
            try OTPAuthURI(
                kind: uriKind, secret: key, issuer: issuer, account: account ?? name, algorithm: algorithm,
                digits: digits ?? 6)
        }
        return OTPEnrolment(uri: uri)
    }
}
