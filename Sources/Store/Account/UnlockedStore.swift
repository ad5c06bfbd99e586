import Foundation
import GRDB
import Logging

/// The gateway store after a successful unlock: holds the data key in memory and gives access
/// to contacts, ratchet state, the message log, the outbox and OTP entries.
///
/// Every write goes through ``write(_:)``, one IMMEDIATE SQLite transaction, so the CLI and the
/// daemon (separate processes on the same file) serialize and never both act on the same state.
/// Neither the description nor the mirror of this object shows the data key.
public final class UnlockedStore: Sendable, CustomStringConvertible, CustomReflectable {
    /// The store this account lives in.
    public let gateway: GatewayStore
    let accountID: UUID
    let dataKey: DataKey
    private let currentUsername: LockedValue<String>

    init(gateway: GatewayStore, accountID: UUID, username: String, dataKey: DataKey) {
        self.gateway = gateway
        self.accountID = accountID
        self.dataKey = dataKey
        self.currentUsername = LockedValue(username)
    }

    /// The account's username as of the last unlock or ``rename(to:)``.
    public var username: String { currentUsername.value }

    public var description: String { "UnlockedStore(username: \(username))" }
    public var customMirror: Mirror { Mirror(self, children: ["username": username]) }

    var logger: Logger { gateway.logger }

    // MARK: Transactions

    /// Runs `body` in one IMMEDIATE write transaction and commits if it returns.
    ///
    /// Throwing from `body` rolls everything back and rethrows the same error, so a caller
    /// can verify (for example a MAC) and abort without side effects. A second process's
    /// write waits (up to the busy timeout) until this one commits.
    @discardableResult
    public func write<T>(_ body: (StoreTransaction) throws -> T) throws -> T {
        try StoreError.wrapping {
            try gateway.pool.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    try requireAccount(db)
                    result = try body(StoreTransaction(db: db, dataKey: dataKey, accountID: accountID))
                    return .commit
                }
                return result!
            }
        }
    }

    /// Runs `body` on a consistent read-only snapshot of the database.
    public func read<T>(_ body: (StoreReader) throws -> T) throws -> T {
        try StoreError.wrapping {
            try gateway.pool.read { db in
                try requireAccount(db)
                return try body(StoreReader(db: db, dataKey: dataKey, accountID: accountID))
            }
        }
    }

    /// Fails when the account was deleted (possibly by another process) since the unlock.
    private func requireAccount(_ db: Database) throws {
        let exists = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM account WHERE id = ?)", arguments: [accountID.storeString]
        ) ?? false
        if !exists { throw StoreError.noAccount }
    }

    // MARK: Account

    /// Rewraps the data key under a new passphrase; no other row changes.
    ///
    /// - Parameters:
    ///   - passphrase: The new passphrase, at least 8 characters.
    ///   - parameters: New Argon2id costs, or nil to keep the stored ones.
    public func changePassphrase(to passphrase: String, parameters: Argon2Parameters? = nil) throws {
        try AccountRules.passphrase(passphrase)
        let current = try read { reader in try AccountRecord.require(reader.db).parameters }
        let parameters = parameters ?? current
        try parameters.validate()
        // Argon2 runs before the transaction so the daemon is not blocked while it works.
        let salt = PassphraseKey.randomSalt()
        let kek = try PassphraseKey.derive(passphrase: passphrase, salt: salt, parameters: parameters)
        let wrapped = try dataKey.wrapped(by: kek, for: .dataKey(account: accountID))
        try write { tx in
            try tx.db.execute(
                sql: """
                    UPDATE account SET kdf_salt = ?, kdf_memory_kib = ?, kdf_iterations = ?, kdf_parallelism = ?,
                        wrapped_data_key = ?, failed_attempts = 0, locked_until = NULL, updated_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    salt, Int64(parameters.memoryKiB), Int64(parameters.iterations), Int64(parameters.parallelism),
                    wrapped, Date().timeIntervalSince1970, accountID.storeString,
                ]
            )
        }
        logger.info("Changed the account passphrase.")
    }

    /// Changes the account's username.
    public func rename(to username: String) throws {
        let username = try AccountRules.username(username)
        try write { tx in
            try tx.db.execute(
                sql: "UPDATE account SET username = ?, updated_at = ? WHERE id = ?",
                arguments: [username, Date().timeIntervalSince1970, accountID.storeString]
            )
        }
        currentUsername.value = username
    }

    /// Deletes the account and every contact, key, message, outbox row, fingerprint and OTP entry.
    ///
    /// `secure_delete` zeroes the freed content, and a truncating WAL checkpoint removes the
    /// old page images from the `-wal` file. This object is unusable afterwards.
    public func deleteAccount() throws {
        try write { tx in
            for table in StoreSchema.tables {
                try tx.db.execute(sql: "DELETE FROM \(table)")
            }
        }
        try gateway.requireTruncatedWriteAheadLog(after: "the account is deleted")
        logger.notice("Deleted the gateway account and all its data.")
    }
}

extension UnlockedStore {
    /// Moves everything from the `-wal` file into the database file (a truncating checkpoint) and
    /// closes the connections, so the database file alone is complete once the daemon has stopped.
    /// Call it last: the store is unusable afterwards.
    public func close() throws {
        try StoreError.wrapping {
            _ = try gateway.pool.writeWithoutTransaction { db in
                try db.checkpoint(.truncate)
            }
            try gateway.pool.close()
        }
    }
}

/// A value behind a lock, for the few mutable fields of otherwise immutable Sendable classes.
///
/// `@unchecked Sendable` is safe because every access to `storage` holds `lock`.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value

    init(_ value: Value) { storage = value }

    var value: Value {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }
}
