public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// An exclusive `flock` on DATA_DIR/smsgw.serve.lock, held by the one `smsgw serve` of a store for
/// as long as it runs, with that process's id written in the file.
///
/// The lock, not a heartbeat, tells whether a daemon runs: the kernel drops it when the process
/// exits or is killed, so a crashed daemon never looks alive and a live one never looks dead.
/// Other processes only ``probe(directory:)`` it.
public final class DaemonLock: Sendable {
    /// The lock file's name inside the data directory.
    public static let fileName = "smsgw.serve.lock"
    /// The open lock file, or nil once released (so a descriptor number is never closed twice).
    private let fd: Mutex<Int32?>

    private init(fd: Int32) { self.fd = Mutex(fd) }

    deinit { release() }

    /// Takes the lock for this process and writes its id into the file.
    ///
    /// - Returns: The held lock, which lasts until ``release()`` or the process ends; nil when
    ///   another process holds it (read its id with ``probe(directory:)``).
    /// - Throws: ``StoreError/configuration(_:)`` when the lock file cannot be created or used.
    public static func acquire(directory: URL) throws(StoreError) -> DaemonLock? {
        let path = directory.appendingPathComponent(fileName).path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            throw .configuration("Cannot create \(path); check the data directory's owner and permissions.")
        }
        guard lockWithoutWaiting(fd) else {
            _ = close(fd)
            return nil
        }
        let pid = Array("\(getpid())\n".utf8)
        if ftruncate(fd, 0) != 0 || pid.withUnsafeBytes({ pwrite(fd, $0.baseAddress, $0.count, 0) }) != pid.count {
            _ = close(fd)
            throw .configuration("Cannot write the daemon's process id to \(path); check the data directory's file system.")
        }
        return DaemonLock(fd: fd)
    }

    /// Whether a daemon holds the lock of `directory`, and its process id when the file names one.
    ///
    /// - Returns: nil when no process holds the lock (no daemon runs); else the running daemon's
    ///   id, or 0 when the lock is held but the file has no readable id yet.
    public static func probe(directory: URL) -> Int32? {
        let path = directory.appendingPathComponent(fileName).path
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { _ = close(fd) }
        // A shared lock succeeds only while nobody holds the exclusive one.
        if sharedLockWithoutWaiting(fd) {
            _ = flock(fd, LOCK_UN)
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return 0 }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text) ?? 0
    }

    /// Releases the lock; later calls do nothing.
    public func release() {
        guard let fd = fd.withLock({ value -> Int32? in defer { value = nil }; return value }) else { return }
        _ = flock(fd, LOCK_UN)
        _ = close(fd)
    }

    private static func lockWithoutWaiting(_ fd: Int32) -> Bool {
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }

    private static func sharedLockWithoutWaiting(_ fd: Int32) -> Bool {
        while flock(fd, LOCK_SH | LOCK_NB) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }
}
