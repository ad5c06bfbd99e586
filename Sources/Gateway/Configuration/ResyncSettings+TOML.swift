import Operations
import TOMLKit

/// Reading the `[resync]` and `[replies]` tables and their environment overrides.
extension ResyncSettings {
    /// Reads the two tables of a configuration file.
    mutating func read(_ table: TOMLTable, source: String) throws(ConfigurationError) {
        if let value = table["resync"] {
            guard let resync = value.table else {
                throw ConfigurationError(key: "resync", "The key resync must be a table ([resync]) with the key accept.")
            }
            for key in resync.keys where key != "accept" {
                throw ConfigurationError(key: "resync.\(key)", "Unknown key resync.\(key) in \(source); expected accept.")
            }
            if let text = try TOMLReader(source: source).string(resync, "accept", path: "resync.accept") {
                accept = try Self.acceptance(text, key: "resync.accept")
            }
        }
        if let value = table["replies"] {
            guard let replies = value.table else {
                throw ConfigurationError(key: "replies", "The key replies must be a table ([replies]) with the key per_contact_per_hour.")
            }
            for key in replies.keys where key != "per_contact_per_hour" {
                throw ConfigurationError(key: "replies.\(key)", "Unknown key replies.\(key) in \(source); expected per_contact_per_hour.")
            }
            if let count = replies["per_contact_per_hour"] {
                guard count.type == .int, let number = count.int, number >= 0 else {
                    throw ConfigurationError(
                        key: "replies.per_contact_per_hour",
                        "replies.per_contact_per_hour must be a whole number ≥ 0 (0 never replies automatically).")
                }
                automaticRepliesPerHour = number
            }
        }
    }

    /// Applies `SMSGW_RESYNC_ACCEPT` and `SMSGW_REPLIES_PER_CONTACT_PER_HOUR`.
    mutating func applyEnvironment(_ environment: [String: String], prefix: String) throws(ConfigurationError) {
        if let text = environment[prefix + "RESYNC_ACCEPT"] {
            accept = try Self.acceptance(text, key: prefix + "RESYNC_ACCEPT")
        }
        let repliesKey = prefix + "REPLIES_PER_CONTACT_PER_HOUR"
        if let text = environment[repliesKey] {
            guard let number = Int(text.trimmingCharacters(in: .whitespaces)), number >= 0 else {
                throw ConfigurationError(key: repliesKey, "\(repliesKey) must be a whole number ≥ 0, not \"\(text)\".")
            }
            automaticRepliesPerHour = number
        }
    }

    private static func acceptance(_ text: String, key: String) throws(ConfigurationError) -> Acceptance {
        guard let value = Acceptance(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw ConfigurationError(
                key: key,
                "\(key) must be \"operator\" (a peer's resync waits for the operator to accept it) or \"auto\" (answered at once), not \"\(text)\"."
            )
        }
        return value
    }
}
