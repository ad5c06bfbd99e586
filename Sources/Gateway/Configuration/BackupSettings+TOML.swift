public import Foundation
public import Operations
import TOMLKit

/// Reading the `[backup]` table and its environment overrides (`SMSGW_BACKUP_<KEY>`).
extension BackupSettings {
    /// Keys of `[backup]`.
    static let keys = ["directory", "interval_seconds", "keep"]

    /// Reads the table of a configuration file.
    mutating func read(_ table: TOMLTable, source: String) throws(ConfigurationError) {
        let reader = TOMLReader(source: source)
        guard let backup = try reader.table(table, "backup", keys: Self.keys) else { return }
        if let path = try reader.string(backup, "directory", path: "backup.directory") {
            directory = try Self.directory(path, name: "backup.directory")
        }
        if let seconds = try reader.seconds(backup, "interval_seconds", path: "backup.interval_seconds") {
            intervalSeconds = try Self.interval(seconds, name: "backup.interval_seconds", text: "\(seconds)")
        }
        if let value = backup["keep"] {
            guard value.type == .int, let number = value.int else {
                throw ConfigurationError(key: "backup.keep", "backup.keep must be a whole number from 1 to \(Self.maximumKeep).")
            }
            keep = try Self.keep(number, name: "backup.keep", text: "\(number)")
        }
    }

    /// Applies `SMSGW_BACKUP_DIRECTORY`, `SMSGW_BACKUP_INTERVAL_SECONDS` and `SMSGW_BACKUP_KEEP`.
    mutating func applyEnvironment(_ environment: [String: String], prefix: String) throws(ConfigurationError) {
        let backupPrefix = prefix + "BACKUP_"
        for (name, text) in environment where name.hasPrefix(backupPrefix) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            switch String(name.dropFirst(backupPrefix.count)).lowercased() {
            case "directory":
                directory = trimmed.isEmpty ? nil : try Self.directory(trimmed, name: name)
            case "interval_seconds":
                guard let seconds = Double(trimmed), seconds.isFinite else {
                    throw ConfigurationError(key: name, "\(name) must be a number of seconds, not \"\(text)\".")
                }
                intervalSeconds = try Self.interval(seconds, name: name, text: "\"\(text)\"")
            case "keep":
                guard let number = Int(trimmed) else {
                    throw ConfigurationError(key: name, "\(name) must be a whole number from 1 to \(Self.maximumKeep), not \"\(text)\".")
                }
                keep = try Self.keep(number, name: name, text: "\"\(text)\"")
            default:
                throw ConfigurationError(
                    key: name,
                    "Unknown environment variable \(name); expected one of \(Self.keys.map { backupPrefix + $0.uppercased() }.joined(separator: ", "))."
                )
            }
        }
    }

    /// Backups on a PostgreSQL store are the server's: refused with what to do instead.
    func validate(store: StoreSettings) throws(ConfigurationError) {
        guard directory != nil, store.backend == .postgresql else { return }
        throw ConfigurationError(key: "backup.directory", Self.serverStoreRefusal)
    }

    /// Why `[backup]` is refused on a PostgreSQL store, and what to do instead.
    static let serverStoreRefusal =
        "backup.directory is set, but the store is on PostgreSQL, whose backups the daemon cannot write; remove [backup] and back up the database with the server's tools (pg_dump or base backups; see OPERATIONS.md, Backups)."

    private static func directory(_ path: String, name: String) throws(ConfigurationError) -> URL {
        guard path.hasPrefix("/") else {
            throw ConfigurationError(
                key: name, "\(name) must be an absolute path such as /var/backups/smsgw, not \"\(path)\".")
        }
        return URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
    }

    private static func interval(_ seconds: Double, name: String, text: String) throws(ConfigurationError) -> Double {
        guard seconds >= minimumInterval else {
            throw ConfigurationError(
                key: name, "\(name) must be at least \(Int(minimumInterval)) seconds (each backup copies the whole store), not \(text).")
        }
        return seconds
    }

    private static func keep(_ number: Int, name: String, text: String) throws(ConfigurationError) -> Int {
        guard (1...maximumKeep).contains(number) else {
            throw ConfigurationError(key: name, "\(name) must be a whole number from 1 to \(maximumKeep), not \(text).")
        }
        return number
    }
}

extension BackupSettings {
    /// The automatic backups of the `[backup]` in `file` (or, with none, of `SMSGW_BACKUP_*`
    /// alone) as their directory holds them, for a status while no daemon runs
    /// (``Operations/AutomaticBackups/status(directory:intervalSeconds:keep:now:)``); nil when
    /// they are off.
    ///
    /// - Throws: ``ConfigurationError`` for a file or key that cannot be read, naming it.
    public static func status(
        configurationFile file: URL?, now: Date, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> GatewayStatus.BackupStatus? {
        let configuration =
            if let file {
                try GatewayConfiguration.load(from: file, environment: environment)
            } else {
                try GatewayConfiguration(toml: "", environment: environment, source: "the environment")
            }
        return configuration.backup.status(now: now)
    }

    /// These automatic backups as their directory holds them while no daemon runs; nil when they are off.
    public func status(now: Date) -> GatewayStatus.BackupStatus? {
        guard let directory else { return nil }
        return AutomaticBackups.status(directory: directory, intervalSeconds: intervalSeconds, keep: keep, now: now)
    }
}
