import Foundation
import TOMLKit

/// Typed reads from a TOML table with errors that name the key.
struct TOMLReader {
    let source: String

    /// The table `[name]` of `file`, nil when absent; anything but a table with only `keys` is an
    /// error naming the key.
    func table(_ file: TOMLTable, _ name: String, keys: [String]) throws(ConfigurationError) -> TOMLTable? {
        guard let value = file[name] else { return nil }
        let listed = keys.joined(separator: ", ")
        guard let table = value.table else {
            let which = keys.count == 1 ? "the key \(listed)" : "the keys \(listed)"
            throw ConfigurationError(key: name, "The key \(name) must be a table ([\(name)]) with \(which).")
        }
        for key in table.keys where !keys.contains(key) {
            let expected = keys.count == 1 ? listed : "one of \(listed)"
            throw ConfigurationError(key: "\(name).\(key)", "Unknown key \(name).\(key) in \(source); expected \(expected).")
        }
        return table
    }

    func string(_ table: TOMLTable, _ key: String, path: String) throws(ConfigurationError) -> String? {
        guard let value = table[key] else { return nil }
        guard let string = value.string else {
            throw ConfigurationError(key: path, "\(path) must be a string in quotes, not a \(value.type).")
        }
        return string
    }

    func seconds(_ table: TOMLTable, _ key: String, path: String) throws(ConfigurationError) -> Double? {
        guard let value = table[key] else { return nil }
        let number: Double? = value.type == .int ? value.int.map(Double.init) : value.type == .double ? value.double : nil
        guard let number else {
            throw ConfigurationError(key: path, "\(path) must be a number of seconds, not a \(value.type).")
        }
        guard number > 0, number.isFinite else {
            throw ConfigurationError(key: path, "\(path) must be a positive number of seconds, not \(number).")
        }
        return number
    }

    /// A whole number ≥ 0 under `key`, nil when absent; `meaning` says what a value (often 0)
    /// does, in the error's parentheses.
    func count(_ table: TOMLTable, _ key: String, path: String, meaning: String) throws(ConfigurationError) -> Int? {
        guard let value = table[key] else { return nil }
        guard value.type == .int, let number = value.int, number >= 0 else {
            throw ConfigurationError(key: path, "\(path) must be a whole number ≥ 0 (\(meaning)).")
        }
        return number
    }

    func bool(_ table: TOMLTable, _ key: String, path: String) throws(ConfigurationError) -> Bool? {
        guard let value = table[key] else { return nil }
        guard let bool = value.bool, value.type == .bool else {
            throw ConfigurationError(key: path, "\(path) must be true or false, not a \(value.type).")
        }
        return bool
    }

    func modem(_ table: TOMLTable, index: Int) throws(ConfigurationError) -> ModemSettings {
        let prefix = "modem[\(index)]"
        for key in table.keys where !GatewayConfiguration.modemKeys.contains(key) {
            throw ConfigurationError(
                key: "\(prefix).\(key)",
                "Unknown key \(prefix).\(key); expected \(GatewayConfiguration.modemKeys.sorted().joined(separator: ", ")).")
        }
        guard let name = try string(table, "name", path: "\(prefix).name"), !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ConfigurationError(
                key: "\(prefix).name",
                "\(prefix).name is required (name in its [[modem]] table, or SMSGW_MODEM_\(index)_NAME in the environment): give each modem a short name for logs and the status."
            )
        }
        let device = try string(table, "device", path: "\(prefix).device")
        let connection = try string(table, "connection", path: "\(prefix).connection")
        let gammurc = try string(table, "gammurc", path: "\(prefix).gammurc")
        let section = try count(table, "section", path: "\(prefix).section", meaning: "0 for [gammu], 1 for [gammu1], …")
        let source: ModemSettings.Source
        switch (device, gammurc) {
        case (let device?, nil):
            guard !device.isEmpty else {
                throw ConfigurationError(key: "\(prefix).device", "\(prefix).device must be the modem's AT port, e.g. /dev/serial/by-id/….")
            }
            if section != nil {
                throw ConfigurationError(
                    key: "\(prefix).section", "\(prefix).section only goes with gammurc; remove it or use gammurc instead of device.")
            }
            let connection = connection ?? "at"
            guard !connection.isEmpty else {
                throw ConfigurationError(
                    key: "\(prefix).connection", "\(prefix).connection must be a gammu connection such as \"at\" or \"at115200\".")
            }
            source = .device(path: device, connection: connection)
        case (nil, let gammurc?):
            if connection != nil {
                throw ConfigurationError(
                    key: "\(prefix).connection",
                    "\(prefix).connection only goes with device; with gammurc, set the connection in the gammurc section.")
            }
            source = .gammurc(path: gammurc, section: section ?? 0)
        case (.some, .some):
            throw ConfigurationError(key: "\(prefix).gammurc", "\(prefix).gammurc and \(prefix).device are both set; keep one of them.")
        case (nil, nil):
            throw ConfigurationError(
                key: "\(prefix).device",
                "\(prefix).device is missing: set device (with connection) or gammurc (with section) to say how to reach the modem.")
        }
        let pinFile = try string(table, "pin_file", path: "\(prefix).pin_file")
        let statusReports = try bool(table, "status_reports", path: "\(prefix).status_reports") ?? true
        let timeout = try seconds(table, "call_timeout_seconds", path: "\(prefix).call_timeout_seconds") ?? 30
        return ModemSettings(name: name, source: source, pinFile: pinFile, statusReports: statusReports, callTimeoutSeconds: timeout)
    }
}
