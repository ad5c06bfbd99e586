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
        let passphrase = try PassphraseSource.account.read(prompt: "Passphrase for smsgw: ")
        // Asked before the unlock lock is taken and whatever the passphrase: see LoginSecondFactor.
        let secondFactor = try gateway.twoFactorEnabled ? LoginSecondFactor.check(code: LoginSecondFactor.readCode()) : nil
        // One unlock at a time across processes (the daemon too): see Store's UnlockLock.
        return try gateway.unlockSerialized(passphrase: passphrase, secondFactor: secondFactor)
    }
}
