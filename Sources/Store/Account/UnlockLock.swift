public import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on DATA_DIR/smsgw.unlock.lock, held around one unlock.
///
/// The store counts each attempt as a failure until Argon2 finishes, so several processes (the
/// CLI and the daemon) unlocking at once with the right passphrase could trip the lockout; this
/// lock makes them take turns. The kernel drops it when the process dies, so a `kill -9` during
/// Argon2 never leaves it held. Non-copyable: it is released once, when the value goes away or
/// by ``release()``.
///
/// The lock is the data directory's, so it orders the processes of one node only; on PostgreSQL
/// ``GatewayStore/withUnlockLock(_:)`` also takes a lock on the database, for every node.
public struct UnlockLock: ~Copyable, Sendable {
    /// The lock file's name inside the data directory.
    public static let fileName = "smsgw.unlock.lock"
    private let file: FileDescriptor

    /// Blocks until this process holds the lock.
    /// - Throws: ``StoreError/configuration(_:)`` when the lock file cannot be created or locked.
    public init(directory: URL) throws(StoreError) {
        let path = directory.appendingPathComponent(Self.fileName).path
        do throws(SystemCallError) {
            // O_NOFOLLOW: a symbolic link planted under this name is refused, never followed.
            let file = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o600)
            try file.lock(.exclusive, waiting: true)
            self.file = file
        } catch  where error.code == ELOOP {
            throw FilePermissions.symbolicLinkRefused(path)
        } catch {
            throw .configuration(error.description)
        }
    }

    /// Releases the lock (closing the file drops it).
    public consuming func release() {
        file.unlock()
    }

    /// Runs `body` while holding the lock of `directory`.
    public static func withLock<T>(directory: URL, _ body: () throws -> T) throws -> T {
        let lock = try UnlockLock(directory: directory)
        let result = Result { try body() }
        lock.release()
        return try result.get()
    }
}

extension GatewayStore {
    /// Runs `body` holding the unlock lock: ``UnlockLock`` on this data directory and, on
    /// PostgreSQL, a session advisory lock on the database, held on a connection of the pool
    /// throughout, so that nodes with data directories of their own (or commands on several
    /// hosts) unlocking at once also take turns. Every unlock, and whatever must not overlap
    /// one, runs in it. A read-only store (``readOnly``) runs `body` without the lock: its
    /// unlock counts no failures (nothing can be written), so there is nothing to take turns on,
    /// and its lock file could not be created.
    ///
    /// - Throws: What `body` throws; ``StoreError/configuration(_:)`` when the lock file cannot
    ///   be used; ``StoreError/server(_:cause:)`` when the PostgreSQL server cannot be reached.
    public func withUnlockLock<T>(_ body: () throws -> T) throws -> T {
        if readOnly != nil { return try body() }
        return try UnlockLock.withLock(directory: directory) {
            switch backend {
            case .sqlite: try body()
            case .postgresql(let pool, _): try pool.withSessionLock(PostgresPool.unlockLock, body)
            }
        }
    }

    /// Unlocks the account while holding the unlock lock (``withUnlockLock(_:)``), so the CLI,
    /// the daemon and other nodes never race on the failure counter. Every process that unlocks
    /// should use this.
    ///
    /// Read the passphrase and, with two-factor login on, the code *before* calling: nobody
    /// types while the lock is held.
    ///
    /// - Throws: as ``unlock(passphrase:now:secondFactor:)``, or ``StoreError/configuration(_:)``
    ///   when the lock file cannot be used.
    public func unlockSerialized(
        passphrase: String, secondFactor: SecondFactorCheck? = nil
    ) throws -> UnlockedStore {
        try withUnlockLock { try unlock(passphrase: passphrase, secondFactor: secondFactor) }
    }
}
