public import Foundation
import Synchronization
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on DATA_DIR/smsgw.serve.lock, held by the one `smsgw serve` of a store for
/// as long as it runs, with that process's id written in the file.
///
/// The lock, not a heartbeat, tells whether a daemon runs: the kernel drops it when the process
/// exits or is killed, so a crashed daemon never looks alive and a live one never looks dead.
/// Other processes only ``probe(directory:)`` it.
public final class DaemonLock: Sendable {
    /// The lock file's name inside the data directory.
    public static let fileName = "smsgw.serve.lock"
    /// The open lock file, or nil once released (so it is never closed twice).
    private let file: Mutex<FileDescriptor?>

    private init(file: consuming FileDescriptor) { self.file = Mutex(file) }

    /// Takes the lock for this process and writes its id into the file.
    ///
    /// - Returns: The held lock, which lasts until ``release()`` or the process ends; nil when
    ///   another process holds it (read its id with ``probe(directory:)``).
    /// - Throws: ``StoreError/readOnly(directory:reason:)`` when it cannot be created because the
    ///   store is read-only; ``StoreError/configuration(_:)`` when the lock file cannot be created or used.
    public static func acquire(directory: URL) throws(StoreError) -> DaemonLock? {
        let path = directory.appendingPathComponent(fileName).path
        do throws(SystemCallError) {
            let file = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o600)
            guard try file.lock(.exclusive, waiting: false) else { return nil }
            try file.truncate(to: 0)
            try file.writeAll(Array("\(getpid())\n".utf8), at: 0)
            return DaemonLock(file: file)
        } catch {
            // A daemon and a restore write to the store: on a read-only one, say so.
            let database = directory.appendingPathComponent(GatewayStore.databaseFileName).path
            if let reason = GatewayStore.readOnlyReason(directory: directory.path, databasePath: database) {
                throw .readOnly(directory: directory.path, reason: reason)
            }
            throw .configuration(error.description)
        }
    }

    /// Whether a daemon holds the lock of `directory`, and its process id when the file names one.
    ///
    /// - Returns: nil when no process holds the lock (no daemon runs); else the running daemon's
    ///   id, or 0 when the lock is held but the file has no readable id yet.
    public static func probe(directory: URL) -> Int32? {
        let path = directory.appendingPathComponent(fileName).path
        guard let file = try? FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW) else { return nil }
        // A shared lock succeeds only while nobody holds the exclusive one.
        guard let free = try? file.lock(.shared, waiting: false) else { return 0 }
        if free { return nil }
        guard let bytes = try? file.read(upTo: 32, at: 0), !bytes.isEmpty else { return 0 }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Int32(text) ?? 0
    }

    /// Releases the lock; later calls do nothing.
    public func release() {
        // Closing the only descriptor of the open file drops the lock.
        _ = file.withLock { $0.take() }
    }
}
