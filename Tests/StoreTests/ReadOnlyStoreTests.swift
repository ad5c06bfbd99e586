import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

/// A store that can only be read (a file system remounted read-only, another user's copy): it is
/// read, unlocked and backed up without one byte written in the data directory, and every write
/// is refused with a sentence. Root passes the modes a normal user meets, so these open it as
/// read-only on purpose; the end-to-end tests run a chmod'ed one as a normal user.
struct ReadOnlyStoreTests {
    private func openReadOnly(_ directory: TemporaryDirectory) throws -> GatewayStore {
        try GatewayStore.open(
            directory: directory.url, logger: TestStore.logger, lockoutPolicy: .standard, creating: false,
            forcingReadOnly: .permissions)
    }

    /// Every entry of the data directory with its bytes.
    private func snapshot(_ directory: TemporaryDirectory) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
            files[name] = FileManager.default.contents(atPath: directory.url.appendingPathComponent(name).path) ?? Data()
        }
        return files
    }

    @Test func aClosedStoreIsReadUnlockedAndBackedUpWithoutAWrite() throws {
        try TestStore.withDirectory { directory in
            let unlocked = try directory.unlockedStore()
            _ = try unlocked.addContact(name: "alice", number: nil, pairingCode: Data("code".utf8))
            try unlocked.close()
            // As a stopped daemon leaves it: the last connection to close (a writer) folded the
            // -wal in and removed it and the -shm.
            try DatabaseQueue(path: directory.databasePath).close()
            let before = try snapshot(directory)
            #expect(
                before.keys.contains(GatewayStore.databaseFileName) && !before.keys.contains("smsgw.sqlite-shm"), "\(before.keys.sorted())")

            let store = try openReadOnly(directory)
            #expect(store.readOnly == .permissions)
            // More wrong passphrases than the lockout allows: none is counted, the right one still opens.
            // Each says so, never a count of attempts left before the account locks.
            for _ in 1...(LockoutPolicy.standard.threshold + 2) {
                let wrong = #expect(throws: StoreError.authenticationFailed(remainingAttempts: nil)) {
                    _ = try store.unlock(passphrase: "wrong passphrase entirely")
                }
                #expect(
                    wrong?.description
                        == "The passphrase is wrong; check it and try again (attempts are not counted while the store is read-only).")
            }
            let opened = try store.unlock(passphrase: TestStore.passphrase)
            #expect(try opened.contacts().map(\.name) == ["alice"])
            let refusal = StoreError.readOnly(directory: directory.url.path, reason: .permissions)
            #expect(throws: refusal) { _ = try opened.addContact(name: "bob", number: nil, pairingCode: Data("c".utf8)) }
            #expect(refusal.category == .unavailable)
            #expect(refusal.description.contains("is read-only (this user may not write to its file or its data directory)"))
            #expect(!refusal.description.contains("smsgw "))

            let backup = TemporaryDirectory(prefix: "smsgw-backup")
            try FileManager.default.createDirectory(at: backup.url, withIntermediateDirectories: true)
            try store.backup(to: backup.url.appendingPathComponent(GatewayStore.databaseFileName))
            try store.close()
            let after = try snapshot(directory)
            #expect(
                after == before, "the read-only open wrote to the data directory: \(after.mapValues(\.count)) \(before.mapValues(\.count))")
            #expect(GatewayStore.contactNames(inDirectory: backup.url) == ["alice"])
        }
    }

    @Test func aTwoFactorCodeIsCheckedAgainstTheStoredStateButNotMarkedUsed() throws {
        try TestStore.withDirectory { directory in
            let unlocked = try directory.unlockedStore()
            try unlocked.enableTwoFactor(FakeSecondFactor.enrolment)
            try unlocked.close()
            let writable = try directory.open()
            _ = try writable.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("111111"))
            try writable.close()
            try DatabaseQueue(path: directory.databasePath).close()
            let before = try snapshot(directory)

            let store = try openReadOnly(directory)
            let missing = #expect(throws: StoreError.secondFactorFailed(.missing, remainingAttempts: nil)) {
                _ = try store.unlock(passphrase: TestStore.passphrase)
            }
            // Used before the store became read-only: still refused.
            #expect(missing?.description.contains("(attempts are not counted while the store is read-only)") == true)
            #expect(throws: StoreError.secondFactorFailed(.replayed, remainingAttempts: nil)) {
                _ = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("111111"))
            }
            for _ in 1...2 {
                _ = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("222222"))
            }
            try store.close()
            #expect(try snapshot(directory) == before)
        }
    }

    @Test func theWriteAheadLogOfAnOpenStoreIsRead() throws {
        try TestStore.withDirectory { directory in
            let writer = try directory.unlockedStore()
            _ = try writer.addContact(name: "alice", number: nil, pairingCode: Data("code".utf8))
            // Still open: alice is in the -wal, which the -shm indexes.
            #expect(FileManager.default.fileExists(atPath: directory.databasePath + "-shm"))
            let store = try openReadOnly(directory)
            let opened = try store.unlock(passphrase: TestStore.passphrase)
            #expect(try opened.contacts().map(\.name) == ["alice"])
            try store.close()
            try writer.close()
        }
    }

    @Test func aStoreThatNeedsAMigrationIsRefusedWithASentence() throws {
        let directory = TemporaryDirectory()
        _ = try LegacyDatabase.write(in: directory, twoFactor: false)
        let before = try snapshot(directory)
        do {
            _ = try openReadOnly(directory)
            Issue.record("an older read-only store was opened")
        } catch let error as StoreError {
            #expect(error.category == .configuration)
            #expect(error.description.contains("needs a migration, which a read-only store cannot take"))
        }
        #expect(try snapshot(directory) == before)
    }
}
