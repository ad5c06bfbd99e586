public import Foundation

/// An incoming ciphertext that failed verification, kept to try again after the next resync.
///
/// The ciphertext is not secret (it went over the air); the log row next to it says why it failed.
public struct QuarantinedMessage: Sendable, Hashable, Codable, Identifiable {
    public var id: Int64
    public var contactID: UUID
    /// The log row that recorded the rejection, if it still exists.
    public var messageID: Int64?
    /// The 160 characters as received.
    public var ciphertext: String
    /// Why it was rejected, in a plain sentence.
    public var reason: String
    public var receivedAt: Date
}

extension StoreTransaction {
    /// Keeps a rejected ciphertext from `contact` to retry after a resync; returns its id.
    @discardableResult
    public func quarantine(
        _ ciphertext: String, from contact: Contact, messageID: Int64?, reason: String, now: Date = Date()
    ) throws -> Int64 {
        try db.insert(
            sql: """
                INSERT INTO quarantine (contact_id, message_id, ciphertext, reason, received_at) VALUES (?, ?, ?, ?, ?)
                RETURNING id
                """,
            arguments: [contact.id.storeString, messageID, ciphertext, reason, now.timeIntervalSince1970]
        )
    }

    /// Removes a quarantined ciphertext (it verified at last, or it is given up).
    public func removeQuarantined(_ id: Int64) throws {
        try db.execute(sql: "DELETE FROM quarantine WHERE id = ?", arguments: [id])
    }

    /// Drops quarantined ciphertexts received before `date`; returns how many.
    @discardableResult
    public func pruneQuarantine(olderThan date: Date) throws -> Int {
        try db.execute(sql: "DELETE FROM quarantine WHERE received_at < ?", arguments: [date.timeIntervalSince1970])
        return db.changesCount
    }
}

extension StoreReader {
    /// The contact's quarantined ciphertexts, oldest first.
    public func quarantined(for contact: Contact) throws -> [QuarantinedMessage] {
        try db.rows(
            sql: "SELECT * FROM quarantine WHERE contact_id = ? ORDER BY id", arguments: [contact.id.storeString]
        ).map { row in
            QuarantinedMessage(
                id: row["id"], contactID: try UUID.fromStore(row["contact_id"]), messageID: row["message_id"],
                ciphertext: row["ciphertext"], reason: row["reason"],
                receivedAt: Date(timeIntervalSince1970: row["received_at"])
            )
        }
    }

    /// How many ciphertexts wait in quarantine for `contact`.
    public func quarantineCount(for contact: Contact) throws -> Int {
        try db.value(
            Int.self, sql: "SELECT COUNT(*) FROM quarantine WHERE contact_id = ?", arguments: [contact.id.storeString]
        ) ?? 0
    }
}
