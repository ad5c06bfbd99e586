import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Keyed PDU fingerprints")
struct FingerprintTests {
    static let raw = "sha256:5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef"

    @Test("Fingerprints are stored keyed: the modem's hash never reaches the files, and still matches")
    func storedKeyed() throws {
        let (directory, store, unlocked) = try TestStore.unlockedStore()
        let id = try unlocked.write { tx in
            #expect(try tx.recordReceivedFingerprint(Self.raw))
            #expect(try tx.recordReceivedFingerprint(Self.raw) == false)
            return try tx.appendLog(
                NewLogEntry(
                    direction: .incoming, contact: nil, remoteNumber: "BANK", status: .plain, text: "code 1234", fingerprint: Self.raw))
        }
        #expect(try unlocked.read { try $0.hasReceivedFingerprint(Self.raw) })
        let keyed = unlocked.dataKey.fingerprint(Self.raw)
        #expect(keyed.count == 64 && keyed != Self.raw)
        let stored = try store.pool.read { db in
            [
                try String.fetchOne(db, sql: "SELECT fingerprint FROM received_pdus"),
                try String.fetchOne(db, sql: "SELECT fingerprint FROM messages"),
            ]
        }
        #expect(stored == [keyed, keyed])
        #expect(try unlocked.read { try $0.logEntry(id: id) }.fingerprint == keyed)
        #expect(directory.filesContaining(Data(Self.raw.utf8)).isEmpty)
        #expect(directory.filesContaining(Data("5f70bf18a086".utf8)).isEmpty)
    }

    @Test("The key is the account's own: another account stores another value for the same SMS", arguments: StoreBackendKind.allCases)
    func keyedPerAccount(_ backend: StoreBackendKind) throws {
        let (_, _, one) = try unlockedStore(on: backend)
        let (_, _, two) = try unlockedStore(on: backend)
        #expect(one.dataKey.fingerprint(Self.raw) != two.dataKey.fingerprint(Self.raw))
        #expect(one.dataKey.fingerprint(Self.raw) == one.dataKey.fingerprint(Self.raw))
    }

    @Test("An older database's fingerprints are keyed at the first unlock, once, and still recognise the SMS")
    func legacyFingerprintsKeyed() throws {
        let directory = TemporaryDirectory()
        let dataKey = try LegacyDatabase.write(in: directory, twoFactor: false)
        let raw = LegacyDatabase.rawFingerprint
        let store = try directory.open()
        #expect(try store.readTransaction { try AccountRecord.require($0) }.fingerprintsKeyed == false)
        let unlocked = try store.unlock(passphrase: TestStore.passphrase)
        let keyed = dataKey.fingerprint(raw)
        let stored = {
            try store.pool.read { db in
                [
                    try String.fetchOne(db, sql: "SELECT fingerprint FROM received_pdus"),
                    try String.fetchOne(db, sql: "SELECT fingerprint FROM messages"),
                ]
            }
        }
        #expect(try stored() == [keyed, keyed])
        #expect(try store.readTransaction { try AccountRecord.require($0) }.fingerprintsKeyed)
        #expect(try unlocked.read { try $0.hasReceivedFingerprint(raw) })
        #expect(directory.filesContaining(Data(raw.utf8)).isEmpty)
        // A second unlock keys nothing twice.
        _ = try directory.open().unlock(passphrase: TestStore.passphrase)
        #expect(try stored() == [keyed, keyed])
    }
}
