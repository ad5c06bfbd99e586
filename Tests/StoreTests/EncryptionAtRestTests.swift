import Crypto
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Secrets at rest")
struct EncryptionAtRestTests {
    @Test("No pairing code, session, message text, OTP secret or key appears in the database files")
    func noPlaintextOnDisk() throws {
        let (directory, store, unlocked) = try TestStore.unlockedStore()
        let pairing = "PAIRING-7F3K-QX9M-SECRET"
        let session = "SESSION-STATE-0123456789-SECRET"
        let text = "meet at the north gate at dawn SECRET"
        let otp = "OTPSECRETJBSWY3DPEHPK3PXP"
        let otpState = "OTP-STATE-last-step-12345"

        let bob = try unlocked.addContact(name: "bob", number: nil, pairingCode: Data(pairing.utf8))
        let carol = try unlocked.addContact(name: "carol", number: TestStore.number("+15550100123"), pairingCode: Data("c".utf8))
        try unlocked.write { tx in
            try tx.setPaired(carol, session: Data(session.utf8))
            let id = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: carol, status: .queued, text: text))
            try tx.enqueueOutbox("CIPHERTEXT", to: carol, messageID: id)
            try tx.addOTPEntry(name: "bank", secret: Data(otp.utf8), state: Data(otpState.utf8))
        }
        #expect(try unlocked.read { try $0.pairingCode(for: bob) } == Data(pairing.utf8))
        #expect(try unlocked.log().last?.text == text)

        // Look while the WAL still holds the pages, and again after a checkpoint.
        let needles =
            [pairing, session, text, otp, otpState].map { Data($0.utf8) }
            + [unlocked.dataKey.key.withUnsafeBytes { Data($0) }, Data(TestStore.passphrase.utf8)]
        for needle in needles {
            #expect(directory.filesContaining(needle).isEmpty, "found a secret in the files")
        }
        try store.pool.writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
        for needle in needles {
            #expect(directory.filesContaining(needle).isEmpty, "found a secret after checkpoint")
        }
        #expect(directory.rawFiles().count >= 1)
    }

    @Test("The data key never appears in a description, a mirror or an error", arguments: StoreBackendKind.allCases)
    func keyNotInDescriptions(_ backend: StoreBackendKind) throws {
        let (_, _, unlocked) = try unlockedStore(on: backend)
        let keyBytes = unlocked.dataKey.key.withUnsafeBytes { Array($0) }
        let hex = keyBytes.map { String(format: "%02x", $0) }.joined()
        let base64 = Data(keyBytes).base64EncodedString()
        var dumped = ""
        dump(unlocked, to: &dumped)
        dump(unlocked.dataKey, to: &dumped)
        let texts = [
            String(describing: unlocked), String(reflecting: unlocked), "\(unlocked.dataKey)", dumped,
            String(reflecting: unlocked.dataKey),
        ]
        for text in texts {
            #expect(!text.contains(hex) && !text.contains(base64) && !text.contains("\(keyBytes)"))
        }
    }

    @Test("A session blob copied to another contact fails to decrypt")
    func sessionMovedToAnotherRow() throws {
        let (_, store, unlocked) = try TestStore.unlockedStore()
        let a = try unlocked.addContact(name: "a", number: nil, pairingCode: Data("pa".utf8))
        let b = try unlocked.addContact(name: "b", number: nil, pairingCode: Data("pb".utf8))
        try unlocked.write { tx in
            try tx.setPaired(a, session: Data("session-a".utf8))
            try tx.setPaired(b, session: Data("session-b".utf8))
        }
        try store.pool.write { db in
            try db.execute(
                sql: "UPDATE contacts SET session = (SELECT session FROM contacts WHERE id = ?) WHERE id = ?",
                arguments: [a.id.storeString, b.id.storeString]
            )
        }
        #expect(try unlocked.read { try $0.session(for: a) } == Data("session-a".utf8))
        #expect {
            _ = try unlocked.read { try $0.session(for: b) }
        } throws: { error in
            guard case .corrupted(let message)? = error as? StoreError else { return false }
            return message.contains("session")
        }
    }

    @Test("A pairing code moved into the session column fails to decrypt")
    func pairingCodeMovedToAnotherColumn() throws {
        let (_, store, unlocked) = try TestStore.unlockedStore()
        let a = try unlocked.addContact(name: "a", number: nil, pairingCode: Data("pa".utf8))
        try store.pool.write { db in
            try db.execute(sql: "UPDATE contacts SET session = pairing_code WHERE id = ?", arguments: [a.id.storeString])
        }
        #expect(throws: StoreError.self) { _ = try unlocked.read { try $0.session(for: a) } }
    }

    @Test("A message text copied to another message fails to decrypt, and so does a flipped bit")
    func messageTextMoved() throws {
        let (_, store, unlocked) = try TestStore.unlockedStore()
        let ids = try unlocked.write { tx in
            [
                try tx.appendLog(NewLogEntry(direction: .incoming, contact: nil, remoteNumber: "+1555", status: .plain, text: "one")),
                try tx.appendLog(NewLogEntry(direction: .incoming, contact: nil, remoteNumber: "+1555", status: .plain, text: "two")),
                try tx.appendLog(NewLogEntry(direction: .incoming, contact: nil, remoteNumber: "+1555", status: .plain, text: "three")),
            ]
        }
        try store.pool.write { db in
            try db.execute(
                sql: "UPDATE messages SET text = (SELECT text FROM messages WHERE id = ?) WHERE id = ?",
                arguments: [ids[0], ids[1]]
            )
            var blob = try Data.fetchOne(db, sql: "SELECT text FROM messages WHERE id = ?", arguments: [ids[2]])!
            blob[blob.count - 1] ^= 0x01
            try db.execute(sql: "UPDATE messages SET text = ? WHERE id = ?", arguments: [blob, ids[2]])
        }
        #expect(try unlocked.read { try $0.logEntry(id: ids[0]) }.text == "one")
        #expect(throws: StoreError.self) { _ = try unlocked.read { try $0.logEntry(id: ids[1]) } }
        #expect(throws: StoreError.self) { _ = try unlocked.read { try $0.logEntry(id: ids[2]) } }
    }

    @Test("An OTP secret moved to another entry fails to decrypt")
    func otpSecretMoved() throws {
        let (_, store, unlocked) = try TestStore.unlockedStore()
        try unlocked.addOTPEntry(name: "one", secret: Data("s1".utf8))
        try unlocked.addOTPEntry(name: "two", secret: Data("s2".utf8))
        try store.pool.write { db in
            try db.execute(sql: "UPDATE otp_entries SET secret = (SELECT secret FROM otp_entries WHERE name = 'one') WHERE name = 'two'")
        }
        #expect(try unlocked.otpEntry(named: "one").secret == Data("s1".utf8))
        #expect(throws: StoreError.self) { _ = try unlocked.otpEntry(named: "two") }
    }

    @Test("Associated data names the table, the row and the purpose")
    func associatedDataLabels() {
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(SecretContext.contactSession(id).label == "smsgw/v1/contact/e621e1f8-c36c-495a-93fc-0c247a3e6e5f/session")
        #expect(SecretContext.dataKey(account: id).label == "smsgw/v1/account/e621e1f8-c36c-495a-93fc-0c247a3e6e5f/data-key")
        #expect(SecretContext.messageText(id) != SecretContext.contactSession(id))
    }
}
