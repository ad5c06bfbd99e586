public import Foundation
public import Store

/// The account that protects every key and message: creating it, renaming it, changing its
/// passphrase (and data key), deleting it. Unlocking is ``Login``; two-factor login is
/// ``TwoFactorLogin``.
///
/// The passphrases come in as values: prompting, confirming a typed passphrase and reading one
/// from the environment are the front end's.
public enum Account {
    /// Creates the data directory's only account and returns it unlocked.
    ///
    /// - Parameters:
    ///   - gateway: The opened store.
    ///   - username: 1 to 64 characters, trimmed.
    ///   - passphrase: At least 8 characters.
    ///   - parameters: The Argon2id cost, at least ``Argon2Parameters/minimum``.
    /// - Throws: ``AccountError/accountExists(directory:)`` when one exists (checked first, so a
    ///   front end may call ``requireNoAccount(in:)`` before asking for a passphrase), and the
    ///   store's ``StoreError/invalidInput(_:)`` for a refused name, passphrase or parameters.
    public static func create(
        in gateway: GatewayStore, username: String, passphrase: String, parameters: Argon2Parameters
    ) throws -> UnlockedStore {
        try requireNoAccount(in: gateway)
        do {
            return try gateway.createAccount(username: username, passphrase: passphrase, parameters: parameters)
        } catch StoreError.alreadyExists {
            // Another process created one between the check and the transaction.
            throw AccountError.accountExists(directory: gateway.directory.path)
        }
    }

    /// Throws ``AccountError/accountExists(directory:)`` when the data directory has an account.
    public static func requireNoAccount(in gateway: GatewayStore) throws {
        if try gateway.accountExists { throw AccountError.accountExists(directory: gateway.directory.path) }
    }

    /// Changes the username and returns it as stored (trimmed, NFC).
    public static func rename(_ store: UnlockedStore, to username: String) throws -> String {
        try store.rename(to: username)
        return store.username
    }

    /// Checks what a passphrase change needs before the new passphrase is asked for: a key
    /// rotation is refused while a daemon runs on the data directory (it holds the current key).
    ///
    /// - Throws: ``StoreError/invalidState(_:)`` when rotating and a daemon runs.
    public static func preparePassphraseChange(_ store: UnlockedStore, rotatingDataKey: Bool) throws {
        if rotatingDataKey { try store.refuseWhileDaemonRuns() }
    }

    /// Rewraps the data key under `passphrase`, and with `rotatingDataKey` replaces the data key
    /// and re-encrypts every secret under the new one, in one transaction.
    ///
    /// - Parameters:
    ///   - passphrase: The new passphrase, at least 8 characters (it may equal the old one).
    ///   - rotatingDataKey: Also replace the data key (refused while a daemon runs).
    public static func changePassphrase(_ store: UnlockedStore, to passphrase: String, rotatingDataKey: Bool) throws {
        try store.changePassphrase(to: passphrase, rotatingDataKey: rotatingDataKey)
    }

    /// Deletes the account and every contact, key, message and OTP entry; the store is unusable
    /// afterwards. Confirming it (typing the username) is the front end's.
    public static func delete(_ store: UnlockedStore) throws {
        try store.deleteAccount()
    }
}
