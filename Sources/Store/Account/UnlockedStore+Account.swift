import Foundation
import Logging

extension UnlockedStore {
    /// Rewraps the data key under a new passphrase, and with `rotatingDataKey` replaces the data
    /// key itself, re-encrypting every secret under the new one.
    ///
    /// Without rotation no other row changes. With it, an old backup plus the old passphrase
    /// opens nothing written afterwards (see ``rotateDataKey(kek:parameters:)``); it is refused
    /// while `smsgw serve` runs on the data directory, because the daemon holds the current key.
    ///
    /// - Parameters:
    ///   - passphrase: The new passphrase, at least 8 characters (it may equal the old one).
    ///   - parameters: New Argon2id costs, or nil to keep the stored ones.
    ///   - rotatingDataKey: Also replace the data key.
    /// - Throws: ``StoreError/invalidInput(_:)`` for a short passphrase or weak parameters,
    ///   ``StoreError/invalidState(_:)`` when a daemon runs (rotation) or another process
    ///   changed the account meanwhile.
    public func changePassphrase(
        to passphrase: String, parameters: Argon2Parameters? = nil, rotatingDataKey: Bool = false
    ) throws {
        try AccountRules.passphrase(passphrase)
        if rotatingDataKey { try refuseWhileDaemonRuns() }
        let current = try read { reader in try AccountRecord.require(reader.db).parameters }
        let parameters = parameters ?? current
        try parameters.validate()
        // Argon2 runs before the transaction so the daemon is not blocked while it works.
        let kek = try KeyEncryptionKey.derive(passphrase: passphrase, salt: PassphraseKey.randomSalt(), parameters: parameters)
        if rotatingDataKey {
            // No other process may unlock (and take the retiring key) while the rows are re-encrypted.
            let rotated = try gateway.withUnlockLock {
                try refuseWhileDaemonRuns()
                return try rotateDataKey(kek: kek, parameters: parameters)
            }
            keys.withLock { $0 = rotated }
            // Old page images in the -wal hold the secrets under the retired key.
            _ = try? gateway.truncateWriteAheadLog()
            logger.notice("Changed the account passphrase and replaced the data key.")
            return
        }
        let old = keys.withLock { $0 }
        try write { tx in
            let record = try AccountRecord.require(tx.db)
            let wrapped = try old.dataKey.wrapped(by: kek, for: .dataKey(account: accountID, twoFactor: record.twoFactor))
            try tx.saveKeyWrapping(wrapped, kek: kek, parameters: parameters, generation: old.generation)
        }
        keys.withLock { $0 = AccountKeys(dataKey: old.dataKey, kek: kek, generation: old.generation) }
        logger.info("Changed the account passphrase.")
    }

    /// Changes the account's username.
    public func rename(to username: String) throws {
        let username = try AccountRules.username(username)
        try write { tx in
            try tx.db.execute(
                sql: "UPDATE account SET username = ?, updated_at = ? WHERE id = ?",
                arguments: [username, Date().timeIntervalSince1970, accountID.storeString]
            )
        }
        currentUsername.withLock { $0 = username }
    }

    /// Deletes the account and every contact, key, message, outbox row, fingerprint and OTP entry.
    ///
    /// `secure_delete` zeroes the freed content, and a truncating WAL checkpoint removes the
    /// old page images from the `-wal` file. This object is unusable afterwards.
    public func deleteAccount() throws {
        try write { tx in
            for table in StoreSchema.tables {
                try tx.db.execute(sql: "DELETE FROM \(table)")
            }
        }
        try gateway.requireTruncatedWriteAheadLog(after: "the account is deleted")
        logger.notice("Deleted the gateway account and all its data.")
    }

    /// Throws ``StoreError/daemonRunning(pid:)`` while a daemon holds the data directory's
    /// lock (``DaemonLock``): for operations the running daemon's key would undo.
    public func refuseWhileDaemonRuns() throws {
        guard let pid = DaemonLock.probe(directory: gateway.directory) else { return }
        throw StoreError.daemonRunning(pid: pid)
    }
}

extension StoreTransaction {
    /// Stores a new wrapping of the data key with the salt and costs of `kek`, and clears the
    /// failure count (the person just proved the passphrase).
    func saveKeyWrapping(_ wrapped: Data, kek: KeyEncryptionKey, parameters: Argon2Parameters, generation: Int64) throws {
        try db.execute(
            sql: """
                UPDATE account SET kdf_salt = ?, kdf_memory_kib = ?, kdf_iterations = ?, kdf_parallelism = ?,
                    wrapped_data_key = ?, key_generation = ?, failed_attempts = 0, locked_until = NULL, updated_at = ?
                WHERE id = ?
                """,
            arguments: [
                kek.salt, Int64(parameters.memoryKiB), Int64(parameters.iterations), Int64(parameters.parallelism),
                wrapped, generation, now, accountID.storeString,
            ]
        )
    }
}
