import ArgumentParser
import Foundation
import Gateway

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

    /// Whether `--config` was given on the command line (not only SMSGW_CONFIG).
    var isGiven: Bool { config?.isEmpty == false }

    /// The gateway configuration as `serve` reads it: the file (or the environment alone), with
    /// `--data-dir` over its `data_dir`, and `global`'s data directory when there is no file.
    func gatewayConfiguration(_ global: GlobalOptions) throws -> GatewayConfiguration {
        try GatewayConfiguration.forServe(
            file: configurationFile, dataDirectory: global.dataDir.flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) },
            defaultDataDirectory: global.dataDirectory)
    }

    /// SMSGW_CONFIG's file, or nil: where the other commands find the `[store]` table.
    static var environmentFile: URL? {
        guard let value = ProcessInfo.processInfo.environment["SMSGW_CONFIG"], !value.isEmpty else { return nil }
        return URL(fileURLWithPath: value)
    }
}
