import Foundation
import Gateway
import Logging
import Operations
import Store
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
}
