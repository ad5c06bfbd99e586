public import Foundation

/// One sealed row of the credential vault, decrypted: an item, an earlier password, or an event.
///
/// The application layer defines what `body` contains; the store only keeps it sealed under the
/// data key with associated data naming the row (docs/STORAGE.md), and never shows it.
public struct VaultRecord: Sendable, Hashable, Identifiable {
    public var id: UUID
    /// The decrypted contents.
    public var body: Data

    public init(id: UUID, body: Data) {
        self.id = id
        self.body = body
    }
}

extension VaultRecord: CustomStringConvertible, CustomReflectable {
    /// Never shows the body.
    public var description: String { "VaultRecord(\(id.storeString))" }
    /// Keeps `dump` and debuggers from printing the body.
    public var customMirror: Mirror { Mirror(self, children: ["id": id]) }
}

extension StoreReader {
    /// Every vault item, decrypted, in the order they were added.
    public func vaultItems() throws -> [VaultRecord] {
        try db.rows(sql: "SELECT id, body FROM vault_items ORDER BY rowid").map { row in
            let id = try UUID.fromStore(row["id"])
            return VaultRecord(id: id, body: try dataKey.open(row["body"], for: .vaultItem(id)))
        }
    }

    /// The earlier passwords of one item, decrypted, oldest first.
    public func vaultHistory(of item: UUID) throws -> [VaultRecord] {
        try db.rows(
            sql: "SELECT id, body FROM vault_history WHERE item_id = ? ORDER BY rowid", arguments: [item.storeString]
        ).map { row in
            let id = try UUID.fromStore(row["id"])
            return VaultRecord(id: id, body: try dataKey.open(row["body"], for: .vaultHistory(id)))
        }
    }

    /// The vault's events after `sequence`, oldest first, at most `limit`, each with its sequence
    /// number (the cursor of the next call).
    public func vaultEvents(after sequence: Int64 = 0, limit: Int = .max) throws -> [(sequence: Int64, record: VaultRecord)] {
        try db.rows(
            sql: "SELECT seq, id, body FROM vault_events WHERE seq > ? ORDER BY seq LIMIT ?",
            arguments: [sequence, Int64(clamping: limit)]
        ).map { row in
            let id = try UUID.fromStore(row["id"])
            return (row["seq"], VaultRecord(id: id, body: try dataKey.open(row["body"], for: .vaultEvent(id))))
        }
    }
}

extension StoreTransaction {
    /// Adds a vault item with a new random identifier and returns it.
    @discardableResult
    public func insertVaultItem(_ body: Data) throws -> UUID {
        let id = UUID()
        try db.execute(
            sql: "INSERT INTO vault_items (id, body) VALUES (?, ?)",
            arguments: [id.storeString, try dataKey.seal(body, for: .vaultItem(id))]
        )
        return id
    }

    /// Replaces an item's sealed contents.
    ///
    /// - Throws: ``StoreError/invalidState(_:)`` when the item was removed meanwhile.
    public func updateVaultItem(_ id: UUID, body: Data) throws {
        try db.execute(
            sql: "UPDATE vault_items SET body = ? WHERE id = ?",
            arguments: [try dataKey.seal(body, for: .vaultItem(id)), id.storeString]
        )
        if db.changesCount == 0 { throw StoreError.invalidState(Self.removedItem) }
    }

    /// Deletes an item with its earlier passwords.
    public func deleteVaultItem(_ id: UUID) throws {
        try db.execute(sql: "DELETE FROM vault_items WHERE id = ?", arguments: [id.storeString])
        if db.changesCount == 0 { throw StoreError.invalidState(Self.removedItem) }
    }

    /// Keeps an earlier password of `item`, then deletes the oldest beyond the newest `limit`.
    public func appendVaultHistory(of item: UUID, body: Data, keeping limit: Int) throws {
        let id = UUID()
        try db.execute(
            sql: "INSERT INTO vault_history (id, item_id, body) VALUES (?, ?, ?)",
            arguments: [id.storeString, item.storeString, try dataKey.seal(body, for: .vaultHistory(id))]
        )
        try db.execute(
            sql: """
                DELETE FROM vault_history WHERE item_id = ?1 AND rowid NOT IN
                    (SELECT rowid FROM vault_history WHERE item_id = ?1 ORDER BY rowid DESC LIMIT ?2)
                """,
            arguments: [item.storeString, max(0, limit)]
        )
    }

    /// Appends one event to the vault's log and returns its sequence number.
    @discardableResult
    public func appendVaultEvent(_ body: Data) throws -> Int64 {
        let id = UUID()
        return try db.insert(
            sql: "INSERT INTO vault_events (id, body) VALUES (?, ?) RETURNING seq",
            arguments: [id.storeString, try dataKey.seal(body, for: .vaultEvent(id))]
        )
    }

    private static let removedItem = "The vault item was removed meanwhile; list the vault and try again."
}
