public import Foundation
import Store
import TOMLKit

/// Reading the `[store]` table and its environment overrides (`SMSGW_STORE_<KEY>`).
extension StoreSettings {
    /// Keys of `[store]`.
    static let keys = ["backend", "url", "password_file", "tls", "tls_ca_file", "allow_asynchronous_replicas"]

    /// The `[store]` settings for a command other than `serve`: the configuration file's table
    /// when there is a file (`SMSGW_CONFIG`), then the environment's overrides. Only `[store]` is
    /// read, so a command does not fail on a modem's settings it never uses.
    ///
    /// - Throws: ``ConfigurationError`` naming the file or the key at fault.
    public static func load(
        configurationFile: URL?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> StoreSettings {
        var settings = StoreSettings()
        if let configurationFile {
            guard let data = FileManager.default.contents(atPath: configurationFile.path) else {
                throw ConfigurationError(
                    key: nil, "Cannot read the configuration file \(configurationFile.path); check the path and its permissions.")
            }
            let table: TOMLTable
            do {
                table = try TOMLTable(string: String(decoding: data, as: UTF8.self))
            } catch {
                throw ConfigurationError(
                    key: nil, "\(configurationFile.path) is not valid TOML; fix the syntax (see config/smsgw.toml.example).")
            }
            try settings.read(table, source: configurationFile.path)
        }
        try settings.applyEnvironment(environment, prefix: GatewayConfiguration.environmentPrefix)
        try settings.validate()
        return settings
    }

    /// Reads the table of a configuration file.
    mutating func read(_ table: TOMLTable, source: String) throws(ConfigurationError) {
        guard let value = table["store"] else { return }
        guard let store = value.table else {
            throw ConfigurationError(
                key: "store", "The key store must be a table ([store]) with the keys \(Self.keys.joined(separator: ", ")).")
        }
        if store.contains(key: "password") {
            throw ConfigurationError(
                key: "store.password",
                "store.password: the database password never goes in the configuration file; put it in a file named by store.password_file (mode 0400) or in \(Self.passwordVariable)."
            )
        }
        for key in store.keys where !Self.keys.contains(key) {
            throw ConfigurationError(
                key: "store.\(key)", "Unknown key store.\(key) in \(source); expected one of \(Self.keys.joined(separator: ", ")).")
        }
        let reader = TOMLReader(source: source)
        for key in ["backend", "url", "password_file", "tls", "tls_ca_file"] {
            if let text = try reader.string(store, key, path: "store.\(key)") { try set(key, text, name: "store.\(key)") }
        }
        if let allow = try reader.bool(store, "allow_asynchronous_replicas", path: "store.allow_asynchronous_replicas") {
            allowAsynchronousReplicas = allow
        }
    }

    /// Applies `SMSGW_STORE_BACKEND`, `SMSGW_STORE_URL`, `SMSGW_STORE_PASSWORD_FILE`,
    /// `SMSGW_STORE_TLS`, `SMSGW_STORE_TLS_CA_FILE` and `SMSGW_STORE_ALLOW_ASYNCHRONOUS_REPLICAS`;
    /// `SMSGW_STORE_PASSWORD` is the password itself, read when the store opens.
    mutating func applyEnvironment(_ environment: [String: String], prefix: String) throws(ConfigurationError) {
        let storePrefix = prefix + "STORE_"
        for (name, text) in environment where name.hasPrefix(storePrefix) && name != Self.passwordVariable {
            let key = String(name.dropFirst(storePrefix.count)).lowercased()
            switch key {
            case "backend", "url", "password_file", "tls", "tls_ca_file":
                try set(key, text, name: name)
            case "allow_asynchronous_replicas":
                switch text.trimmingCharacters(in: .whitespaces).lowercased() {
                case "true", "1", "yes": allowAsynchronousReplicas = true
                case "false", "0", "no": allowAsynchronousReplicas = false
                default: throw ConfigurationError(key: name, "\(name) must be true or false, not \"\(text)\".")
                }
            default:
                throw ConfigurationError(
                    key: name,
                    "Unknown environment variable \(name); expected one of \((Self.keys.map { storePrefix + $0.uppercased() } + [Self.passwordVariable]).joined(separator: ", "))."
                )
            }
        }
    }

    /// Checks that a PostgreSQL store says where it is.
    func validate() throws(ConfigurationError) {
        guard backend == .postgresql else { return }
        guard url != nil else {
            throw ConfigurationError(
                key: "store.url", "store.url is required with backend = \"postgresql\"; write it as postgresql://USER@HOST:PORT/DATABASE.")
        }
    }

    private mutating func set(_ key: String, _ text: String, name: String) throws(ConfigurationError) {
        let value = text.trimmingCharacters(in: .whitespaces)
        switch key {
        case "backend":
            guard let backend = Backend(rawValue: value.lowercased()) else {
                throw ConfigurationError(key: name, "\(name) must be sqlite or postgresql, not \"\(text)\".")
            }
            self.backend = backend
        case "url":
            url = value.isEmpty ? nil : value
        case "password_file":
            passwordFile = value.isEmpty ? nil : value
        case "tls":
            guard let tls = PostgresAddress.TLS(rawValue: value.lowercased()) else {
                throw ConfigurationError(key: name, "\(name) must be require, verify-full or disable, not \"\(text)\".")
            }
            self.tls = tls
        default:
            tlsCAFile = value.isEmpty ? nil : value
        }
    }
}
