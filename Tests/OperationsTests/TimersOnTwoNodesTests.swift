import Dispatch
import Foundation
import Operations
import Store
import Synchronization
import TestSupport
import Testing

/// The clock-driven work run by two nodes of one PostgreSQL store at the same moment: each round
/// is one write over the whole store that records what it queued, so the second round finds the
/// work done and nothing is queued twice.
@Suite("Timers on two nodes of one store")
struct TimersOnTwoNodesTests {
    let timing = DueWork.Timing(longTextTimeout: 600, acknowledgementDelay: 30, acknowledgementTimeout: 120)

    /// Runs `DueWork` on each store at `time` from its own thread, all at once; the outcomes.
    func runAtOnce(_ stores: [UnlockedStore], at time: Date) -> [Result<DueWork.Outcome, any Error>] {
        let results = Mutex([Int: Result<DueWork.Outcome, any Error>]())
        DispatchQueue.concurrentPerform(iterations: stores.count) { index in
            let outcome = Result {
                try stores[index].write { [timing] tx in
                    var rng = SystemRandomNumberGenerator()
                    return try DueWork.run(in: tx, timing: timing, now: time, using: &rng)
                }
            }
            results.withLock { $0[index] = outcome }
        }
        return results.withLock { all in all.keys.sorted().compactMap { all[$0] } }
    }

    @Test("Two nodes queue a due acknowledgement once, and send an unacknowledged part again once")
    func acknowledgementsAndResendsOnce() throws {
        let tests = AcknowledgementOperationsTests()
        let (couple, _, rows) = try tests.sentLongText(on: .postgresql)
        var rng = SystemRandomNumberGenerator()
        for row in rows { _ = try Messages.decrypt(row.body, from: "alice", store: couple.bob, now: tests.start, using: &rng) }
        let bobNodes = [couple.bob, try couple.bobLocation.open().unlock(passphrase: TestStore.passphrase)]
        let aliceNodes = [couple.alice, try couple.aliceLocation.open().unlock(passphrase: TestStore.passphrase)]

        // Bob's two nodes, past the acknowledgement delay: one acknowledgement in all.
        let acks = runAtOnce(bobNodes, at: tests.start.addingTimeInterval(31))
        #expect(try acks.map { try $0.get().queued }.sorted() == [0, 1])
        #expect(try couple.bob.read { try $0.outboxItems() }.filter { $0.kind == .acknowledgement }.count == 1)

        // Alice's two nodes, past the acknowledgement timeout with none applied: each part once more.
        let resends = runAtOnce(aliceNodes, at: tests.start.addingTimeInterval(121))
        #expect(try resends.map { try $0.get().resent }.reduce(0, +) == rows.count)
        #expect(try couple.alice.read { try $0.outboxItems() }.map(\.resends) == [1, 1, 1])
    }
}
