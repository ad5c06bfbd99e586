public import Foundation
public import OTP
public import Store

/// A new login second factor shown to the person before it is stored: its URI (and QR code) go
/// into an authenticator app, whose first code ``TwoFactorLogin/enable(_:code:in:now:)`` checks.
public struct TwoFactorProposal: Sendable {
    /// The `otpauth://totp/smsgw:USERNAME` URI; it holds the secret, so it is shown once.
    public let uri: OTPAuthURI
    let enrolment: OTPEnrolment
}

/// Two-factor login: once on, every unlock needs a TOTP code after the passphrase (``Login``).
///
/// It guards unlocking by someone who knows the passphrase but lacks the authenticator; it is no
/// part of any key. The store binds the setting into the wrapping of the data key, so switching
/// it off in the file breaks the unlock instead.
public enum TwoFactorLogin {
    /// The issuer authenticator apps show for the login secret.
    public static let issuer = "smsgw"

    /// Whether two-factor login is on.
    public static func isEnabled(_ store: UnlockedStore) throws -> Bool {
        try store.twoFactorEnabled
    }

    /// Throws ``AccountError/twoFactorAlreadyOn`` when two-factor login is on: checked before a
    /// front end asks for a secret to enrol.
    public static func requireOff(_ store: UnlockedStore) throws {
        if try store.twoFactorEnabled { throw AccountError.twoFactorAlreadyOn }
    }

    /// A new TOTP enrolment for the account (SHA-1, 6 digits, 30 s: what every authenticator
    /// app takes), not stored yet.
    ///
    /// - Parameters:
    ///   - base32: A given secret (provisioning), or nil for a new random 20-byte one.
    ///   - rng: The source of a new secret; pass `SystemRandomNumberGenerator` outside tests.
    /// - Throws: ``AccountError/twoFactorAlreadyOn`` (before anything is shown),
    ///   ``OTPEntryError/invalid(_:)`` for a secret that is not Base32.
    public static func propose(
        for store: UnlockedStore, secret base32: String?, using rng: inout some RandomNumberGenerator
    ) throws -> TwoFactorProposal {
        try requireOff(store)
        let key =
            try base32.map { given in try OTPEntryError.mapping { try OTPSecret(base32: given) } }
            ?? OTPEnrolment.randomSecret(byteCount: 20, using: &rng)
        let uri = try OTPEntryError.mapping {
            try OTPAuthURI(totp: TOTP(secret: key), issuer: issuer, account: store.username)
        }
        return TwoFactorProposal(uri: uri, enrolment: OTPEnrolment(uri: uri))
    }

    /// Turns two-factor login on with `proposal` once `code` proves the authenticator has it.
    ///
    /// The accepted code's step is stored as used, so it cannot unlock afterwards.
    /// - Returns: The seconds until the authenticator app shows its next code: the first one the
    ///   next unlock takes, which a front end says so that nobody enters the used one again.
    /// - Throws: ``AccountError/enrolmentCodeMismatch`` (nothing stored),
    ///   ``AccountError/twoFactorAlreadyOn`` when another process turned it on meanwhile.
    @discardableResult
    public static func enable(_ proposal: TwoFactorProposal, code: String, in store: UnlockedStore, now: Date) throws -> Int64 {
        let enrolment = proposal.enrolment
        let verification = try enrolment.verifier().verify(code, state: enrolment.initialState, now: TOTP.unixTime(now))
        guard verification.result.isAccepted else { throw AccountError.enrolmentCodeMismatch }
        let stored = SecondFactorEnrolment(
            secret: try enrolment.encoded(), state: try OTPEnrolment.encodeState(verification.state))
        do {
            try store.enableTwoFactor(stored)
        } catch StoreError.alreadyExists {
            throw AccountError.twoFactorAlreadyOn
        }
        guard let totp = proposal.uri.totp else { return 0 }
        return totp.period - (TOTP.unixTime(now) - totp.startTime) % totp.period
    }

    /// Turns two-factor login off and deletes its secret.
    ///
    /// - Returns: false when it was already off.
    @discardableResult
    public static func disable(_ store: UnlockedStore) throws -> Bool {
        try store.disableTwoFactor()
    }
}
