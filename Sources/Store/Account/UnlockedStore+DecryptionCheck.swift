import Foundation

/// What ``UnlockedStore/checkDecryption(sample:)`` opened.
public struct DecryptionCheck: Sendable, Hashable, Codable {
    /// The contacts whose ratchet state opened: every contact that has one.
    public let ratchetStates: Int
    /// The logged texts opened: a sample, the newest first.
    public let logTexts: Int
    /// The vault items opened: a sample.
    public let vaultItems: Int
}

extension UnlockedStore {
    /// Opens every contact's ratchet state and up to `sample` logged texts and vault items
    /// under the data key, each under the context it was sealed for; nothing opened is kept.
    ///
    /// A copied store passes only when its blobs arrived byte for byte in their own rows.
    ///
    /// - Throws: ``StoreError/corrupted(_:)`` when a blob does not open.
    public func checkDecryption(sample: Int = 100) throws -> DecryptionCheck {
        let dataKey = dataKey
        return try read { reader in try Self.openSealed(in: reader.db, under: dataKey, sample: sample) }
    }

    /// The same check on `copy`, a copy of this store (``GatewayStore/copy(to:batchSize:progress:)``),
    /// with the keys this unlock holds: the copy is checked without being unlocked itself, so
    /// no passphrase or code is asked for twice.
    ///
    /// - Throws: ``StoreError/corrupted(_:)`` when the copy does not hold this account under
    ///   its current data key, or a blob does not open.
    public func checkDecryption(of copy: GatewayStore, sample: Int = 100) throws -> DecryptionCheck {
        let keys = keys.withLock { $0 }
        let account = accountID.storeString
        return try StoreError.wrapping {
            try copy.readTransaction { db in
                let generation = try db.value(Int64.self, sql: "SELECT key_generation FROM account WHERE id = ?", arguments: [account])
                guard generation == keys.generation else { throw StoreError.copyLacksAccount }
                return try Self.openSealed(in: db, under: keys.dataKey, sample: sample)
            }
        }
    }

    private static func openSealed(in db: StoreDatabase, under dataKey: DataKey, sample: Int) throws -> DecryptionCheck {
        var states = 0
        for row in try db.rows(sql: "SELECT id, session FROM contacts WHERE session IS NOT NULL ORDER BY id") {
            _ = try dataKey.open(row["session"], for: .contactSession(try uuid(row["id"])))
            states += 1
        }
        var texts = 0
        for row in try db.rows(
            sql: "SELECT uuid, text FROM messages WHERE text IS NOT NULL ORDER BY id DESC LIMIT ?", arguments: [sample])
        {
            _ = try dataKey.open(row["text"], for: .messageText(try uuid(row["uuid"])))
            texts += 1
        }
        var items = 0
        for row in try db.rows(sql: "SELECT id, body FROM vault_items ORDER BY id LIMIT ?", arguments: [sample]) {
            _ = try dataKey.open(row["body"], for: .vaultItem(try uuid(row["id"])))
            items += 1
        }
        return DecryptionCheck(ratchetStates: states, logTexts: texts, vaultItems: items)
    }

    private static func uuid(_ text: String) throws -> UUID {
        guard let uuid = UUID(uuidString: text) else {
            throw StoreError.corrupted("A stored id is not a UUID; restore the database from a backup.")
        }
        return uuid
    }
}

extension StoreError {
    static let copyLacksAccount = StoreError.corrupted(
        "The copy does not hold this account under its current data key; copy again into an empty target.")
}
