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

/// A `flock` on DATA_DIR/smsgw.store.lock: shared by every process for as long as it has the
/// SQLite store of the data directory open, exclusive for a restore, which replaces the file.
///
/// A process that commits to the store while a restore copies it aside and renames the backup
/// over it would write to the replaced file (or an unlinked one), and the write would be lost.
/// With this lock a restore starts only when no other process has the store open, and no process
/// opens it until the restore has finished: the one that comes second is refused with
/// ``StoreError/inUse(_:)``, a restore after waiting briefly for a holder that lets go at once
/// (``exclusive(directory:patience:)``), any other at once. The kernel drops the lock when the process exits or is
/// killed. A lock belongs to one open file description, so two opens in one process conflict as
/// two processes do.
public final class StoreLock: Sendable {
    /// The lock file's name inside the data directory.
    public static let fileName = "smsgw.store.lock"
    /// The open lock file, or nil once released (so it is never closed twice).
    private let file: Mutex<FileDescriptor?>

    private init(file: consuming FileDescriptor) { self.file = Mutex(file) }

    /// Takes the lock of `directory` shared, as every process that opens the store does.
    ///
    /// For a store opened read-only (`readOnly`) the lock file is opened for reading (a `flock`
    /// needs no more) and never created: an existing one is locked, and where it is missing
    /// none can be made, and no lock is needed, as no restore can replace a store in a place
    /// this process cannot write either (nil).
    ///
    /// - Throws: ``StoreError/inUse(_:)`` (``StoreError/InUse/restoring(directory:)``) while a
    ///   restore holds it; ``StoreError/configuration(_:)`` when the lock file cannot be used.
    static func shared(directory: URL, readOnly: Bool = false) throws(StoreError) -> StoreLock? {
        let restoring = StoreError.inUse(.restoring(directory: directory.path))
        guard readOnly else {
            guard let lock = try take(.shared, directory: directory) else { throw restoring }
            return lock
        }
        let path = directory.appendingPathComponent(fileName).path
        let lock: StoreLock?
        do throws(SystemCallError) {
            let file = try FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW)
            lock = try file.lock(.shared, waiting: false) ? StoreLock(file: file) : nil
        } catch  where error.code == ENOENT {
            return nil
        } catch  where error.code == ELOOP {
            throw FilePermissions.symbolicLinkRefused(path)
        } catch {
            throw .configuration(error.description)
        }
        guard let lock else { throw restoring }
        return lock
    }

    /// Takes the lock of `directory` exclusive, for a restore: only while no other process (and
    /// no other open store of this process) has the store open.
    ///
    /// A holder may be one that lets go at once (a shell completing a contact's name reads for a
    /// few milliseconds), so the lock is asked for again every 50 ms for up to `patience` before
    /// the restore is refused; a daemon or `log --follow` holds it far longer.
    ///
    /// - Throws: ``StoreError/inUse(_:)`` (``StoreError/InUse/open(directory:)``) when another
    ///   holds it all that time; ``StoreError/configuration(_:)`` when the lock file cannot be used.
    public static func exclusive(directory: URL, patience: Duration = .seconds(2)) throws(StoreError) -> StoreLock {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: patience)
        while true {
            if let lock = try take(.exclusive, directory: directory) { return lock }
            guard clock.now < deadline else { throw .inUse(.open(directory: directory.path)) }
            usleep(50_000)
        }
    }

    /// Runs `body` holding the lock of `directory` shared, without creating the lock file: for a
    /// short read that must make no file, such as shell completion. With no lock file no
    /// restore has run yet, and a read racing one that starts is harmless: `body` runs unlocked.
    ///
    /// - Returns: What `body` returns, or nil (`body` not run) while a restore holds the lock or
    ///   the lock file cannot be used.
    static func readingIfFree<T>(directory: URL, _ body: () throws -> T) rethrows -> T? {
        let path = directory.appendingPathComponent(fileName).path
        let file: FileDescriptor
        do throws(SystemCallError) {
            file = try FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW)
        } catch {
            return error.code == ENOENT ? try body() : nil
        }
        guard (try? file.lock(.shared, waiting: false)) == true else { return nil }
        let result = try body()
        file.unlock()
        return result
    }

    /// Whether a restore holds the lock of `directory` (exclusive) now, looked at without
    /// creating the lock file: a restore also holds the daemon lock, so a command that asks the
    /// daemon can tell a restore from a daemon that does not answer.
    public static func isRestoring(directory: URL) -> Bool {
        readingIfFree(directory: directory) { true } == nil
    }

    /// Opens (creating, 0600) the lock file of `directory` and takes the lock without waiting.
    private static func take(_ kind: FileLock, directory: URL) throws(StoreError) -> StoreLock? {
        let path = directory.appendingPathComponent(fileName).path
        do throws(SystemCallError) {
            // O_NOFOLLOW: a symbolic link planted under this name is refused, never followed.
            let file = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o600)
            guard try file.lock(kind, waiting: false) else { return nil }
            return StoreLock(file: file)
        } catch  where error.code == ELOOP {
            throw FilePermissions.symbolicLinkRefused(path)
        } catch {
            throw .configuration(error.description)
        }
    }

    /// Releases the lock; later calls do nothing.
    public func release() {
        // Closing the only descriptor of the open file drops the lock.
        _ = file.withLock { $0.take() }
    }
}
