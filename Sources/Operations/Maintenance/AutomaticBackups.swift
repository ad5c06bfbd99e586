public import Foundation
public import Store
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The daemon's own backups: a copy of the store in one directory every interval, named by its
/// time (`smsgw-YYYYmmdd-HHMMSS.sqlite`, UTC), the newest `keep` of them kept.
///
/// Only files whose names match that pattern exactly are the daemon's: it counts and deletes
/// nothing else, so an operator's own files in the directory are safe.
public enum AutomaticBackups {
    /// How long after a failed backup the next attempt comes at the latest, whatever the interval.
    public static let retrySeconds: TimeInterval = 3600

    /// The backup file's name for a backup made at `date`: `smsgw-20261125-013500.sqlite`.
    public static func fileName(at date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func digits(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(width - text.count, 0)) + text
        }
        let day = digits(parts.year, 4) + digits(parts.month, 2) + digits(parts.day, 2)
        let time = digits(parts.hour, 2) + digits(parts.minute, 2) + digits(parts.second, 2)
        return "smsgw-\(day)-\(time).sqlite"
    }

    /// The time a backup's name says, or nil when `name` is not exactly such a name (a file of
    /// someone else's).
    public static func date(ofFileName name: String) -> Date? {
        let bytes = Array(name.utf8)
        let prefix = Array("smsgw-".utf8)
        let suffix = Array(".sqlite".utf8)
        guard bytes.count == prefix.count + 15 + suffix.count, bytes.starts(with: prefix), bytes.suffix(suffix.count).elementsEqual(suffix)
        else { return nil }
        let stamp = bytes[prefix.count..<prefix.count + 15]
        let separator = stamp.startIndex + 8
        guard stamp[separator] == UInt8(ascii: "-") else { return nil }
        guard stamp.indices.allSatisfy({ $0 == separator || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(stamp[$0]) }) else {
            return nil
        }
        func number(_ offset: Int, _ width: Int) -> Int {
            stamp[(stamp.startIndex + offset)..<(stamp.startIndex + offset + width)].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        let parts = DateComponents(
            year: number(0, 4), month: number(4, 2), day: number(6, 2), hour: number(9, 2), minute: number(11, 2), second: number(13, 2))
        // 20261399 is no date: the calendar would roll it over, so the name must come back the same.
        guard let date = calendar.date(from: parts), fileName(at: date) == name else { return nil }
        return date
    }

    /// The backups in `directory` (regular files named by ``fileName(at:)``), oldest first.
    ///
    /// - Throws: ``Store/StoreError/configuration(_:)`` when the directory cannot be read.
    public static func existing(in directory: URL) throws -> [(file: URL, date: Date)] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw StoreError.configuration(
                "Cannot read the backup directory \(directory.path); check that it exists and that this user may read it.")
        }
        return names.compactMap { name -> (file: URL, date: Date)? in
            guard let date = date(ofFileName: name) else { return nil }
            let file = directory.appendingPathComponent(name, isDirectory: false)
            guard let info = try? FileSystem.status(of: file.path, followingLinks: false), info.st_mode & S_IFMT == S_IFREG else {
                return nil
            }
            return (file, date)
        }
        .sorted { $0.date < $1.date }
    }

    /// When the next backup is due: now when `directory` holds none or its newest is at least
    /// `interval` old, else an interval after the newest (never later than an interval from now,
    /// should the clock have gone back).
    public static func firstDue(in directory: URL, interval: TimeInterval, now: Date) -> Date {
        guard let newest = (try? existing(in: directory))?.last?.date else { return now }
        return min(newest.addingTimeInterval(interval), now.addingTimeInterval(interval))
    }

    /// When to try again after the attempt due at `due` failed at `now`: the next regular due
    /// time or ``retrySeconds`` later, whichever comes first.
    public static func retry(due: Date, interval: TimeInterval, now: Date) -> Date {
        max(min(due.addingTimeInterval(interval), now.addingTimeInterval(retrySeconds)), now)
    }

    /// What one backup wrote and deleted.
    public struct Written: Sendable, Equatable {
        /// The new backup.
        public var file: URL
        /// Older backups deleted beyond `keep`, oldest first.
        public var deleted: [URL]
        /// Older backups beyond `keep` that could not be deleted, with the reason.
        public var undeletable: [String]
        /// The backups the directory holds now, the new one included.
        public var kept: Int
    }

    /// Writes a backup of `store` into `directory` named for `now` (run ``removeLeftovers(in:now:)``
    /// before it): complete under a hidden name first, then linked, 0600, synced with its
    /// directory (``Store/GatewayStore/writeCopy(to:pagesPerStep:stop:)``). Then it deletes the
    /// oldest backups beyond `keep`, syncing the directory again after deletions.
    ///
    /// - Parameter stop: Asked between the copy's steps; true ends it, with nothing left behind.
    /// - Throws: ``Failure`` (a directory gone or full, a file of the name there already);
    ///   `CancellationError` when `stop` said so; the store's ``Store/StoreError/invalidState(_:)``
    ///   on PostgreSQL. Nothing is deleted then.
    public static func write(
        _ store: GatewayStore, into directory: URL, keep: Int, now: Date, stop: @escaping @Sendable () -> Bool = { false }
    ) throws -> Written {
        let name = fileName(at: now)
        let file = directory.appendingPathComponent(name, isDirectory: false)
        do {
            try store.writeCopy(to: file, stop: stop)
        } catch let failure as GatewayStore.CopyFailure {
            throw Failure(file: name, directory: directory.path, cause: .copy(failure))
        } catch StoreError.alreadyExists {
            throw Failure(file: name, directory: directory.path, cause: .exists)
        }
        var written = Written(file: file, deleted: [], undeletable: [], kept: 0)
        let backups = try existing(in: directory)
        for old in backups.dropLast(max(keep, 1)) where old.file != file {
            do throws(SystemCallError) {
                try FileSystem.remove(old.file.path)
                written.deleted.append(old.file)
            } catch {
                written.undeletable.append("\(old.file.lastPathComponent): \(error.reason)")
            }
        }
        written.kept = backups.count - written.deleted.count
        // The deletions survive a power cut only once the directory is on the disk.
        if !written.deleted.isEmpty { try? FileSystem.synchronizeDirectory(directory.path) }
        return written
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }()
}
