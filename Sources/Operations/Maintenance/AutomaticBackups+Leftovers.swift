public import Foundation
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension AutomaticBackups {
    /// How long a leftover of an interrupted backup must have been left unchanged before it is
    /// removed, on top of nobody holding it locked: a copy being written changes its file all
    /// the time, and the moment between its creation and its lock is far shorter.
    public static let leftoverAge: TimeInterval = 60

    /// Removes what interrupted automatic backups left in `directory`: their hidden partial files
    /// (`.smsgw-YYYYmmdd-HHMMSS.sqlite.partial-XXXXXXXX`, as a daemon that was killed or crashed
    /// during a copy leaves them) and SQLite's `-journal` beside them.
    ///
    /// A partial file is removed only when no process holds its lock (every smsgw backup,
    /// `smsgw backup` into the same directory included, locks its partial file for as long as it
    /// writes it) and it has not changed for ``leftoverAge``; a journal goes with its partial
    /// file, or alone when that is gone and the journal is as old. Nothing else is touched: not
    /// the partial files of backups with other names, nor anything of anyone else's.
    ///
    /// - Returns: The names removed, sorted; none when the directory cannot be read.
    public static func removeLeftovers(in directory: URL, now: Date) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        let present = Set(names)
        var removed: [String] = []
        for name in names.sorted() {
            guard let kind = leftover(name) else { continue }
            let path = directory.appendingPathComponent(name, isDirectory: false).path
            guard let info = try? FileSystem.status(of: path, followingLinks: false), info.st_mode & S_IFMT == S_IFREG,
                now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec) > leftoverAge
            else { continue }
            switch kind {
            case .journal(let partial):
                // With its partial file, the journal is that file's to decide.
                guard !present.contains(partial), (try? FileSystem.remove(path)) != nil else { continue }
                removed.append(name)
            case .partial:
                guard let file = try? FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC),
                    (try? file.lock(.exclusive, waiting: false)) == true, (try? FileSystem.remove(path)) != nil
                else { continue }
                removed.append(name)
                if present.contains(name + "-journal"), (try? FileSystem.remove(path + "-journal")) != nil {
                    removed.append(name + "-journal")
                }
            }
        }
        return removed.sorted()
    }

    /// What a leftover's name is.
    private enum Leftover {
        case partial
        /// A journal, and the name of its partial file.
        case journal(String)
    }

    /// Whether `name` is a partial file of an automatic backup, or its journal; nil for any other name.
    private static func leftover(_ name: String) -> Leftover? {
        let marker = ".partial-"
        guard name.hasPrefix("."), let range = name.range(of: marker) else { return nil }
        guard date(ofFileName: String(name[name.index(after: name.startIndex)..<range.lowerBound])) != nil else { return nil }
        var tail = name[range.upperBound...]
        let journal = tail.hasSuffix("-journal")
        if journal { tail = tail.dropLast("-journal".count) }
        guard tail.count == 8, tail.allSatisfy(\.isHexDigit) else { return nil }
        return journal ? .journal(String(name.dropLast("-journal".count))) : .partial
    }
}
