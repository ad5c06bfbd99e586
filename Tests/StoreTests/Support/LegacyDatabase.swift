import Foundation
import GRDB
import TestSupport

@testable import Store

/// A database as smsgw wrote it before the v4 migrations: the schema up to `v3-routing`, a data
/// key wrapped without the two-factor setting, the login secret (if any) as the `smsgw-login`
/// OTP entry, and fingerprints stored as the modem computed them.
enum LegacyDatabase {
    static let rawFingerprint = "fnv1a-5e0b1c7d9a8f6e21"

    /// Writes the database into `directory` and returns its data key.
    static func write(in directory: TemporaryDirectory, twoFactor: Bool) throws -> DataKey {
        try FileManager.default.createDirectory(
            at: directory.url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
        )
        let pool = try DatabasePool(path: directory.databasePath)
        try StoreSchema.migrator.migrate(pool, upTo: "v3-routing")
        let account = UUID()
        let salt = PassphraseKey.randomSalt()
        let now = Date().timeIntervalSince1970
        let kek = try KeyEncryptionKey.derive(passphrase: TestStore.passphrase, salt: salt, parameters: TestStore.parameters)
        let dataKey = DataKey.random()
        let wrapped = try dataKey.wrapped(by: kek, for: .dataKey(account: account))
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO account (id, username, kdf_salt, kdf_memory_kib, kdf_iterations, kdf_parallelism,
                        wrapped_data_key, created_at, updated_at)
                    VALUES (?, 'field-user', ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    account.storeString, salt, Int64(TestStore.parameters.memoryKiB), Int64(TestStore.parameters.iterations),
                    Int64(TestStore.parameters.parallelism), wrapped, now, now,
                ]
            )
            try db.execute(
                sql: "INSERT INTO received_pdus (fingerprint, received_at) VALUES (?, ?)", arguments: [rawFingerprint, now]
            )
            try db.execute(
                sql: "INSERT INTO messages (uuid, time, direction, status, fingerprint) VALUES (?, ?, 'in', 'plain', ?)",
                arguments: [UUID().storeString, now, rawFingerprint]
            )
            if twoFactor {
                let id = UUID()
                try db.execute(
                    sql: """
                        INSERT INTO otp_entries (id, name, name_key, secret, state, created_at, updated_at)
                        VALUES (?, 'smsgw-login', 'smsgw-login', ?, NULL, ?, ?)
                        """,
                    arguments: [id.storeString, try dataKey.seal(FakeSecondFactor.enrolment.secret, for: .otpSecret(id)), now, now]
                )
            }
        }
        try pool.close()
        return dataKey
    }
}
