import Failures
import Foundation
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

/// Long texts through the application layer (docs/PROTOCOL.md §8): one log row and one outbox
/// row per part when sending, reassembly across separate decryptions when receiving.
struct LongTextOperationsTests {
    let text = String(repeating: "The field team reached the ridge; ", count: 13)  // 442 septets: 4 parts

    @Test(arguments: StoreBackendKind.allCases)
    func queueingALongTextSealsEveryPartInOneTransaction(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let plan = try Messages.plan(text)
        #expect(plan == TextPlan(septets: 442, messages: 4, remaining: 4 * 136 - 442))
        let queued = try Messages.queue(text, to: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(queued.parts == 4 && queued.position == 0)
        let rows = try couple.alice.read { try $0.outboxItems() }
        #expect(rows.count == 4 && Set(rows.map(\.messageID)) == [queued.logID])
        let logged = try couple.alice.read { try $0.logEntry(id: queued.logID) }
        #expect(logged.text == text && logged.status == .queued)
        #expect(logged.ciphertext?.split(separator: "\n").map(String.init) == rows.map(\.body))
        let json = try OperationsJSON.string(queued)
        #expect(json.contains("\"parts\":4"))
    }

    /// The log row shows the least advanced part: sent only once every part was sent.
    @Test(arguments: StoreBackendKind.allCases)
    func theMessageIsSentOnlyWhenEveryPartIsSent(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue(text, to: "bob", store: couple.alice, now: Date(), using: &rng)
        for reference in 0..<4 {
            try couple.alice.write { tx in
                let item = try #require(try tx.claimNextOutbox(modem: "m1"))
                try tx.markOutboxSent(item.id, reference: reference, modem: "m1")
            }
            let status = try couple.alice.read { try $0.logEntry(id: queued.logID) }.status
            #expect(status == (reference == 3 ? .sent : .queued))
        }
        try couple.alice.write { tx in
            let item = try #require(try tx.outboxItem(reference: 2, modem: "m1"))
            try tx.markOutboxFailed(item.id, error: "The network refused it.", permanent: true)
        }
        #expect(try couple.alice.read { try $0.logEntry(id: queued.logID) }.status == .failed)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func partsDecryptedSeparatelyMakeTheTextOnceItIsWhole(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let encrypted = try Messages.encrypt(text, for: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(encrypted.ciphertexts.count == 4)
        var results: [AppliedPart] = []
        for index in [2, 0, 3, 0, 1] {
            do {
                let applied = try Messages.decrypt(encrypted.ciphertexts[index], from: "alice", store: couple.bob, now: Date(), using: &rng)
                guard case .part(let part) = applied.content else { throw CipherError.notAuthentic }
                results.append(part)
            } catch CipherError.duplicate {
                continue
            }
        }
        #expect(results.map(\.received) == [1, 2, 3, 4])
        #expect(results.last?.text == text && results.dropLast().allSatisfy { $0.text == nil })
        let log = try couple.bob.read { try $0.log() }
        #expect(log.filter { $0.status == .part }.count == 4)
        #expect(log.filter { $0.status == .decrypted }.map(\.text) == [text])
    }

    @Test(arguments: StoreBackendKind.allCases)
    func anIncompleteTextIsShownWithGapsAfterTheTimeout(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let start = Date()
        let encrypted = try Messages.encrypt(text, for: "bob", store: couple.alice, now: start, using: &rng)
        _ = try Messages.decrypt(encrypted.ciphertexts[0], from: "alice", store: couple.bob, now: start, using: &rng)
        #expect(try LongTexts.releaseWaiting(store: couple.bob, now: start.addingTimeInterval(60)).isEmpty)
        let ids = try LongTexts.releaseWaiting(store: couple.bob, now: start.addingTimeInterval(LongTexts.defaultTimeout + 1))
        let row = try couple.bob.read { try $0.logEntry(id: try #require(ids.first)) }
        #expect(row.status == .partial && row.text?.hasSuffix("[part 2 of 4 missing][part 3 of 4 missing][part 4 of 4 missing]") == true)
        #expect(row.error?.contains("Parts 2, 3, 4 of 4 never arrived") == true)
        let late = try Messages.decrypt(encrypted.ciphertexts[3], from: "alice", store: couple.bob, now: start, using: &rng)
        guard case .part(let part) = late.content else { throw CipherError.notAuthentic }
        #expect(part.text != nil && part.note.contains("late part"))
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aPeerOnVersionOneGetsNoPartsAndATypedMessageRaisesIt(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        try couple.alice.write { tx in try tx.setProtocolVersion(1, for: try tx.contact(named: "bob")) }
        let error = #expect(throws: MessageError.self) {
            try Messages.queue(text, to: "bob", store: couple.alice, now: Date(), using: &rng)
        }
        #expect(error == .peerReadsOneMessage(contact: "bob", septets: 442) && error?.category == .conflict)
        #expect(try couple.alice.read { try $0.outboxItems() }.isEmpty)
        _ = try Messages.queue("short", to: "bob", store: couple.alice, now: Date(), using: &rng)
        try couple.alice.write { tx in try tx.setProtocolVersion(2, for: try tx.contact(named: "bob")) }

        try couple.bob.write { tx in try tx.setProtocolVersion(1, for: try tx.contact(named: "alice")) }
        let encrypted = try Messages.encrypt(text, for: "bob", store: couple.alice, now: Date(), using: &rng)
        _ = try Messages.decrypt(encrypted.ciphertexts[1], from: "alice", store: couple.bob, now: Date(), using: &rng)
        #expect(try Contacts.contact(named: "alice", store: couple.bob).protocolVersion == 2)
    }
}
