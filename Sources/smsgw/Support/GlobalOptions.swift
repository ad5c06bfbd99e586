import ArgumentParser
import Foundation
import Logging

/// Options every command accepts: where the data lives and how much to log.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The data directory (env SMSGW_DATA_DIR; default $XDG_DATA_HOME/smsgw or ~/.local/share/smsgw).",
            valueName: "dir"))
    var dataDir: String?

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("The gateway configuration file for `serve` (env SMSGW_CONFIG).", valueName: "file"))
    var config: String?

    @Flag(name: .long, help: "Log informational events to stderr, not only warnings.")
    var verbose = false

    /// The gateway configuration file: the option, then SMSGW_CONFIG; nil when neither is set.
    var configurationFile: URL? {
        if let config, !config.isEmpty { return URL(fileURLWithPath: config) }
        if let value = ProcessInfo.processInfo.environment["SMSGW_CONFIG"], !value.isEmpty {
            return URL(fileURLWithPath: value)
        }
        return nil
    }

    /// The data directory: the option, then SMSGW_DATA_DIR, then the XDG default.
    var dataDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let dataDir, !dataDir.isEmpty { return URL(fileURLWithPath: dataDir) }
        if let value = environment["SMSGW_DATA_DIR"], !value.isEmpty { return URL(fileURLWithPath: value) }
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("smsgw")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/smsgw")
    }

    /// A logger labelled "smsgw" writing to stderr, at warning level unless `--verbose`.
    func makeLogger() -> Logger {
        var logger = Logger(label: "smsgw", factory: StandardErrorLogHandler.standardError(label:))
        logger.logLevel = verbose ? .info : .warning
        return logger
    }
}

/// Metadata keys for the CLI's log events; never texts, codes or keys as values.
enum LogKey {
    static let command = "smsgw.command"
    static let contact = "smsgw.contact"
    static let position = "smsgw.position"
    static let epoch = "smsgw.epoch"
    static let line = "smsgw.line"
}
