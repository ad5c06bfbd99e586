import Foundation
import OTP
import Store

extension TwoFactorLogin {
    /// The check the store runs under its unlock lock, once the passphrase proved right: `code`
    /// against the stored enrolment at `now`.
    ///
    /// It only compares; the store saves the returned verification state in the same
    /// transaction, and a wrong or replayed code counts against the account lockout.
    static func check(code: String, now: Date) -> SecondFactorCheck {
        { stored in
            let (enrolment, state) = try decode(stored)
            let outcome = try verifier(for: enrolment).verify(code, state: state, now: TOTP.unixTime(now))
            let newState = outcome.state == state ? nil : try OTPEnrolment.encodeState(outcome.state)
            switch outcome.result {
            case .accepted: return .accepted(state: newState)
            case .replayed: return SecondFactorVerdict(failure: .replayed, state: newState)
            case .rejected, .throttled: return SecondFactorVerdict(failure: .wrong, state: newState)
            }
        }
    }

    /// The login's verifier: ±1 step, and no throttling of its own, as the account lockout
    /// already limits attempts (two throttles would refuse a right code after the lock ends).
    static func verifier(for enrolment: OTPEnrolment) throws -> OTPVerifier {
        let uri = try enrolment.uri()
        if let totp = uri.totp { return OTPVerifier(totp: totp, window: 1, throttle: .disabled) }
        return OTPVerifier(hotp: uri.hotp, throttle: .disabled)
    }

    private static func decode(_ stored: SecondFactorEnrolment) throws -> (OTPEnrolment, OTPVerificationState) {
        let enrolment = try OTPEnrolment(decoding: stored.secret, unreadable: AccountError.twoFactorUnreadable)
        let state = try OTPEnrolment.decodeState(
            stored.state, initial: enrolment.initialState, unreadable: AccountError.twoFactorUnreadable)
        return (enrolment, state)
    }
}
