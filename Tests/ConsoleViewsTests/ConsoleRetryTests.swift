import Console
import Foundation
import Operations
import Store
import Testing

/// The status page's retry of a failed message: beside it, a sentence when retrying unchanged
/// cannot help (``Operations/RetryOutlook``), and no retry at all where one is refused.
@Suite("Console retry of a failed message")
struct ConsoleRetryTests {
    /// Queues a text to bob and fails its SMS as the sender records it: `counted` for the
    /// failure that made it give up after repeated temporary ones.
    static func failed(_ text: String, counted: Bool, in store: UnlockedStore) throws -> Int64 {
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue(text, to: "bob", store: store, now: Date(), using: &rng)
        try store.write { tx in
            let item = try #require(try tx.claimNextOutbox(modem: "m1"))
            let error = counted ? "Gave up after 3 attempts that failed temporarily." : "The SMS was refused. Check the destination number."
            try tx.markOutboxFailed(item.id, error: error, permanent: true, counted: counted)
        }
        return queued.logID
    }

    /// The status page's row of the failed message `id`, as `cookie`'s session sees it.
    static func row(of id: Int64, _ rig: ConsoleControllerTests.Rig, cookie: String) throws -> String {
        let page = rig.controller.respond(
            to: ConsoleRequest(method: "GET", path: "/status", cookies: [ConsoleController.sessionCookie: cookie]))
        #expect(page.status == 200)
        let start = try #require(page.body.range(of: "<a href=\"/log/\(id)\">"))
        let end = try #require(page.body[start.upperBound...].range(of: "</tr>"))
        return String(page.body[start.lowerBound..<end.lowerBound])
    }

    static let permanent = "Retrying unchanged will not help: the failure was permanent, so retry only once its cause is fixed."

    @Test("A permanent failure says a retry will not help; one given up after temporary failures does not; restored keys hide the retry")
    func retryOutlooks() throws {
        let rig = try ConsoleControllerTests.Rig()
        let refused = try Self.failed("To a number the network refuses.", counted: false, in: rig.store)
        let givenUp = try Self.failed("Through a congested network.", counted: true, in: rig.store)
        let session = try rig.signIn("ops")

        let permanentRow = try Self.row(of: refused, rig, cookie: session.cookie)
        #expect(permanentRow.contains("action=\"/outbox/\(refused)/retry\"") && permanentRow.contains(Self.permanent))
        let temporaryRow = try Self.row(of: givenUp, rig, cookie: session.cookie)
        #expect(temporaryRow.contains("action=\"/outbox/\(givenUp)/retry\"") && !temporaryRow.contains("will not help"))

        // Keys restored from a backup: no retry, and the sentence the refusal itself gives.
        _ = try rig.store.write { tx in try tx.markKeysRestored(now: Date()) }
        let sentence = MessageError.keysRestored(id: givenUp, contact: "bob").description
        let restoredRow = try Self.row(of: givenUp, rig, cookie: session.cookie)
        #expect(!restoredRow.contains("/retry\"") && restoredRow.contains(sentence))
        let refusal = rig.post("/outbox/\(givenUp)/retry", session)
        #expect(refusal.status == 409 && refusal.body.contains(sentence))
    }
}
