import Foundation
import OTP
import Store

/// Two-factor login: once `smsgw account 2fa enable` ran, every unlock asks for a TOTP code after
/// the passphrase. The code is checked with replay rejection (state saved with the check), and a
/// wrong code counts against the account lockout exactly like a wrong passphrase.
enum LoginSecondFactor {
    /// The OTP entry holding the login secret; `smsgw otp` commands refuse this name.
    static let entryName = "smsgw-login"

    /// Whether a name is reserved for the login secret.
    static func isReserved(_ name: String) -> Bool {
        name.lowercased() == entryName
    }

    /// Where the code comes from: SMSGW_TOTP_CODE for scripts, else a prompt on the terminal.
    static func readCode() throws -> String {
        if let code = ProcessInfo.processInfo.environment["SMSGW_TOTP_CODE"], !code.isEmpty { return code }
        guard let terminal = Terminal.open() else {
            throw CLIError(
                "Two-factor login is on and there is no terminal to ask for the code; set SMSGW_TOTP_CODE to the current code.",
                status: .authentication)
        }
        defer { terminal.close() }
        return try terminal.readMasked(prompt: "Authentication code: ")
    }

    /// The `secondFactor` check passed to the Store's unlock: true when 2FA is off or the code is right.
    static func check(_ store: UnlockedStore) throws -> Bool {
        guard let enrolment = try enrolment(in: store) else { return true }
        return try verify(readCode(), enrolment: enrolment, store: store)
    }

    /// The login enrolment, or nil when two-factor login is off.
    static func enrolment(in store: UnlockedStore) throws -> OTPEnrolment? {
        do {
            let entry = try store.otpEntry(named: entryName)
            return try OTPEnrolment(decoding: entry.secret, name: entryName)
        } catch StoreError.notFound {
            return nil
        }
    }

    /// Checks a code and saves the verification state (replay boundary, throttling) in one transaction.
    static func verify(_ code: String, enrolment: OTPEnrolment, store: UnlockedStore) throws -> Bool {
        let now = Int64(Date().timeIntervalSince1970)
        let result = try store.write { tx in
            let entry = try tx.otpEntry(named: entryName)
            let state = try OTPEnrolment.decodeState(entry.state, name: entryName, initial: enrolment.initialState)
            let outcome = try enrolment.verifier().verify(code, state: state, now: now)
            if outcome.state != state {
                try tx.updateOTPEntry(named: entryName, state: OTPEnrolment.encodeState(outcome.state))
            }
            return outcome.result
        }
        return result.isAccepted
    }
}
