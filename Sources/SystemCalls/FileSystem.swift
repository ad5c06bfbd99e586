public import Glibc
import Synchronization

/// Calls on paths rather than open descriptors: `stat`, `chmod`, links, renames, the umask.
public enum FileSystem {
    /// The file's status (`stat(2)`, or `lstat(2)` when not `followingLinks`).
    /// - Returns: nil when nothing is at `path` (`ENOENT`).
    /// - Throws: ``SystemCallError`` for any other failure (a directory on the way that this user
    ///   may not search, a part of the path that is a file).
    public static func status(of path: String, followingLinks: Bool = true) throws(SystemCallError) -> stat? {
        var info = stat()
        let found = try SystemCall.run(followingLinks ? "stat" : "lstat", path: path, unless: [ENOENT]) {
            followingLinks ? stat(path, &info) : lstat(path, &info)
        }
        return found == nil ? nil : info
    }

    /// Sets the permission bits of `path` exactly (`chmod(2)`).
    public static func setMode(_ mode: mode_t, of path: String) throws(SystemCallError) {
        try SystemCall.run("chmod", path: path) { chmod(path, mode) }
    }

    /// Removes the name `path` (`unlink(2)`); nothing there is not an error.
    public static func remove(_ path: String) throws(SystemCallError) {
        _ = try SystemCall.run("unlink", path: path, unless: [ENOENT]) { unlink(path) }
    }

    /// Gives the file at `existing` a second name, `new`, refusing to replace anything (`link(2)`).
    /// - Throws: ``SystemCallError`` with `EEXIST` when `new` exists.
    public static func link(_ existing: String, to new: String) throws(SystemCallError) {
        try SystemCall.run("link", path: new) { Glibc.link(existing, new) }
    }

    /// Waits until the directory's entries (a name just linked, renamed or removed) are on the
    /// disk, so that they survive a power cut (`fsync(2)` of the directory).
    public static func synchronizeDirectory(_ path: String) throws(SystemCallError) {
        try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY).sync()
    }

    /// Makes `link` a symbolic link to `target` (`symlink(2)`).
    public static func symbolicLink(at link: String, to target: String) throws(SystemCallError) {
        try SystemCall.run("symlink", path: link) { symlink(target, link) }
    }

    /// Renames `source` to `destination`, atomically replacing what was there (`rename(2)`).
    public static func rename(_ source: String, to destination: String) throws(SystemCallError) {
        try SystemCall.run("rename", path: destination) { Glibc.rename(source, destination) }
    }

    /// Whether this process's real user may open `path` for `mode` (`access(2)`: `R_OK | W_OK`).
    public static func isAccessible(_ path: String, _ mode: Int32) -> Bool {
        access(path, mode) == 0
    }

    /// Runs `body` with the process umask set to `mask`, then restores the previous one.
    ///
    /// The umask is one per process, so these calls take turns: two stores opening at once cannot
    /// restore each other's mask. Files other threads create meanwhile get `mask` too; keep
    /// `body` as short as creating the files it is for.
    public static func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
        try umaskTurn.withLock { _ in
            let previous = umask(mask)
            defer { umask(previous) }
            return try body()
        }
    }

    private static let umaskTurn = Mutex(())
}
