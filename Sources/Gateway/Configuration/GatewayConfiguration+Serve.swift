public import Foundation

extension GatewayConfiguration {
    /// The configuration `serve` runs with: the file's, or without one the defaults with the
    /// environment's overrides (SMSGW_LOG_LEVEL, SMSGW_INTERVALS_*, SMSGW_MODEM_<N>_*), so a
    /// modem can be configured without a file.
    ///
    /// - Parameters:
    ///   - file: The configuration file, or nil.
    ///   - dataDirectory: An explicit data directory (`--data-dir`), which wins over `data_dir`.
    ///   - defaultDataDirectory: The data directory when there is neither a file nor an explicit one.
    /// - Throws: ``ConfigurationError`` naming the key at fault.
    public static func forServe(
        file: URL?, dataDirectory: URL?, defaultDataDirectory: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> GatewayConfiguration {
        var configuration: GatewayConfiguration
        if let file {
            configuration = try load(from: file, environment: environment)
        } else {
            configuration = try GatewayConfiguration(toml: "", environment: environment, source: "the environment")
            configuration.dataDirectory = defaultDataDirectory
        }
        if let dataDirectory { configuration.dataDirectory = dataDirectory }
        return configuration
    }

}
