import Operations
import TOMLKit

/// Reading the `[resync]` and `[replies]` tables and their environment overrides.
extension ResyncSettings {
    /// Reads the two tables of a configuration file.
    mutating func read(_ table: TOMLTable, source: String) throws(ConfigurationError) {
        let reader = TOMLReader(source: source)
        if let resync = try reader.table(table, "resync", keys: ["accept"]),
            let text = try reader.string(resync, "accept", path: "resync.accept")
        {
            accept = try Self.acceptance(text, key: "resync.accept")
        }
        if let replies = try reader.table(table, "replies", keys: ["per_contact_per_hour"]),
            let number = try reader.count(
                replies, "per_contact_per_hour", path: "replies.per_contact_per_hour", meaning: "0 never replies automatically")
        {
            automaticRepliesPerHour = number
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
