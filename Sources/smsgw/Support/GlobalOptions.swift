import ArgumentParser
import Foundation
import Logging
import Operations
import StandardErrorLogging

/// Options every command accepts, before or after its name: where the data lives and how much to log.
///
/// The root command declares them and so does every subcommand. swift-argument-parser decodes the
/// root first, over the whole command line, and hands a subcommand's `@OptionGroup` of the same
/// type the value already decoded; so `smsgw --data-dir X init` and `smsgw init --data-dir X` mean
/// the same, and each help screen lists the options once, under "Global options".
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp(
            "The data directory (env SMSGW_DATA_DIR; default $XDG_DATA_HOME/smsgw or ~/.local/share/smsgw).",
            valueName: "dir"))
    var dataDir: String?

    @Flag(name: .long, help: "Log informational events to stderr, not only warnings.")
    var verbose = false

    /// The data directory: the option, then SMSGW_DATA_DIR, then the XDG default (``DataDirectory``).
    var dataDirectory: URL { DataDirectory.resolve(dataDir) }

    /// A logger labelled "smsgw" writing to stderr: warnings as the command line's own sentences
    /// (`smsgw: warning: …`), or with `--verbose` informational events too, as timestamped log
    /// lines (journal lines under systemd).
    func makeLogger() -> Logger {
        guard verbose else {
            var logger = Logger(label: "smsgw", factory: StandardErrorLogHandler.sentence(label:))
            logger.logLevel = .warning
            return logger
        }
        var logger = Logger(label: "smsgw", factory: StandardErrorLogHandler.standardError(label:))
        logger.logLevel = .info
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
    static let error = "smsgw.error"
}
