import Foundation
import Logging
import Store

/// Opening the gateway database and unlocking its account, shared by every command.
enum StoreAccess {
    /// Opens the database in the data directory (creating it if needed).
    static func open(_ options: GlobalOptions) throws -> GatewayStore {
        try GatewayStore.open(directory: options.dataDirectory, logger: options.makeLogger())
    }

    /// Opens the database and unlocks the account with the passphrase from ``PassphraseSource/account``
    /// and, when two-factor login is on, a code (``LoginSecondFactor``).
    ///
    /// - Throws: ``CLIError`` 66 when no account exists yet; ``StoreError`` 77 for a wrong
    ///   passphrase, a missing, wrong or replayed code, or a locked account.
    static func unlock(_ options: GlobalOptions) throws -> UnlockedStore {
        let gateway = try open(options)
        guard try gateway.accountExists else {
            throw CLIError(
                "No account exists in \(gateway.directory.path); create one with `smsgw init --username NAME`.",
                status: .notFound)
        }
        // Checked before prompting: a locked account should not ask for a passphrase it will refuse.
        if let until = try gateway.lockedUntil() { throw StoreError.lockedOut(until: until) }
        let passphrase = try PassphraseSource.account.readWithOrigin(prompt: "Passphrase for smsgw: ")
        // Asked before the unlock lock is taken and whatever the passphrase: see LoginSecondFactor.
        let secondFactor = try gateway.twoFactorEnabled ? LoginSecondFactor.check(code: LoginSecondFactor.readCode()) : nil
        do {
            // One unlock at a time across processes (the daemon too): see Store's UnlockLock.
            return try gateway.unlockSerialized(passphrase: passphrase.value, secondFactor: secondFactor)
        } catch StoreError.authenticationFailed(let remaining) {
            // A wrong code has an error of its own (StoreError.secondFactorFailed), so this is the passphrase.
            throw CLIError(wrongPassphrase(from: passphrase.origin, remainingAttempts: remaining), status: .authentication)
        }
    }

    /// "The passphrase from ORIGIN is wrong; …": a service with a stale passphrase file says which file.
    static func wrongPassphrase(from origin: String, remainingAttempts: Int) -> String {
        guard remainingAttempts > 0 else {
            return "The passphrase from \(origin) is wrong; the account is now locked for a while, so fix it and wait before trying again."
        }
        let attempts = remainingAttempts == 1 ? "1 more attempt" : "\(remainingAttempts) more attempts"
        return "The passphrase from \(origin) is wrong; correct it and try again (\(attempts) before the account locks)."
    }
}
