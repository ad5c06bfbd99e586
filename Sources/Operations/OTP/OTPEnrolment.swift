import Foundation
import OTP

/// What an OTP entry's encrypted `secret` blob holds (and the login second factor's): the key
/// and every parameter, as JSON with sorted keys. The store keeps the blob opaque; this is its
/// one definition (docs/STORAGE.md).
///
/// For HOTP, ``counter`` is the counter of the next code ``OTPEntries/code(named:in:at:now:)``
/// gives; the verifier's own counter lives in the entry's state (``OTPVerificationState``), so
/// that verifying a code does not move the generator and generating one does not make it a replay.
struct OTPEnrolment: Codable, Sendable, Equatable {
    typealias Kind = OTPKind

    /// The key, base64 in the JSON.
    var secret: Data
    var kind: Kind
    var algorithm: OTPAlgorithm
    var digits: Int
    /// TOTP: seconds per step.
    var period: Int64?
    /// HOTP: the counter of the next code to generate.
    var counter: UInt64?
    var issuer: String?
    var account: String

    /// The parameters of an `otpauth://` URI.
    init(uri: OTPAuthURI) {
        secret = Data(uri.secret.bytes)
        algorithm = uri.algorithm
        digits = uri.digits
        issuer = uri.issuer
        account = uri.account
        switch uri.kind {
        case .totp(let period):
            kind = .totp
            self.period = period
        case .hotp(let counter):
            kind = .hotp
            self.counter = counter
        }
    }

    /// The enrolment URI, which validates every parameter on the way.
    ///
    /// - Throws: ``OTPEntryError/invalid(_:)`` for a parameter the OTP module refuses.
    func uri() throws -> OTPAuthURI {
        try OTPEntryError.mapping {
            let key = try OTPSecret(bytes: secret)
            let uriKind: OTPAuthURI.Kind =
                switch kind {
                case .totp: .totp(period: period ?? TOTP.defaultPeriod)
                case .hotp: .hotp(counter: counter ?? 0)
                }
            return try OTPAuthURI(
                kind: uriKind, secret: key, issuer: issuer, account: account, algorithm: algorithm, digits: digits)
        }
    }

    /// The verifier of `otp verify`: ±1 TOTP step, or 10 HOTP counters of look-ahead (RFC 4226
    /// §7.4), with the OTP module's throttling.
    func verifier() throws -> OTPVerifier {
        let uri = try uri()
        if let totp = uri.totp { return OTPVerifier(totp: totp, window: 1) }
        return OTPVerifier(hotp: uri.hotp)
    }

    /// The verification state of a new enrolment.
    var initialState: OTPVerificationState {
        switch kind {
        case .totp: .newTOTP
        case .hotp: .newHOTP(counter: counter ?? 0)
        }
    }

    /// A secret of `byteCount` bytes (at least 16, RFC 4226's minimum) from `rng`.
    ///
    /// - Parameter rng: Pass `SystemRandomNumberGenerator` outside tests: this is key material.
    static func randomSecret(byteCount: Int, using rng: inout some RandomNumberGenerator) -> OTPSecret {
        let bytes = (0..<max(byteCount, 16)).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
        // A non-empty array cannot fail the emptiness check.
        return try! OTPSecret(bytes: bytes)
    }
}
