public import Foundation
import Logging
import TOMLKit

extension GatewayConfiguration {
    /// Top-level keys the file may hold.
    static let topLevelKeys: Set<String> = [
        "data_dir", "log_level", "intervals", "modem", "resync", "replies", "http", "webhook", "store", "node", "outbox",
        "backup",
    ]
    /// Keys of `[intervals]`.
    static let intervalKeys = [
        "poll_seconds", "health_seconds", "retry_base_seconds", "retry_max_seconds", "resync_retry_seconds",
        "part_timeout_seconds", "long_text_timeout_seconds", "ack_delay_seconds", "ack_timeout_seconds",
    ]
    /// Keys of a `[[modem]]` table.
    static let modemKeys: Set<String> = [
        "name", "device", "connection", "pin_file", "gammurc", "section", "status_reports", "call_timeout_seconds",
    ]
    /// The prefix of environment overrides: `SMSGW_LOG_LEVEL`, `SMSGW_INTERVALS_POLL_SECONDS`, …
    public static let environmentPrefix = "SMSGW_"

    /// Reads, overrides from the environment and validates a configuration file.
    ///
    /// - Parameters:
    ///   - url: The TOML file (config/smsgw.toml.example documents every key).
    ///   - environment: Overrides `SMSGW_DATA_DIR`, `SMSGW_LOG_LEVEL`, `SMSGW_INTERVALS_<KEY>`
    ///     (for example `SMSGW_INTERVALS_POLL_SECONDS=2`) and `SMSGW_MODEM_<N>_<KEY>` for the N-th
    ///     `[[modem]]` table, counted from 1 (for example `SMSGW_MODEM_1_DEVICE=/dev/ttyUSB2`);
    ///     N one past the file's last modem adds a modem.
    /// - Throws: ``ConfigurationError`` naming the file or the bad key and what it expects.
    public static func load(
        from url: URL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) -> GatewayConfiguration {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ConfigurationError(
                key: nil, "Cannot read the configuration file \(url.path); check the path and its permissions.")
        }
        return try GatewayConfiguration(toml: String(decoding: data, as: UTF8.self), environment: environment, source: url.path)
    }

    /// Parses TOML text, applies environment overrides and validates.
    ///
    /// - Parameters:
    ///   - toml: The file's text.
    ///   - environment: See ``load(from:environment:)``; pass `[:]` to ignore the environment.
    ///   - source: The file's name for messages.
    public init(toml: String, environment: [String: String] = [:], source: String = "the configuration") throws(ConfigurationError) {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: toml)
        } catch let error as TOMLParseError {
            throw ConfigurationError(
                key: nil,
                "\(source) is not valid TOML at line \(error.source.begin.line), column \(error.source.begin.column): \(error.description). Fix the syntax (see config/smsgw.toml.example)."
            )
        } catch {
            throw ConfigurationError(key: nil, "\(source) is not valid TOML; fix the syntax (see config/smsgw.toml.example).")
        }
        self.init()
        for key in table.keys where !Self.topLevelKeys.contains(key) {
            throw ConfigurationError(
                key: key,
                "Unknown key \(key) in \(source); expected data_dir, log_level, [intervals], [outbox], [node], [resync], [replies], [http], [store], [backup], [[modem]] or [[webhook]]."
            )
        }
        let reader = TOMLReader(source: source)
        if let path = try reader.string(table, "data_dir", path: "data_dir") {
            dataDirectory = try Self.directory(path, key: "data_dir")
        }
        if let level = try reader.string(table, "log_level", path: "log_level") {
            logLevel = try Self.level(level, key: "log_level")
        }
        if let value = table["intervals"] {
            guard let intervalsTable = value.table else {
                throw ConfigurationError(key: "intervals", "The key intervals must be a table ([intervals]) of numbers of seconds.")
            }
            for key in intervalsTable.keys where !Self.intervalKeys.contains(key) {
                throw ConfigurationError(
                    key: "intervals.\(key)",
                    "Unknown key intervals.\(key); expected one of \(Self.intervalKeys.joined(separator: ", ")).")
            }
            for key in Self.intervalKeys {
                if let seconds = try reader.seconds(intervalsTable, key, path: "intervals.\(key)") {
                    intervals[keyPath: Self.intervalPath(key)] = seconds
                }
            }
        }
        try outbox.read(table, source: source)
        try node.read(table, source: source)
        try resync.read(table, source: source)
        try http.read(table, source: source)
        try store.read(table, source: source)
        try backup.read(table, source: source)
        var modemTables: [TOMLTable] = []
        if let value = table["modem"] {
            guard let array = value.array else {
                throw ConfigurationError(key: "modem", "The key modem must be an array of tables: write each modem as a [[modem]] table.")
            }
            for (offset, element) in array.enumerated() {
                guard let modemTable = element.table else {
                    throw ConfigurationError(key: "modem[\(offset + 1)]", "modem[\(offset + 1)] must be a [[modem]] table.")
                }
                modemTables.append(modemTable)
            }
        }
        try Self.applyModemEnvironment(environment, to: &modemTables)
        for (offset, modemTable) in modemTables.enumerated() {
            modems.append(try reader.modem(modemTable, index: offset + 1))
        }
        try readWebhooks(table, environment: environment, reader: reader)
        try applyEnvironment(environment)
        try validate()
    }

    /// Applies `SMSGW_*` overrides; unknown `SMSGW_INTERVALS_*` names are errors, other `SMSGW_*`
    /// variables (passphrase, data dir of the CLI) are left to their owners.
    mutating func applyEnvironment(_ environment: [String: String]) throws(ConfigurationError) {
        let prefix = Self.environmentPrefix
        if let value = environment[prefix + "DATA_DIR"] {
            dataDirectory = try Self.directory(value, key: prefix + "DATA_DIR")
        }
        if let value = environment[prefix + "LOG_LEVEL"] {
            logLevel = try Self.level(value, key: prefix + "LOG_LEVEL")
        }
        try outbox.applyEnvironment(environment, prefix: prefix)
        try node.applyEnvironment(environment, prefix: prefix)
        try resync.applyEnvironment(environment, prefix: prefix)
        try http.applyEnvironment(environment, prefix: prefix)
        try store.applyEnvironment(environment, prefix: prefix)
        try backup.applyEnvironment(environment, prefix: prefix)
        let intervalPrefix = prefix + "INTERVALS_"
        for (name, value) in environment where name.hasPrefix(intervalPrefix) {
            let key = String(name.dropFirst(intervalPrefix.count)).lowercased()
            guard Self.intervalKeys.contains(key) else {
                throw ConfigurationError(
                    key: name,
                    "Unknown environment variable \(name); expected one of \(Self.intervalKeys.map { intervalPrefix + $0.uppercased() }.joined(separator: ", "))."
                )
            }
            guard let seconds = Double(value.trimmingCharacters(in: .whitespaces)), seconds > 0, seconds.isFinite else {
                throw ConfigurationError(key: name, "\(name) must be a positive number of seconds, not \"\(value)\".")
            }
            intervals[keyPath: Self.intervalPath(key)] = seconds
        }
    }

    /// Applies `SMSGW_MODEM_<N>_<KEY>` overrides to the `[[modem]]` tables (N from 1); N one past
    /// the last table adds one, so a modem can be configured from the environment alone.
    static func applyModemEnvironment(_ environment: [String: String], to tables: inout [TOMLTable]) throws(ConfigurationError) {
        try applyTableEnvironment(environment, table: "MODEM", keys: modemKeys, to: &tables, value: modemValue)
    }

    /// Applies `SMSGW_<TABLE>_<N>_<KEY>` overrides to an array of tables (N from 1); N one past the
    /// last table adds one. `value` turns the variable's text into the TOML value of its key.
    static func applyTableEnvironment(
        _ environment: [String: String], table: String, keys: Set<String>, to tables: inout [TOMLTable],
        value: (String, String, String) throws(ConfigurationError) -> any TOMLValueConvertible
    ) throws(ConfigurationError) {
        let tablePrefix = environmentPrefix + table + "_"
        var overrides: [Int: [(name: String, key: String, value: String)]] = [:]
        for (name, value) in environment where name.hasPrefix(tablePrefix) {
            let rest = name.dropFirst(tablePrefix.count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            let key = rest.dropFirst(digits.count + 1).lowercased()
            guard let index = Int(digits), index >= 1, rest.dropFirst(digits.count).first == "_", keys.contains(key) else {
                throw ConfigurationError(
                    key: name,
                    "Unknown environment variable \(name); expected \(tablePrefix)<N>_<KEY> with N the table's place from 1 and KEY one of \(keys.sorted().map { $0.uppercased() }.joined(separator: ", "))."
                )
            }
            overrides[index, default: []].append((name, key, value))
        }
        for index in overrides.keys.sorted() where index > tables.count {
            guard index == tables.count + 1 else {
                throw ConfigurationError(
                    key: "\(tablePrefix)\(index)",
                    "\(tablePrefix)\(index)_… names table \(index), but there are \(tables.count) and \(tables.count + 1) would be the next; number them without gaps."
                )
            }
            tables.append(TOMLTable())
        }
        for (index, entries) in overrides {
            for entry in entries {
                tables[index - 1][entry.key] = try value(entry.value, entry.key, entry.name)
            }
        }
    }

    /// An environment string as the TOML value a `[[modem]]` key takes.
    private static func modemValue(_ text: String, key: String, variable: String) throws(ConfigurationError) -> any TOMLValueConvertible {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch key {
        case "section":
            guard let number = Int(trimmed), number >= 0 else {
                throw ConfigurationError(
                    key: variable, "\(variable) must be a whole number ≥ 0 (0 for [gammu], 1 for [gammu1], …), not \"\(text)\".")
            }
            return number
        case "status_reports":
            switch trimmed.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: throw ConfigurationError(key: variable, "\(variable) must be true or false, not \"\(text)\".")
            }
        case "call_timeout_seconds":
            guard let seconds = Double(trimmed) else {
                throw ConfigurationError(key: variable, "\(variable) must be a number of seconds, not \"\(text)\".")
            }
            return seconds
        default:
            return text
        }
    }

    /// Checks relations between keys: unique modem names, retry_max ≥ retry_base.
    public func validate() throws(ConfigurationError) {
        try http.validate()
        try store.validate()
        try backup.validate(store: store)
        if intervals.retryMaxSeconds < intervals.retryBaseSeconds {
            throw ConfigurationError(
                key: "intervals.retry_max_seconds",
                "intervals.retry_max_seconds (\(intervals.retryMaxSeconds)) must be at least intervals.retry_base_seconds (\(intervals.retryBaseSeconds))."
            )
        }
        var seen: Set<String> = []
        for (offset, modem) in modems.enumerated() {
            guard seen.insert(modem.name.lowercased()).inserted else {
                throw ConfigurationError(
                    key: "modem[\(offset + 1)].name",
                    "modem[\(offset + 1)].name: another modem is already named \"\(modem.name)\"; give each modem its own name.")
            }
        }
    }

    static func intervalPath(_ key: String) -> WritableKeyPath<Intervals, Double> {
        switch key {
        case "poll_seconds": \.pollSeconds
        case "health_seconds": \.healthSeconds
        case "retry_base_seconds": \.retryBaseSeconds
        case "retry_max_seconds": \.retryMaxSeconds
        case "part_timeout_seconds": \.partTimeoutSeconds
        case "long_text_timeout_seconds": \.longTextTimeoutSeconds
        case "ack_delay_seconds": \.acknowledgementDelaySeconds
        case "ack_timeout_seconds": \.acknowledgementTimeoutSeconds
        default: \.resyncRetrySeconds
        }
    }

    static func directory(_ path: String, key: String) throws(ConfigurationError) -> URL {
        guard !path.isEmpty else {
            throw ConfigurationError(key: key, "\(key) must be a directory path such as /var/lib/smsgw, not empty.")
        }
        return URL(fileURLWithPath: (path as NSString).expandingTildeInPath, isDirectory: true)
    }

    static func level(_ text: String, key: String) throws(ConfigurationError) -> Logger.Level {
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw ConfigurationError(
                key: key,
                "\(key) must be one of trace, debug, info, notice, warning, error, critical, not \"\(text)\".")
        }
        return level
    }
}
