import Foundation
import Store
import TestSupport
import Testing

/// The store's commit signal: every waiter is woken by a commit of this process, a wait after a
/// commit it did not see returns at once, and a wait also ends at its deadline or cancellation.
@Suite(.timeLimit(.minutes(5)))
struct CommitSignalTests {
    @Test func aCommitWakesEveryWaiterAndAWaitAfterAMissedCommitReturnsAtOnce() async throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let commits = store.gateway.commits
        let seen = commits.count
        let far = ContinuousClock.now + .seconds(3600)
        let first = Task { await commits.wait(after: seen, until: far) }
        let second = Task { await commits.wait(after: seen, until: far) }
        #expect(await eventually { commits.waiting == 2 })
        _ = try store.addContact(name: "alice", number: nil, pairingCode: Data())
        await first.value
        await second.value
        #expect(commits.count == seen + 1 && commits.waiting == 0)
        // The count noted before that commit: the wait does not sleep (nor would it end otherwise).
        await commits.wait(after: seen, until: far)
        #expect(commits.waiting == 0)
    }

    @Test func aWaitEndsAtItsDeadlineOrWhenItsTaskIsCancelled() async throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let commits = store.gateway.commits
        await commits.wait(after: commits.count, until: .now + .milliseconds(50))
        #expect(commits.waiting == 0)
        let cancelled = Task { await commits.wait(after: commits.count, until: .now + .seconds(3600)) }
        #expect(await eventually { commits.waiting == 1 })
        cancelled.cancel()
        await cancelled.value
        #expect(commits.waiting == 0)
    }

    @Test func aFailedWriteRingsNothing() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let commits = store.gateway.commits
        let before = commits.count
        struct Refused: Error {}
        #expect(throws: Refused.self) { try store.write { _ in throw Refused() } }
        #expect(commits.count == before)
        try store.write { _ in }
        #expect(commits.count == before + 1)
    }
}
