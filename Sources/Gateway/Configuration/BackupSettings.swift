public import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The `[backup]` table: the daemon's own backups of a SQLite store (``Operations/AutomaticBackups``).
///
/// Off unless `directory` is set. The daemon then writes a backup when it starts (unless the
/// newest in the directory is younger than the interval) and every `interval_seconds`, and keeps
/// the newest `keep`.
public struct BackupSettings: Sendable, Equatable {
    /// `directory`: where the backups go, an absolute path outside the data directory; nil: off.
    public var directory: URL?
    /// `interval_seconds`: seconds between two backups (at least ``minimumInterval``).
    public var intervalSeconds: Double
    /// `keep`: how many backups are kept, 1 to 1000.
    public var keep: Int

    /// The shortest interval the configuration takes: a backup copies the whole store.
    public static let minimumInterval = 60.0
    /// The most backups the configuration keeps.
    public static let maximumKeep = 1000

    public init(directory: URL? = nil, intervalSeconds: Double = 86_400, keep: Int = 7) {
        self.directory = directory
        self.intervalSeconds = intervalSeconds
        self.keep = keep
    }

    /// Makes the backup directory ready when the daemon starts: creates it 0700 if it is missing
    /// (its parent must exist: a directory on a disk that is not mounted is not made on the disk
    /// below), and refuses one that is a symbolic link, not a directory, inside the data
    /// directory or not writable.
    ///
    /// - Parameters:
    ///   - dataDirectory: The daemon's data directory.
    ///   - creating: Whether a missing directory is made (`serve --check` only looks whether its
    ///     parent would take it).
    /// - Returns: The directory, or nil when backups are off.
    /// - Throws: ``ConfigurationError`` (key `backup.directory`) saying what to change.
    public func prepare(dataDirectory: URL, creating: Bool = true) throws(ConfigurationError) -> URL? {
        guard let directory else { return nil }
        let path = directory.path
        let key = "backup.directory"
        // Resolved through its parent's links too, and before anything is made inside the data directory.
        let real =
            Self.resolved(path)
            ?? Self.resolved(directory.deletingLastPathComponent().path).map { $0 + "/" + directory.lastPathComponent } ?? path
        let data = Self.resolved(dataDirectory.path) ?? dataDirectory.path
        if real == data || real.hasPrefix(data.hasSuffix("/") ? data : data + "/") {
            throw ConfigurationError(
                key: key,
                "backup.directory: the backup directory \(path) is inside the data directory \(dataDirectory.path), where a lost disk or a restore takes the backups with the store; choose a directory outside it, best on another disk."
            )
        }
        var info = try? FileSystem.status(of: path, followingLinks: false)
        if info == nil, !creating {
            let parent = directory.deletingLastPathComponent().path
            guard let mode = (try? FileSystem.status(of: parent))?.st_mode, mode & S_IFMT == S_IFDIR,
                FileSystem.isAccessible(parent, W_OK | X_OK)
            else {
                throw ConfigurationError(
                    key: key,
                    "backup.directory: cannot create the backup directory \(path): its parent \(parent) is missing or not writable by this user; create it."
                )
            }
            return directory
        }
        if info == nil {
            if mkdir(path, 0o700) == 0 {
                // The umask may have taken bits away, never added any; set exactly 0700.
                try? FileSystem.setMode(0o700, of: path)
            } else if errno != EEXIST {
                throw ConfigurationError(
                    key: key,
                    "backup.directory: cannot create the backup directory \(path) (\(String(cString: strerror(errno)))); create it, or check that its parent exists and this user may write there."
                )
            }
            info = try? FileSystem.status(of: path, followingLinks: false)
        }
        guard let info else {
            throw ConfigurationError(
                key: key, "backup.directory: cannot read the backup directory \(path); check its parent's permissions.")
        }
        if info.st_mode & S_IFMT == S_IFLNK {
            throw ConfigurationError(
                key: key, "backup.directory: the backup directory \(path) is a symbolic link; name the directory it points to instead.")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw ConfigurationError(
                key: key, "backup.directory: the backup directory \(path) is not a directory; choose a directory for the backups.")
        }
        guard FileSystem.isAccessible(path, W_OK | X_OK) else {
            throw ConfigurationError(
                key: key,
                "backup.directory: this user cannot write to the backup directory \(path); give it the directory (chown) or choose another."
            )
        }
        return directory
    }

    /// `path` with every symbolic link resolved; nil when it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
