public import Foundation

/// The changes that make a restored backup safe to run (``GatewayStore/stageBackup(_:dataDirectory:)``).
extension StoreTransaction {
    /// Moves every key generator (`sqlite_sequence`) of this store to at least `marks` (another
    /// store's ``GatewayStore/keyHighWaters()``), so the next message, event or outbox row gets an
    /// id neither store handed out. Tables this store lacks are left out. SQLite only.
    public func continueKeys(after marks: [String: Int64]) throws {
        for (table, mark) in marks.sorted(by: { $0.key < $1.key }) {
            let exists = try db.value(
                Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)", arguments: [table])
            guard exists == true else { continue }
            let present = try db.value(Int64.self, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table])
            if let present {
                if present < mark {
                    try db.execute(sql: "UPDATE sqlite_sequence SET seq = ? WHERE name = ?", arguments: [mark, table])
                }
            } else {
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", arguments: [table, mark])
            }
        }
    }

    /// Fails every outbox row that is queued or being submitted, with `reason` of its kind as its
    /// error, and the log rows they carry with the text's (an acknowledged message keeps its
    /// status): no modem sends them.
    ///
    /// - Returns: How many outbox rows were held.
    @discardableResult
    public func failUnsentOutbox(reason: (OutboxKind) -> String, now: Date) throws -> Int {
        let messages = try db.values(
            Int64.self, sql: "SELECT DISTINCT message_id FROM outbox WHERE state IN ('queued', 'submitting') AND message_id IS NOT NULL")
        let held =
            try db.value(Int.self, sql: "SELECT COUNT(*) FROM outbox WHERE state IN ('queued', 'submitting')") ?? 0
        for kind in OutboxKind.allCases {
            try db.execute(
                sql: """
                    UPDATE outbox SET state = 'failed', last_error = ?, error_permanent = 1, updated_at = ?, node = NULL,
                        lease_until = NULL, submitting_at = NULL
                    WHERE state IN ('queued', 'submitting') AND kind = ?
                    """,
                arguments: [reason(kind), now.timeIntervalSince1970, kind.rawValue])
        }
        for message in messages {
            try db.execute(
                sql: "UPDATE messages SET status = 'failed', error = ? WHERE id = ? AND status != 'acknowledged'",
                arguments: [reason(.text), message])
        }
        return held
    }

    /// Records `now` as the time the keys of every contact with a session (paired, or being
    /// paired again) came back from a backup, so each shows as needing a resync until one
    /// completes (``completeResync(for:)``); the counts of failed verifications stay as they are.
    ///
    /// - Returns: How many contacts were marked.
    @discardableResult
    public func markKeysRestored(now: Date) throws -> Int {
        try db.execute(
            sql: "UPDATE contacts SET keys_restored_at = ? WHERE session IS NOT NULL", arguments: [now.timeIntervalSince1970])
        return db.changesCount
    }

    /// Records `now` as the time a restore put back `contact` as not paired while the replaced
    /// store had completed its pairing (its keys are lost here, not only rewound); pairing clears it.
    public func markPairingLost(_ contact: Contact, now: Date) throws {
        try updateContact(contact, set: "keys_restored_at = ?", [now.timeIntervalSince1970])
    }

    /// Clears the mark of ``markPairingLost(_:now:)`` once a new pairing code replaced the backup's.
    public func clearPairingLost(_ contact: Contact) throws {
        try updateContact(contact, set: "keys_restored_at = NULL", [])
    }

    /// How many rows `table` holds, for a report (contacts, messages).
    public func count(of table: RestoredTable) throws -> Int {
        try db.value(Int.self, sql: "SELECT COUNT(*) FROM \(table.rawValue)") ?? 0
    }
}

/// The tables a restore reports the size of.
public enum RestoredTable: String, Sendable {
    case contacts
    case messages
}
