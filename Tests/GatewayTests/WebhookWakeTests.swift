import Foundation
import Gateway
import Logging
import Operations
import Store
import Synchronization
import TestSupport
import Testing

/// An idle webhook worker sleeps on the store's commit signal rather than reading the journal on
/// a timer: a commit of this process wakes it, and the new event goes out.
@Suite(.timeLimit(.minutes(5)))
struct WebhookWakeTests {
    @Test func anIdleWorkerSleepsUntilACommitBringsItAnEvent() async throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let contact = try store.addContact(name: "alice", number: nil, pairingCode: Data())
        // Nothing listens on port 9: the delivery fails and is kept for a retry, which shows it was tried.
        let endpoint = WebhookEndpoint(
            url: URL(string: "http://127.0.0.1:9/hook")!, events: [.messageReceived],
            secrets: [try WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")])
        let dispatcher = WebhookDispatcher(endpoints: [endpoint], store: store, logger: Logger(label: "webhook-wake"))
        let running = Task { try await dispatcher.run() }
        #expect(await eventually { store.gateway.commits.waiting == 1 }, "the idle worker waits for a commit")
        try store.write { tx in
            try tx.appendLog(NewLogEntry(direction: .incoming, contact: contact, status: .decrypted, text: "hello"))
        }
        #expect(await eventually { try store.read { try WebhookOutcome.counts(in: $0) }[.retrying] == 1 })
        running.cancel()
        _ = try? await running.value
    }

    /// A dispatcher made on its own over a store leaves the store's write observer (a daemon's
    /// runner on the same store, which notes refusals and a move's) as it was.
    @Test func aDispatcherOnItsOwnLeavesTheStoresWriteObserver() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let observed = Mutex(0)
        store.observeWrites { _ in observed.withLock { $0 += 1 } }
        _ = WebhookDispatcher(endpoints: [], store: store, logger: Logger(label: "webhook-observer"))
        _ = try store.addContact(name: "alice", number: nil, pairingCode: Data())
        #expect(observed.withLock { $0 } == 1)
    }
}
