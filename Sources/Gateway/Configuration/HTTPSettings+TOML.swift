import TOMLKit

/// Reading the `[http]` table and its environment overrides (`SMSGW_HTTP_<KEY>`).
extension HTTPSettings {
    /// Keys of `[http]`.
    static let keys = [
        "listen", "tls_certificate", "tls_key", "allow_plaintext", "max_queued", "auth_failure_limit", "idle_timeout_seconds",
        "request_timeout_seconds",
    ]

    /// Reads the table of a configuration file.
    mutating func read(_ table: TOMLTable, source: String) throws(ConfigurationError) {
        let reader = TOMLReader(source: source)
        guard let http = try reader.table(table, "http", keys: Self.keys) else { return }
        for key in ["listen", "tls_certificate", "tls_key"] {
            if let text = try reader.string(http, key, path: "http.\(key)") { try set(key, text, name: "http.\(key)") }
        }
        if let allow = try reader.bool(http, "allow_plaintext", path: "http.allow_plaintext") { allowPlaintext = allow }
        for key in ["max_queued", "auth_failure_limit"] {
            guard let count = http[key] else { continue }
            guard count.type == .int, let number = count.int, number > 0 else {
                throw ConfigurationError(key: "http.\(key)", "http.\(key) must be a whole number > 0.")
            }
            setCount(key, number)
        }
        for key in ["idle_timeout_seconds", "request_timeout_seconds"] {
            if let seconds = try reader.seconds(http, key, path: "http.\(key)") { setTimeout(key, seconds) }
        }
    }

    /// Applies `SMSGW_HTTP_LISTEN`, `SMSGW_HTTP_TLS_CERTIFICATE`, `SMSGW_HTTP_TLS_KEY`,
    /// `SMSGW_HTTP_ALLOW_PLAINTEXT`, `SMSGW_HTTP_MAX_QUEUED`, `SMSGW_HTTP_AUTH_FAILURE_LIMIT`,
    /// `SMSGW_HTTP_IDLE_TIMEOUT_SECONDS` and `SMSGW_HTTP_REQUEST_TIMEOUT_SECONDS`.
    mutating func applyEnvironment(_ environment: [String: String], prefix: String) throws(ConfigurationError) {
        let httpPrefix = prefix + "HTTP_"
        for (name, text) in environment where name.hasPrefix(httpPrefix) {
            let key = String(name.dropFirst(httpPrefix.count)).lowercased()
            switch key {
            case "listen", "tls_certificate", "tls_key":
                try set(key, text, name: name)
            case "allow_plaintext":
                switch text.trimmingCharacters(in: .whitespaces).lowercased() {
                case "true", "1", "yes": allowPlaintext = true
                case "false", "0", "no": allowPlaintext = false
                default: throw ConfigurationError(key: name, "\(name) must be true or false, not \"\(text)\".")
                }
            case "max_queued", "auth_failure_limit":
                guard let number = Int(text.trimmingCharacters(in: .whitespaces)), number > 0 else {
                    throw ConfigurationError(key: name, "\(name) must be a whole number > 0, not \"\(text)\".")
                }
                setCount(key, number)
            case "idle_timeout_seconds", "request_timeout_seconds":
                guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds > 0, seconds.isFinite else {
                    throw ConfigurationError(key: name, "\(name) must be a positive number of seconds, not \"\(text)\".")
                }
                setTimeout(key, seconds)
            default:
                throw ConfigurationError(
                    key: name,
                    "Unknown environment variable \(name); expected one of \(Self.keys.map { httpPrefix + $0.uppercased() }.joined(separator: ", "))."
                )
            }
        }
    }

    private mutating func setCount(_ key: String, _ number: Int) {
        if key == "max_queued" { maxQueued = number } else { authFailureLimit = number }
    }

    private mutating func setTimeout(_ key: String, _ seconds: Double) {
        if key == "idle_timeout_seconds" { idleTimeoutSeconds = seconds } else { requestTimeoutSeconds = seconds }
    }

    private mutating func set(_ key: String, _ text: String, name: String) throws(ConfigurationError) {
        switch key {
        case "listen":
            if text.trimmingCharacters(in: .whitespaces).lowercased() == "off" {
                listen = nil
                return
            }
            guard let address = Address(text) else {
                throw ConfigurationError(key: name, "\(name) must be HOST:PORT such as 127.0.0.1:8640 (or \"off\"), not \"\(text)\".")
            }
            listen = address
        case "tls_certificate":
            tlsCertificate = text.isEmpty ? nil : text
        default:
            tlsKey = text.isEmpty ? nil : text
        }
    }
}
