import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Replacing the data key")
struct KeyRotationTests {
    /// A store with a paired contact, a pending one, a logged text, an OTP entry, a fingerprint
    /// and, if asked, two-factor login on.
    func populated(twoFactor: Bool = true, on backend: StoreBackendKind = .sqlite) throws -> (
        TestStoreLocation, GatewayStore, UnlockedStore
    ) {
        let (directory, store, unlocked) = try unlockedStore(on: backend)
        let carol = try unlocked.addContact(name: "carol", number: TestStore.number("+15550100123"), pairingCode: Data("carol-code".utf8))
        _ = try unlocked.addContact(name: "dave", number: nil, pairingCode: Data("dave-code".utf8))
        try unlocked.write { tx in
            try tx.setPaired(carol, session: Data("carol-session".utf8))
            try tx.appendLog(NewLogEntry(direction: .outgoing, contact: carol, status: .encrypted, text: "before rotation"))
            try tx.addOTPEntry(name: "bank", secret: Data("otp-secret".utf8), state: Data("otp-state".utf8))
            let chief = try tx.addOperator(name: "chief", role: .admin, password: Data("verifier".utf8))
            try tx.updateOperator(
                chief, OperatorChange(secondFactor: .some(SecondFactorEnrolment(secret: Data("op-2fa".utf8), state: Data("op-state".utf8))))
            )
            _ = try tx.recordReceivedFingerprint("pdu-1")
        }
        if twoFactor { try unlocked.enableTwoFactor(FakeSecondFactor.enrolment) }
        return (directory, store, unlocked)
    }

    /// A byte copy of the database files (after folding the -wal in): an old backup.
    func backup(_ location: TestStoreLocation, _ store: GatewayStore) throws -> TemporaryDirectory {
        let directory = location.directory
        _ = try store.truncateWriteAheadLog()
        let copy = TemporaryDirectory()
        try FileManager.default.createDirectory(at: copy.url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(atPath: directory.databasePath, toPath: copy.databasePath)
        return copy
    }

    @Test("Everything opens under the new key; an old backup plus the old passphrase opens nothing written since")
    func oldBackupCannotOpenNewRows() throws {
        let (directory, store, unlocked) = try populated(twoFactor: false)
        let old = try backup(directory, store)
        let oldKey = try old.open().unlock(passphrase: TestStore.passphrase).dataKey

        // The same passphrase: only the data key changes.
        try unlocked.changePassphrase(to: TestStore.passphrase, rotatingDataKey: true)
        let after = try unlocked.write { tx in
            try tx.appendLog(
                NewLogEntry(direction: .outgoing, contact: nil, remoteNumber: "+15550100123", status: .encrypted, text: "after rotation"))
        }

        // The old key opens neither the re-encrypted rows nor the new one.
        let rows = try store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT uuid, text FROM messages").map { (try UUID.fromStore($0["uuid"]), $0["text"] as Data) }
        }
        #expect(rows.count == 2)
        for (uuid, sealed) in rows {
            #expect(throws: StoreError.self) { _ = try oldKey.open(sealed, for: .messageText(uuid)) }
        }
        // Nor does the old backup's key wrapping, grafted onto the new file, unlock anything new.
        let graft = try old.open().readTransaction { try AccountRecord.require($0) }
        try store.pool.write { db in
            try db.execute(sql: "UPDATE account SET kdf_salt = ?, wrapped_data_key = ?", arguments: [graft.salt, graft.wrappedDataKey])
        }
        let grafted = try directory.open().unlock(passphrase: TestStore.passphrase)
        #expect(throws: StoreError.self) { _ = try grafted.read { try $0.logEntry(id: after) } }
        #expect(throws: StoreError.self) { _ = try grafted.read { try $0.session(for: $0.contact(named: "carol")) } }
        #expect(throws: StoreError.self) { _ = try grafted.otpEntry(named: "bank") }
    }

    @Test("After rotation every secret reads back under the new key, two-factor login included", arguments: StoreBackendKind.allCases)
    func everythingReadsBack(_ backend: StoreBackendKind) throws {
        let (directory, _, unlocked) = try populated(on: backend)
        let before = unlocked.dataKey.key.withUnsafeBytes { Data($0) }
        try unlocked.changePassphrase(to: "a brand new passphrase", rotatingDataKey: true)
        #expect(unlocked.dataKey.key.withUnsafeBytes { Data($0) } != before)
        // This process goes on with the new key.
        #expect(try unlocked.log().map(\.text) == ["before rotation"])

        let store = try directory.open()
        #expect(throws: StoreError.secondFactorFailed(.missing, remainingAttempts: 2)) {
            _ = try store.unlock(passphrase: "a brand new passphrase")
        }
        let again = try store.unlock(passphrase: "a brand new passphrase", secondFactor: FakeSecondFactor.check("111111"))
        try again.read { reader in
            let carol = try reader.contact(named: "carol")
            #expect(try reader.session(for: carol) == Data("carol-session".utf8))
            #expect(try reader.pairingCode(for: reader.contact(named: "dave")) == Data("dave-code".utf8))
            #expect(try reader.log().map(\.text) == ["before rotation"])
            let otp = try reader.otpEntry(named: "bank")
            #expect(otp.secret == Data("otp-secret".utf8) && otp.state == Data("otp-state".utf8))
            let chief = try #require(try reader.operatorRecord(named: "chief"))
            #expect(chief.password == Data("verifier".utf8))
            #expect(chief.secondFactor == SecondFactorEnrolment(secret: Data("op-2fa".utf8), state: Data("op-state".utf8)))
            // Fingerprints keyed under the retired key are dropped (see rotateDataKey).
            #expect(try reader.hasReceivedFingerprint("pdu-1") == false)
        }
        #expect(try store.readTransaction { try AccountRecord.require($0) }.keyGeneration == 2)
    }

    @Test("A process that unlocked before the rotation cannot write under the retired key", arguments: StoreBackendKind.allCases)
    func staleProcessRefused(_ backend: StoreBackendKind) throws {
        let (directory, _, unlocked) = try populated(on: backend)
        let other = try directory.open().unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("111111"))
        try unlocked.changePassphrase(to: TestStore.passphrase, rotatingDataKey: true)
        #expect(throws: StoreError.dataKeyReplaced) {
            try other.write { tx in
                try tx.appendLog(NewLogEntry(direction: .outgoing, contact: nil, remoteNumber: "+1", status: .plain, text: "x"))
            }
        }
        #expect(throws: StoreError.dataKeyReplaced) { _ = try other.log() }
    }

    @Test("Rotation is refused while a daemon holds the data directory", arguments: StoreBackendKind.allCases)
    func refusedWhileDaemonRuns(_ backend: StoreBackendKind) throws {
        let (location, _, unlocked) = try populated(on: backend)
        let lock = try #require(try DaemonLock.acquire(directory: location.directory.url))
        defer { lock.release() }
        #expect {
            try unlocked.changePassphrase(to: TestStore.passphrase, rotatingDataKey: true)
        } throws: { error in
            guard let error = error as? StoreError, case .daemonRunning(let pid) = error else { return false }
            return pid == getpid() && error.description.contains("stop it first") && !error.description.contains("smsgw ")
        }
        #expect(try unlocked.read { try AccountRecord.require($0.db) }.keyGeneration == 1)
    }

    @Test("Every BLOB column of the schema is either re-encrypted by a rotation or known not to be sealed")
    func everySealedColumnIsRotated() throws {
        let (_, store, _) = try TestStore.unlockedStore()
        let blobs = try store.pool.read { db in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'"
            )
            return try tables.flatMap { table in
                try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
                    .filter { ($0["type"] as String).uppercased() == "BLOB" }
                    .map { "\(table).\($0["name"] as String)" }
            }
        }
        let rotated = Set(SealedColumn.all.map { "\($0.table).\($0.column)" })
        #expect(Set(blobs) == rotated.union(SealedColumn.unsealedBlobs))
    }
}
