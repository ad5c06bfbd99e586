import Failures
import Foundation
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

/// Sealing for copy and paste, queueing for the daemon, and opening by hand: one transaction each.
struct MessagesTests {
    @Test(arguments: StoreBackendKind.allCases)
    func encryptCommitsTheStateAndTheLogBeforeTheCiphertextLeaves(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let first = try Messages.encrypt("meet at the bridge", for: "BOB", store: couple.alice, now: Date(), using: &rng)
        let second = try Messages.encrypt("at noon", for: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(first.contact == "bob" && first.ciphertext.count == 160)
        #expect([first.position, second.position] == [0, 1])
        let row = try couple.alice.read { try $0.logEntry(id: first.logID) }
        #expect(row.status == .encrypted && row.text == "meet at the bridge" && row.ciphertext == first.ciphertext)
        #expect(try Contacts.contact(named: "bob", store: couple.alice).lastSentAt != nil)

        let opened = try Messages.decrypt(" " + second.ciphertext + "\n", from: "alice", store: couple.bob, now: Date(), using: &rng)
        #expect(textOf(opened)?.text == "at noon" && textOf(opened)?.wasLate == false)
        #expect(try textOf(Messages.decrypt(first.ciphertext, from: "alice", store: couple.bob, now: Date(), using: &rng))?.wasLate == true)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func anEmptyTextIsRefusedBeforeAnyKeyIsUsed(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        for text in ["", "  \n\t"] {
            let error = #expect(throws: MessageError.self) {
                try Messages.encrypt(text, for: "bob", store: couple.alice, now: Date(), using: &rng)
            }
            #expect(error?.category == .invalidInput)
            #expect(throws: MessageError.emptyText) { try Messages.queue(text, to: "bob", store: couple.alice, now: Date(), using: &rng) }
        }
        #expect(try Contacts.contact(named: "bob", store: couple.alice).sendPosition == 0)
        #expect(try couple.alice.read { try $0.log() }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func queueCommitsStateLogAndOutboxTogetherAndAFailureChangesNothing(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let a = couple.alice
        let queued = try Messages.queue("Hello “Bob”", to: "BOB", transliterate: true, store: a, now: Date(), using: &rng)
        #expect(queued.position == 0 && queued.contact == "bob" && !queued.replacements.isEmpty)
        let item = try a.read { try $0.outboxItem(id: queued.outboxID) }
        #expect(item.state == .queued && item.kind == .text && item.body.count == 160 && item.messageID == queued.logID)
        let entry = try a.read { try $0.logEntry(id: queued.logID) }
        #expect(entry.status == .queued && entry.text == "Hello \"Bob\"" && entry.ciphertext == item.body)
        #expect(try Messages.queue("second", to: "bob", store: a, now: Date(), using: &rng).position == 1)

        #expect(throws: StoreError.self) { try Messages.queue("x", to: "carol", store: a, now: Date(), using: &rng) }
        #expect(throws: CipherError.self) { try Messages.queue("Hello “Bob”", to: "bob", store: a, now: Date(), using: &rng) }
        #expect(throws: CipherError.self) {
            try Messages.queue(String(repeating: "x", count: 142), to: "bob", maxParts: 1, store: a, now: Date(), using: &rng)
        }
        #expect(throws: CipherError.self) {
            try Messages.queue(String(repeating: "x", count: 1089), to: "bob", store: a, now: Date(), using: &rng)
        }
        #expect(try a.read { try $0.outboxItems() }.count == 2)
        #expect(try Contacts.contact(named: "bob", store: a).sendPosition == 2)
        let json = try OperationsJSON.string(queued)
        #expect(json == "{\"contact\":\"bob\",\"id\":\(queued.logID),\"parts\":1,\"position\":0}")
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aContactWithoutANumberIsUnavailableForATextAndAResyncAlike(_ backend: StoreBackendKind) throws {
        let couple = try Couple(bobNumber: nil, on: backend)
        var rng = SystemRandomNumberGenerator()
        let text = #expect(throws: ContactError.self) { try Messages.queue("x", to: "bob", store: couple.alice, now: Date(), using: &rng) }
        let resync = #expect(throws: ContactError.self) { try Resync.start(with: "bob", store: couple.alice, now: Date(), using: &rng) }
        #expect(text == .noNumber(contact: "bob", purpose: .message) && resync == .noNumber(contact: "bob", purpose: .resync))
        #expect(text?.category == .unavailable && resync?.category == .unavailable)
        // Neither sentence speaks of a command of any front end.
        #expect(![text?.description, resync?.description].contains { $0?.contains("smsgw") != false })
        #expect(try couple.alice.read { try $0.outboxItems() }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aTextToAContactNeitherPairedNorWithANumberSaysBoth(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        _ = try Contacts.add(name: "carol", numbers: [], store: couple.alice, using: &rng)
        let text = #expect(throws: ContactError.self) {
            try Messages.queue("x", to: "carol", store: couple.alice, now: Date(), using: &rng)
        }
        #expect(text == .noNumberNorPairing(contact: "carol") && text?.category == .unavailable)
        let sentence = text?.description ?? ""
        #expect(sentence.contains("no phone number") && sentence.contains("not paired") && !sentence.contains("smsgw"), "\(sentence)")
        #expect(try couple.alice.read { try $0.outboxItems() }.isEmpty)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func decryptingByHandChangesNothingWhenTheMessageDoesNotOpen(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let sealed = try Messages.encrypt("meet at the bridge", for: "bob", store: couple.alice, now: Date(), using: &rng)
        var characters = Array(sealed.ciphertext)
        characters[80] = characters[80] == "A" ? "B" : "A"
        for _ in 0..<4 {
            #expect(throws: CipherError.self) {
                try Messages.decrypt(String(characters), from: "alice", store: couple.bob, now: Date(), using: &rng)
            }
        }
        // Unlike the daemon's receive path: no count, no log row, nothing kept in quarantine.
        let alice = try Contacts.contact(named: "alice", store: couple.bob)
        #expect(alice.sync.consecutiveFailures == 0 && alice.quarantined == 0 && alice.receivePosition == 0)
        #expect(try couple.bob.read { try $0.log() }.isEmpty)

        let opened = try Messages.decrypt(sealed.ciphertext, from: "alice", store: couple.bob, now: Date(), using: &rng)
        #expect(textOf(opened)?.text == "meet at the bridge")
        #expect(try couple.bob.read { try $0.logEntry(id: opened.logID) }.status == .decrypted)
        #expect(throws: CipherError.duplicate) {
            try Messages.decrypt(sealed.ciphertext, from: "alice", store: couple.bob, now: Date(), using: &rng)
        }
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aContactNotPairedYetIsAConflictThatSaysWhatToDo(_ backend: StoreBackendKind) throws {
        let couple = try Couple(paired: false, on: backend)
        var rng = SystemRandomNumberGenerator()
        let error = #expect(throws: ContactError.self) {
            try Messages.encrypt("hi", for: "bob", store: couple.alice, now: Date(), using: &rng)
        }
        #expect(error == .notPaired(contact: "bob") && error?.category == .conflict)
        #expect(error?.description.contains("smsgw") == false)
    }

    private func textOf(_ applied: AppliedMessage) -> ReceivedMessage? {
        if case .text(let message) = applied.content { return message }
        return nil
    }
}

/// A typed message (docs/PROTOCOL.md §3.4) of a kind this version does not act on: applied like
/// any message (its position is used), kept in the log with status `typed`, never shown as text.
struct TypedMessageTests {
    @Test(arguments: StoreBackendKind.allCases)
    func aTypedMessageIsKeptAndReportedNotShownAsText(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let payload = TypedPayload(kind: .init(rawValue: 100), body: [0, 1, 0x7F])
        let ciphertext = try couple.alice.write { tx in
            let contact = try tx.contact(named: "bob")
            let sealed = try tx.requirePairedSession(for: contact).sealing(.typed(payload), using: &rng)
            try tx.saveSession(sealed.session, for: contact)
            return sealed.ciphertext
        }
        let applied = try Messages.decrypt(ciphertext, from: "alice", store: couple.bob, now: Date(), using: &rng)
        guard case .typed(let typed) = applied.content else { throw TypedTestFailure() }
        #expect(typed.payload == payload && typed.position == 0)
        let row = try couple.bob.read { try $0.logEntry(id: applied.logID) }
        #expect(row.status == .typed && row.text == "kind 100: 00017f")
        #expect(row.error?.contains("keeps without acting on it") == true)
        #expect(try Contacts.contact(named: "alice", store: couple.bob).receivePosition == 1)
    }

    private struct TypedTestFailure: Error {}
}
