import Foundation
import TOMLKit

/// Reading the `[outbox]` table and its environment overrides (`SMSGW_OUTBOX_<KEY>`).
extension OutboxSettings {
    /// Keys of `[outbox]`.
    static let keys = ["max_attempts", "max_age_seconds"]

    /// Reads the table of a configuration file.
    mutating func read(_ table: TOMLTable, source: String) throws(ConfigurationError) {
        let reader = TOMLReader(source: source)
        guard let outbox = try reader.table(table, "outbox", keys: Self.keys) else { return }
        if let number = try reader.count(outbox, "max_attempts", path: "outbox.max_attempts", meaning: "0 never gives up by count") {
            maxAttempts = number
        }
        if let age = outbox["max_age_seconds"] {
            let number: Double? = age.type == .int ? age.int.map(Double.init) : age.type == .double ? age.double : nil
            guard let number, number >= 0, number.isFinite else {
                throw ConfigurationError(
                    key: "outbox.max_age_seconds",
                    "outbox.max_age_seconds must be a number of seconds ≥ 0 (0 never gives up by age).")
            }
            maxAgeSeconds = number
        }
    }

    /// Applies `SMSGW_OUTBOX_MAX_ATTEMPTS` and `SMSGW_OUTBOX_MAX_AGE_SECONDS`.
    mutating func applyEnvironment(_ environment: [String: String], prefix: String) throws(ConfigurationError) {
        let outboxPrefix = prefix + "OUTBOX_"
        for (name, text) in environment where name.hasPrefix(outboxPrefix) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            switch String(name.dropFirst(outboxPrefix.count)).lowercased() {
            case "max_attempts":
                guard let number = Int(trimmed), number >= 0 else {
                    throw ConfigurationError(key: name, "\(name) must be a whole number ≥ 0, not \"\(text)\".")
                }
                maxAttempts = number
            case "max_age_seconds":
                guard let number = Double(trimmed), number >= 0, number.isFinite else {
                    throw ConfigurationError(key: name, "\(name) must be a number of seconds ≥ 0, not \"\(text)\".")
                }
                maxAgeSeconds = number
            default:
                throw ConfigurationError(
                    key: name,
                    "Unknown environment variable \(name); expected one of \(Self.keys.map { outboxPrefix + $0.uppercased() }.joined(separator: ", "))."
                )
            }
        }
    }
}
