import Dispatch
import Foundation
import Operations
import Store
import Synchronization

/// Group commit for `POST /v1/messages`: sends that arrive while a transaction is writing wait
/// for it, then go together in the next one (``Operations/Messages/submit(_:queueLimit:store:now:using:)``,
/// each in its own savepoint).
///
/// Each commit syncs SQLite's write-ahead log to disk (`synchronous = FULL`, so a spent pad is
/// on disk before its ciphertext can leave), about 1 to 2 ms on the machine of
/// docs/PERFORMANCE.md; one commit per send capped the API near 500 sends a second whatever else
/// it did. A lone send is written at once; nothing waits for company.
final class SubmissionQueue: Sendable {
    typealias Outcome = Result<Messages.Submission, any Error>

    private struct Waiting {
        var request: Messages.SubmissionRequest
        var continuation: CheckedContinuation<Messages.Submission, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        /// Whether a writer is draining ``waiting``; at most one is.
        var writing = false
    }

    /// The most sends one transaction takes, so one commit's answers do not wait on a long batch.
    static let batchLimit = 64

    private let state = Mutex(State())
    private let store: UnlockedStore
    private let queueLimit: Int?
    private let writer: DispatchQueue
    /// Called once after each transaction that queued at least one message.
    private let queued: @Sendable () -> Void

    init(store: UnlockedStore, queueLimit: Int?, writer: DispatchQueue, queued: @escaping @Sendable () -> Void) {
        self.store = store
        self.queueLimit = queueLimit
        self.writer = writer
        self.queued = queued
    }

    /// Queues the send with the others waiting and returns once its transaction committed.
    ///
    /// - Throws: What the single submit throws for this send.
    func submit(_ request: Messages.SubmissionRequest) async throws -> Messages.Submission {
        try await withCheckedThrowingContinuation { continuation in
            let start = state.withLock { state in
                state.waiting.append(Waiting(request: request, continuation: continuation))
                defer { state.writing = true }
                return !state.writing
            }
            if start { writer.async { self.drain() } }
        }
    }

    /// Writes batches until nobody waits; runs on the writer queue, off Swift's cooperative pool.
    private func drain() {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                let taken = Array(state.waiting.prefix(Self.batchLimit))
                state.waiting.removeFirst(taken.count)
                if taken.isEmpty { state.writing = false }
                return taken
            }
            if batch.isEmpty { return }
            var rng = SystemRandomNumberGenerator()
            let outcomes: [Outcome]
            do {
                outcomes = try Messages.submit(batch.map(\.request), queueLimit: queueLimit, store: store, now: Date(), using: &rng)
            } catch {
                outcomes = Array(repeating: .failure(error), count: batch.count)
            }
            if outcomes.contains(where: { (try? $0.get())?.replayed == false }) { queued() }
            for (waiting, outcome) in zip(batch, outcomes) { waiting.continuation.resume(with: outcome) }
        }
    }
}
