public import Foundation

extension StoreReader {
    /// Every waiting part of a shared vault item, decrypted, in the order they arrived.
    public func vaultParts() throws -> [VaultRecord] {
        try db.rows(sql: "SELECT id, body FROM vault_parts ORDER BY rowid").map { row in
            let id = try UUID.fromStore(row["id"])
            return VaultRecord(id: id, body: try dataKey.open(row["body"], for: .vaultPart(id)))
        }
    }
}

extension StoreTransaction {
    /// Keeps one received part of a shared vault item until the rest of its record arrives.
    @discardableResult
    public func insertVaultPart(_ body: Data) throws -> UUID {
        let id = UUID()
        try db.execute(
            sql: "INSERT INTO vault_parts (id, body) VALUES (?, ?)",
            arguments: [id.storeString, try dataKey.seal(body, for: .vaultPart(id))]
        )
        return id
    }

    /// Deletes waiting parts (their record was joined, or they waited too long).
    public func deleteVaultParts(_ ids: [UUID]) throws {
        for id in ids { try db.execute(sql: "DELETE FROM vault_parts WHERE id = ?", arguments: [id.storeString]) }
    }
}
