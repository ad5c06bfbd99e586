import Foundation
import Gateway
import Logging
import Operations
import Store
import TerminalIO

/// Opening the gateway database and unlocking its account, shared by every command.
enum StoreAccess {
    /// Opens the configured store: `settings`, or for a command other than `serve` the `[store]`
    /// table of `SMSGW_CONFIG`'s file and the `SMSGW_STORE_*` variables; SQLite in the data
    /// directory when neither says otherwise.
    /// - Parameters:
    ///   - creating: Whether a missing SQLite store is created: only for `init`. Any other
    ///     command in a data directory without one is refused (66), so one run on a PostgreSQL
    ///     node without the configuration makes no empty second store.
    ///   - logger: What the store logs to: the command's (``GlobalOptions/makeLogger()``) unless
    ///     given; `serve` gives the daemon's, at its `log_level`.
    static func open(
        _ options: GlobalOptions, settings: StoreSettings? = nil, creating: Bool = false, logger: Logger? = nil
    ) throws -> GatewayStore {
        let settings = try settings ?? StoreSettings.load(configurationFile: ConfigurationOption.environmentFile)
        return try settings.open(dataDirectory: options.dataDirectory, logger: logger ?? options.makeLogger(), creating: creating)
    }

    /// Opens the database and unlocks the account (``Login``) with the passphrase from
    /// ``PassphraseSource/account`` and, when two-factor login is on, a code (``LoginCode``),
    /// asked for in the order ``Login`` sets.
    ///
    /// - Throws: ``AccountError`` 66 when no account exists yet; ``StoreError`` or ``CLIError``
    ///   77 for a wrong passphrase, a missing, wrong or replayed code, or a locked account.
    static func unlock(_ options: GlobalOptions, settings: StoreSettings? = nil, logger: Logger? = nil) throws -> UnlockedStore {
        try unlock(try open(options, settings: settings, logger: logger))
    }

    /// Unlocks the account of an open store as ``unlock(_:settings:)`` does (a restore's copy of
    /// a backup, opened where the data directory's store is not).
    static func unlock(_ store: GatewayStore) throws -> UnlockedStore {
        let login = try Login.begin(store, now: Date())
        var origin = ""
        return try namingWrongPassphrase({ origin }) {
            let given = try credentials(for: login) { origin = $0 }
            return try login.unlock(passphrase: given.passphrase, code: given.code, now: Date())
        }
    }

    /// The passphrase from ``PassphraseSource/account`` and, when `login` requires one, a code;
    /// `origin` learns where the passphrase came from.
    static func credentials(for login: Login, origin: (String) -> Void) throws -> LoginCredentials {
        let passphrase = try PassphraseSource.account.readWithOrigin(prompt: "Passphrase for smsgw: ")
        origin(passphrase.origin)
        return LoginCredentials(passphrase: passphrase.value, code: login.requiresCode ? try LoginCode.read() : nil)
    }

    /// Runs `body`, turning a wrong passphrase into the sentence that names where it came from.
    static func namingWrongPassphrase<T>(_ origin: () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch StoreError.authenticationFailed(let remaining) {
            // A wrong code has an error of its own (StoreError.secondFactorFailed), so this is the passphrase.
            throw CLIError(wrongPassphrase(from: origin(), remainingAttempts: remaining), status: .authentication)
        }
    }

    /// "The passphrase from ORIGIN is wrong; …": a service with a stale passphrase file says which file.
    static func wrongPassphrase(from origin: String, remainingAttempts: Int?) -> String {
        if let remainingAttempts, remainingAttempts <= 0 {
            return "The passphrase from \(origin) is wrong; the account is now locked for a while, so fix it and wait before trying again."
        }
        return "The passphrase from \(origin) is wrong; correct it and try again (\(StoreError.attempts(remainingAttempts)))."
    }
}
