import Foundation
import Logging
import Synchronization

/// The gateway store after a successful unlock: holds the data key in memory and gives access
/// to contacts, ratchet state, the message log, the outbox and OTP entries.
///
/// Every write goes through ``write(_:_:)``, one IMMEDIATE SQLite transaction (on PostgreSQL a
/// serialisable one under its scope's locks), so the CLI and the daemon (separate processes, or
/// nodes) never both act on the same state.
/// Neither the description nor the mirror of this object shows the data key.
public final class UnlockedStore: Sendable, CustomStringConvertible, CustomReflectable {
    /// The store this account lives in.
    public let gateway: GatewayStore
    let accountID: UUID
    /// The keys in memory; replaced when this process changes the passphrase or rotates the key.
    let keys: Mutex<AccountKeys>
    let currentUsername: Mutex<String>
    /// The API tokens as last read, for the daemon's check of each request.
    let apiTokenCache: APITokenCache
    /// Told each write transaction's outcome; see ``observeWrites(_:)``.
    private let writeObserver = Mutex<(@Sendable ((any Error)?) -> Void)?>(nil)

    init(gateway: GatewayStore, accountID: UUID, username: String, keys: AccountKeys) {
        self.gateway = gateway
        self.apiTokenCache = APITokenCache(gateway: gateway)
        self.accountID = accountID
        self.keys = Mutex(keys)
        self.currentUsername = Mutex(username)
    }

    /// The account's username as of the last unlock or ``rename(to:)``.
    public var username: String { currentUsername.withLock { $0 } }

    /// The data key in use.
    var dataKey: DataKey { keys.withLock { $0.dataKey } }

    public var description: String { "UnlockedStore(username: \(username))" }
    public var customMirror: Mirror { Mirror(self, children: ["username": username]) }

    var logger: Logger { gateway.logger }

    /// Runs `body` in one IMMEDIATE write transaction and commits if it returns.
    ///
    /// Throwing from `body` rolls everything back and rethrows the same error, so a caller
    /// can verify (for example a MAC) and abort without side effects. A second process's
    /// write waits (up to the busy timeout) until this one commits.
    ///
    /// - Parameter scope: What `body` changes: the whole database (the default), or only the
    ///   ratchets of some contacts, so that on PostgreSQL other contacts' writes run meanwhile
    ///   (see ``WriteScope``). A body that steps one contact's ratchet must name that contact.
    @discardableResult
    public func write<T>(_ scope: WriteScope = .database, _ body: (StoreTransaction) throws -> T) throws -> T {
        let keys = keys.withLock { $0 }
        let observer = writeObserver.withLock { $0 }
        do {
            let value = try StoreError.wrapping {
                try gateway.writeTransaction(scope) { db in
                    try requireAccount(db, generation: keys.generation)
                    return try body(
                        StoreTransaction(db: db, dataKey: keys.dataKey, accountID: accountID, refusingMoved: gateway.refuseIfMoved(within:))
                    )
                }
            }
            observer?(nil)
            return value
        } catch {
            observer?(error)
            throw error
        }
    }

    /// Tells `observer` the outcome of every write transaction of this process from now on
    /// (``write(_:_:)``: nil when it committed, else the error it failed with), whoever asked for
    /// it: the daemon's services and its front ends alike. One observer at a time; a second
    /// call replaces the first.
    public func observeWrites(_ observer: @escaping @Sendable ((any Error)?) -> Void) {
        writeObserver.withLock { $0 = observer }
    }

    /// Runs `body` on a consistent read-only snapshot of the database.
    public func read<T>(_ body: (StoreReader) throws -> T) throws -> T {
        let keys = keys.withLock { $0 }
        return try StoreError.wrapping {
            try gateway.readTransaction { db in
                try requireAccount(db, generation: keys.generation)
                return try body(StoreReader(db: db, dataKey: keys.dataKey, accountID: accountID))
            }
        }
    }

    /// Fails when the account was deleted, or its data key replaced, by another process since
    /// the unlock: rows sealed under a retired key could never be opened again.
    private func requireAccount(_ db: StoreDatabase, generation: Int64) throws {
        let current = try db.value(
            Int64.self, sql: "SELECT key_generation FROM account WHERE id = ?", arguments: [accountID.storeString])
        guard let current else { throw StoreError.noAccount }
        if current != generation { throw StoreError.dataKeyReplaced }
    }
}

extension UnlockedStore {
    /// Moves everything from the `-wal` file into the database file (a truncating checkpoint) and
    /// closes the connections, so the database file alone is complete once the daemon has stopped.
    /// Call it last: the store is unusable afterwards.
    public func close() throws {
        try gateway.closeDatabase()
    }
}

/// The keys an unlocked account holds in memory.
struct AccountKeys: Sendable {
    var dataKey: DataKey
    var kek: KeyEncryptionKey
    /// The account's `key_generation` when ``dataKey`` was current.
    var generation: Int64
}

extension StoreError {
    static let dataKeyReplaced = StoreError.invalidState(
        "Another smsgw process replaced the data key (a key rotation) since this one unlocked; unlock again and repeat the operation."
    )
}
