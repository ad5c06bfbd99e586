import Foundation
import OTP
import Store

/// Two-factor login: once `smsgw account 2fa enable` ran, every unlock also needs a TOTP code.
///
/// The store says whether two-factor login is on without unlocking, so the code is read right
/// after the passphrase and before the unlock: nobody types while the unlock lock is held, and
/// the prompt comes whether or not the passphrase is right (it tells nothing about it). The
/// store then runs ``check(code:)`` once the passphrase is proved, with replay rejection, and a
/// wrong or replayed code counts against the account lockout like a wrong passphrase.
enum LoginSecondFactor {
    /// Whether a name is the one reserved for the login secret, compared as the store compares
    /// names (so `SMSGW-Login`, ` smsgw-login` and the full-width spelling are the same name).
    static func isReserved(_ name: String) -> Bool {
        OTPEntry.isReservedName(name)
    }

    /// Where the code comes from: SMSGW_TOTP_CODE for scripts, else a prompt on the terminal.
    static func readCode() throws -> String {
        if let code = ProcessInfo.processInfo.environment["SMSGW_TOTP_CODE"], !code.isEmpty { return code }
        guard let terminal = Terminal.open() else {
            throw CLIError(
                "Two-factor login is on and there is no terminal to ask for the code; set SMSGW_TOTP_CODE to the current code.",
                status: .authentication)
        }
        return try terminal.readMasked(prompt: "Authentication code: ")
    }

    /// The check the store runs under its unlock lock: `code` against the stored enrolment.
    ///
    /// It only compares; the store saves the returned verification state in the same transaction.
    static func check(code: String) -> SecondFactorCheck {
        { stored in
            let (enrolment, state) = try decode(stored)
            let outcome = try verifier(for: enrolment).verify(code, state: state, now: Int64(Date().timeIntervalSince1970))
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
        do {
            let enrolment = try OTPEnrolment(decoding: stored.secret, name: "two-factor login")
            return (enrolment, try OTPEnrolment.decodeState(stored.state, name: "two-factor login", initial: enrolment.initialState))
        } catch {
            throw StoreError.corrupted("The two-factor login secret cannot be read; restore the database from a backup.")
        }
    }
}
