import Foundation
import Operations
import Store
import TestSupport
import Testing

/// Sending a failed message again (``Messages/retry(_:by:address:store:now:)``): the same
/// ciphertexts queued again, never sealed again; the log row back to queued; audited.
@Suite("Retrying a failed message")
struct MessageRetryTests {
    @Test("A failed part is queued again with its stored ciphertext and the log reads queued", arguments: StoreBackendKind.allCases)
    func retryRequeuesTheSameCiphertext(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let now = Date()
        let queued = try Messages.queue("A short text.", to: "bob", store: couple.alice, now: now, using: &rng)
        let body = try couple.alice.write { tx in
            let item = try #require(try tx.claimNextOutbox(modem: "m1"))
            try tx.markOutboxFailed(item.id, error: "The network refused it.", permanent: true)
            return item.body
        }
        let before = try couple.alice.read { try $0.session(for: $0.contact(named: "bob")) }
        #expect(try Messages.retry(queued.logID, by: .operator("ops"), address: "192.0.2.1", store: couple.alice, now: now) == 1)
        #expect(try couple.alice.read { try $0.logEntry(id: queued.logID) }.status == .queued)
        try couple.alice.write { tx in
            let again = try #require(try tx.claimNextOutbox(modem: "m1"))
            #expect(again.body == body)
        }
        // No key step was spent.
        #expect(try couple.alice.read { try $0.session(for: $0.contact(named: "bob")) } == before)
        let audit = try Audit.list(limit: 1, in: couple.alice)
        #expect(audit.first?.action == "retry" && audit.first?.target == "message \(queued.logID)" && audit.first?.actorName == "ops")
    }

    @Test("A message with nothing failed, and an unknown message, are refused and change nothing", arguments: StoreBackendKind.allCases)
    func nothingToRetry(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("Still queued.", to: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(throws: MessageError.nothingToRetry(id: queued.logID)) {
            try Messages.retry(queued.logID, by: .commandLine, store: couple.alice, now: Date())
        }
        #expect(throws: StoreError.self) { try Messages.retry(9999, by: .commandLine, store: couple.alice, now: Date()) }
        #expect(try Audit.list(in: couple.alice).isEmpty)
    }
}
