import Foundation
import Operations
import TOMLKit

/// Reading the `[[webhook]]` tables and their `SMSGW_WEBHOOK_<N>_<KEY>` overrides.
extension GatewayConfiguration {
    /// Keys of a `[[webhook]]` table.
    static let webhookKeys: Set<String> = [
        "url", "events", "secret", "secrets", "secret_file", "include_text", "allow_plaintext", "retry_base_seconds", "timeout_seconds",
    ]

    /// Reads the `[[webhook]]` tables, with the environment's overrides applied first.
    mutating func readWebhooks(_ table: TOMLTable, environment: [String: String], reader: TOMLReader) throws(ConfigurationError) {
        var tables: [TOMLTable] = []
        if let value = table["webhook"] {
            guard let array = value.array else {
                throw ConfigurationError(
                    key: "webhook", "The key webhook must be an array of tables: write each endpoint as a [[webhook]] table.")
            }
            for (offset, element) in array.enumerated() {
                guard let webhookTable = element.table else {
                    throw ConfigurationError(key: "webhook[\(offset + 1)]", "webhook[\(offset + 1)] must be a [[webhook]] table.")
                }
                tables.append(webhookTable)
            }
        }
        try Self.applyTableEnvironment(environment, table: "WEBHOOK", keys: Self.webhookKeys, to: &tables, value: Self.webhookValue)
        for (offset, webhookTable) in tables.enumerated() {
            webhooks.append(try Self.webhook(webhookTable, index: offset + 1, reader: reader))
        }
        var seen: Set<String> = []
        for (offset, webhook) in webhooks.enumerated() where !seen.insert(webhook.key).inserted {
            throw ConfigurationError(
                key: "webhook[\(offset + 1)].url", "webhook[\(offset + 1)].url: another [[webhook]] has the same URL; merge the two tables."
            )
        }
    }

    static func webhook(_ table: TOMLTable, index: Int, reader: TOMLReader) throws(ConfigurationError) -> WebhookEndpoint {
        let prefix = "webhook[\(index)]"
        for key in table.keys where !webhookKeys.contains(key) {
            throw ConfigurationError(
                key: "\(prefix).\(key)", "Unknown key \(prefix).\(key); expected \(webhookKeys.sorted().joined(separator: ", ")).")
        }
        let allowPlaintext = try reader.bool(table, "allow_plaintext", path: "\(prefix).allow_plaintext") ?? false
        let url = try webhookURL(
            try reader.string(table, "url", path: "\(prefix).url"), key: "\(prefix).url", allowPlaintext: allowPlaintext)
        var endpoint = WebhookEndpoint(url: url, secrets: try secrets(table, prefix: prefix, reader: reader))
        if let value = table["events"] {
            let names = value.array?.compactMap(\.string) ?? []
            guard let array = value.array, names.count == array.count else {
                throw ConfigurationError(
                    key: "\(prefix).events", "\(prefix).events must be a list of event names in quotes, e.g. [\"message.received\"].")
            }
            var events: Set<EventType> = []
            for name in names {
                guard let type = EventType(rawValue: name) else {
                    throw ConfigurationError(
                        key: "\(prefix).events", "\(prefix).events names \"\(name)\", which is no event; use \(EventType.names).")
                }
                events.insert(type)
            }
            guard !events.isEmpty else {
                throw ConfigurationError(
                    key: "\(prefix).events", "\(prefix).events is empty; name the events to send, or leave the key out for all.")
            }
            endpoint.events = events
        }
        endpoint.includeText = try reader.bool(table, "include_text", path: "\(prefix).include_text") ?? false
        if let seconds = try reader.seconds(table, "retry_base_seconds", path: "\(prefix).retry_base_seconds") {
            endpoint.retry.baseSeconds = min(seconds, 60)
        }
        if let seconds = try reader.seconds(table, "timeout_seconds", path: "\(prefix).timeout_seconds") {
            endpoint.timeoutSeconds = seconds
        }
        return endpoint
    }

    /// The URL of an endpoint: http or https with a host; plain http only to loopback unless allowed.
    static func webhookURL(_ text: String?, key: String, allowPlaintext: Bool) throws(ConfigurationError) -> URL {
        guard let text, !text.isEmpty else {
            throw ConfigurationError(key: key, "\(key) is required: the http or https address that receives the events.")
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = url.host, !host.isEmpty
        else {
            throw ConfigurationError(key: key, "\(key) must be an http or https URL with a host, such as https://example.org/smsgw.")
        }
        guard url.user == nil, url.password == nil else {
            throw ConfigurationError(key: key, "\(key) must not carry a user or password; the signature authenticates the requests.")
        }
        if scheme == "http", !allowPlaintext, !WebhookEndpoint.isLoopback(host: host) {
            throw ConfigurationError(
                key: key,
                "\(key) is plain http to \(host), which is not this machine: anyone on the path could read the events (and the texts with include_text). Use https, or set allow_plaintext = true in that [[webhook]] if the network is trusted."
            )
        }
        return url
    }

    private static func secrets(_ table: TOMLTable, prefix: String, reader: TOMLReader) throws(ConfigurationError) -> [WebhookSecret] {
        var texts: [String] = []
        if let secret = try reader.string(table, "secret", path: "\(prefix).secret") { texts.append(secret) }
        if let value = table["secrets"] {
            let strings = value.array?.compactMap(\.string) ?? []
            guard let array = value.array, strings.count == array.count else {
                throw ConfigurationError(key: "\(prefix).secrets", "\(prefix).secrets must be a list of secrets in quotes (whsec_…).")
            }
            texts += strings
        }
        if let path = try reader.string(table, "secret_file", path: "\(prefix).secret_file") {
            let data = try SecretFile.read(
                path, key: "\(prefix).secret_file",
                unreadable: "Cannot read \(prefix).secret_file \(path); check the path and that the smsgw user may read it.")
            texts += String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init).filter {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }
        }
        guard !texts.isEmpty else {
            throw ConfigurationError(
                key: "\(prefix).secret",
                "\(prefix).secret is required (or secret_file): the whsec_… secret the receiver checks signatures with (generate 32 random bytes in base64)."
            )
        }
        var secrets: [WebhookSecret] = []
        for (offset, text) in texts.enumerated() {
            do {
                secrets.append(try WebhookSecret(text))
            } catch {
                let which = texts.count == 1 ? "\(prefix).secret" : "\(prefix) secret \(offset + 1)"
                throw ConfigurationError(key: "\(prefix).secret", "\(which): \(error.description)")
            }
        }
        return secrets
    }

    /// An environment string as the TOML value a `[[webhook]]` key takes: lists comma-separated.
    private static func webhookValue(_ text: String, key: String, variable: String) throws(ConfigurationError) -> any TOMLValueConvertible {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch key {
        case "events", "secrets":
            return TOMLArray(trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        case "include_text", "allow_plaintext":
            switch trimmed.lowercased() {
            case "true", "1", "yes": return true
            case "false", "0", "no": return false
            default: throw ConfigurationError(key: variable, "\(variable) must be true or false, not \"\(text)\".")
            }
        case "retry_base_seconds", "timeout_seconds":
            guard let seconds = Double(trimmed) else {
                throw ConfigurationError(key: variable, "\(variable) must be a number of seconds, not \"\(text)\".")
            }
            return seconds
        default:
            return trimmed
        }
    }
}
