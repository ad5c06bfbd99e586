public import Foundation

/// Where a gateway's data lives when nothing names it: the rule every front end and the daemon
/// share, so `--data-dir`, SMSGW_DATA_DIR and the XDG default mean the same everywhere.
public enum DataDirectory {
    /// The variable naming the data directory.
    public static let variable = "SMSGW_DATA_DIR"

    /// The data directory: `explicit` (a `--data-dir` value) when given, then SMSGW_DATA_DIR,
    /// then `$XDG_DATA_HOME/smsgw` (an absolute XDG_DATA_HOME only, as the XDG spec says), then
    /// `~/.local/share/smsgw`. Empty values count as unset.
    public static func resolve(
        _ explicit: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let explicit, !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        if let value = environment[variable], !value.isEmpty { return URL(fileURLWithPath: value) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("smsgw")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/smsgw")
    }
}
