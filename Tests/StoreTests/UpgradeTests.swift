import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("A database written before the v4 migrations")
struct UpgradeTests {
    @Test("Its two-factor login stays on, asks for the code, and is bound into the wrapping at the next unlock")
    func twoFactorMigrates() throws {
        let directory = TemporaryDirectory()
        let dataKey = try LegacyDatabase.write(in: directory, twoFactor: true)
        let store = try directory.open()
        #expect(try store.twoFactorEnabled, "the migration sees the legacy smsgw-login entry")
        #expect(throws: StoreError.secondFactorFailed(.missing, remainingAttempts: 2)) {
            _ = try store.unlock(passphrase: TestStore.passphrase)
        }
        #expect(throws: StoreError.secondFactorFailed(.wrong, remainingAttempts: 1)) {
            _ = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("000000"))
        }
        let unlocked = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("111111"))
        #expect(unlocked.dataKey.key == dataKey.key)

        // The secret moved into the account row (with the accepted code's state), the entry is gone.
        let record = try store.readTransaction { try AccountRecord.require($0) }
        #expect(record.twoFactorSecret != nil && record.twoFactorState != nil)
        #expect(try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM otp_entries") } == 0)
        #expect(throws: StoreError.secondFactorFailed(.replayed, remainingAttempts: 3)) {
            _ = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("111111"))
        }

        // Bound now: clearing the setting in the file no longer switches the code off.
        try store.pool.write { db in
            try db.execute(sql: "UPDATE account SET two_factor = 0, two_factor_secret = NULL, two_factor_state = NULL")
        }
        #expect(throws: StoreError.twoFactorSettingAltered) { _ = try directory.open().unlock(passphrase: TestStore.passphrase) }
    }

    @Test("Without two-factor login it opens with the passphrase alone, and the key wrapping is left as it was")
    func withoutTwoFactor() throws {
        let directory = TemporaryDirectory()
        _ = try LegacyDatabase.write(in: directory, twoFactor: false)
        let wrapped = try directory.open().readTransaction { try AccountRecord.require($0) }.wrappedDataKey
        let store = try directory.open()
        #expect(try store.twoFactorEnabled == false)
        _ = try store.unlock(passphrase: TestStore.passphrase)
        #expect(try store.readTransaction { try AccountRecord.require($0) }.wrappedDataKey == wrapped)
        #expect(try store.appliedMigrations() == StoreSchema.migrator.migrations)
    }
}
