public import Foundation
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
/// Argon2 never leaves it held.
public struct UnlockLock: Sendable {
    /// The lock file's name inside the data directory.
    public static let fileName = "smsgw.unlock.lock"
    private let fd: Int32

    /// Blocks until this process holds the lock.
    /// - Throws: ``StoreError/configuration(_:)`` when the lock file cannot be created or locked.
    public init(directory: URL) throws(StoreError) {
        let path = directory.appendingPathComponent(Self.fileName).path
        // O_NOFOLLOW: a symbolic link planted under this name is refused, never followed.
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            if errno == ELOOP { throw FilePermissions.symbolicLinkRefused(path) }
            throw .configuration("Cannot create \(path); check the data directory's permissions.")
        }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                _ = close(fd)
                throw .configuration("Cannot lock \(path); check the data directory's file system.")
            }
        }
        self.fd = fd
    }

    /// Releases the lock; call it exactly once.
    public func release() {
        _ = flock(fd, LOCK_UN)
        _ = close(fd)
    }

    /// Runs `body` while holding the lock of `directory`.
    public static func withLock<T>(directory: URL, _ body: () throws -> T) throws -> T {
        let lock = try UnlockLock(directory: directory)
        defer { lock.release() }
        return try body()
    }
}

extension GatewayStore {
    /// Unlocks the account while holding ``UnlockLock``, so the CLI and the daemon never race
    /// on the failure counter. Every process that unlocks should use this.
    ///
    /// Read the passphrase and, with two-factor login on, the code *before* calling: nobody
    /// types while the lock is held.
    ///
    /// - Throws: as ``unlock(passphrase:now:secondFactor:)``, or ``StoreError/configuration(_:)``
    ///   when the lock file cannot be used.
    public func unlockSerialized(
        passphrase: String, secondFactor: SecondFactorCheck? = nil
    ) throws -> UnlockedStore {
        try UnlockLock.withLock(directory: directory) { try unlock(passphrase: passphrase, secondFactor: secondFactor) }
    }
}
