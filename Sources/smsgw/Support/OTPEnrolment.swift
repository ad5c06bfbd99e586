import Foundation
import OTP
import Store

/// What `otp` keeps in an entry's encrypted `secret` blob: the key and every parameter, as JSON.
///
/// For HOTP, ``counter`` is the counter of the next code `otp code` prints; the verifier's own
/// counter lives in the entry's state (``OTPVerificationState``), so that verifying a code does
/// not move the generator and generating one does not make it a replay.
struct OTPEnrolment: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        case totp, hotp
    }

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

    init(decoding data: Data, name: String) throws {
        do {
            self = try JSONDecoder().decode(OTPEnrolment.self, from: data)
        } catch {
            throw StoreError.corrupted(
                "The OTP entry \"\(name)\" cannot be read; remove it with `smsgw otp remove \(name)` and add it again.")
        }
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// The enrolment URI, which validates every parameter on the way.
    func uri() throws -> OTPAuthURI {
        try OTPFailure.mapping {
            let key = try OTPSecret(bytes: secret)
            let uriKind: OTPAuthURI.Kind = switch kind {
            case .totp: .totp(period: period ?? TOTP.defaultPeriod)
            case .hotp: .hotp(counter: counter ?? 0)
            }
            return try OTPAuthURI(
                kind: uriKind, secret: key, issuer: issuer, account: account, algorithm: algorithm, digits: digits)
        }
    }

    /// The verifier: ±1 TOTP step, or 10 HOTP counters of look-ahead (RFC 4226 §7.4).
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

    static func decodeState(_ data: Data?, name: String, initial: OTPVerificationState) throws -> OTPVerificationState {
        guard let data else { return initial }
        do {
            return try JSONDecoder().decode(OTPVerificationState.self, from: data)
        } catch {
            throw StoreError.corrupted(
                "The verification state of \"\(name)\" cannot be read; remove the entry with `smsgw otp remove \(name)` and add it again.")
        }
    }

    static func encodeState(_ state: OTPVerificationState) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(state)
    }
}
