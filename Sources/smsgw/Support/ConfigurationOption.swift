import ArgumentParser
import Foundation

/// `--config FILE`, for the commands that read the gateway configuration (`serve`): declared
/// where it is used, so no other command's help offers an option it would ignore.
struct ConfigurationOption: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("The gateway configuration file (env SMSGW_CONFIG; see config/smsgw.toml.example).", valueName: "file"))
    var config: String?

    /// The gateway configuration file: the option, then SMSGW_CONFIG; nil when neither is set.
    var configurationFile: URL? {
        if let config, !config.isEmpty { return URL(fileURLWithPath: config) }
        return Self.environmentFile
    }

    /// SMSGW_CONFIG's file, or nil: where the other commands find the `[store]` table.
    static var environmentFile: URL? {
        guard let value = ProcessInfo.processInfo.environment["SMSGW_CONFIG"], !value.isEmpty else { return nil }
        return URL(fileURLWithPath: value)
    }
}
