import Dispatch
import Foundation
import Store
import Synchronization

/// Runs store transactions on a dedicated dispatch queue, off Swift's cooperative pool.
///
/// A write can wait up to the store's busy timeout for another process (the CLI), and SQLite
/// blocks while it waits; the daemon's tasks must not block pool threads meanwhile.
///
/// Its ``writes`` observe every write of the store (``Store/UnlockedStore/observeWrites(_:)``):
/// those of the daemon's services, which pass here, and those of its front ends (the HTTP API,
/// the console), which call the application layer on the same store; the status says while the
/// store refuses them. A write of either refused because a copy moved the store tells ``moved``.
struct StoreRunner: Sendable {
    let store: UnlockedStore
    /// Whether the store takes the writes, shared by every copy of this runner.
    let writes: StoreWrites
    /// How long a stop waits for a call that does not answer, shared by every copy.
    let stop: StoreStop
    /// Told when a write is refused because a copy moved the store, shared by every copy.
    let moved = StoreMovedHandler()
    private let queue = DispatchQueue(label: "smsgw.gateway.store")

    /// A runner over `store`; it observes the store's writes (replacing the observer before)
    /// unless told not to (`observing`), as for a service run alone on a store another runner
    /// may observe.
    init(store: UnlockedStore, writes: StoreWrites = StoreWrites(), stop: StoreStop = StoreStop(), observing: Bool = true) {
        self.store = store
        self.writes = writes
        self.stop = stop
        guard observing else { return }
        let moved = self.moved
        store.observeWrites { error in
            writes.noteWrite(failedWith: error, now: Date())
            // A step of a key state that found the record of a move (a store moved since the
            // daemon opened it) is refused so, whoever asked for it; the record says it was that.
            if let error = error as? StoreError, error.category == .configuration, let refusal = try? store.gateway.movedRefusal() {
                moved.tell(refusal)
            }
        }
    }

    /// One write transaction; see ``UnlockedStore/write(_:_:)``.
    /// - Throws: What the store throws; ``GatewayError/storeStopped(graceSeconds:)`` when the
    ///   daemon's stop gave up on it (``StoreStop``).
    func write<T: Sendable>(
        _ scope: WriteScope = .database, _ body: @escaping @Sendable (StoreTransaction) throws -> T
    ) async throws -> T {
        let store = self.store
        return try await run { try store.write(scope, body) }
    }

    /// One read snapshot; see ``UnlockedStore/read(_:)``.
    func read<T: Sendable>(_ body: @escaping @Sendable (StoreReader) throws -> T) async throws -> T {
        let store = self.store
        return try await run { try store.read(body) }
    }

    /// Why the store is refused now, when a copy moved it since the daemon opened it; see
    /// ``Store/GatewayStore/movedRefusal()``.
    func movedRefusal() async throws -> StoreError? {
        let store = self.store
        return try await run { try store.gateway.movedRefusal() }
    }

    /// Runs `call` on the queue; a stop whose grace is over resumes the caller without it.
    private func run<T: Sendable>(_ call: @escaping @Sendable () throws -> T) async throws -> T {
        let stop = self.stop
        return try await withCheckedThrowingContinuation { continuation in
            let once = ResumeOnce(continuation)
            guard let ticket = stop.waiting({ once.resume(with: .failure(stop.error)) }) else {
                once.resume(with: .failure(stop.error))
                return
            }
            queue.async {
                let result = Result { try call() }
                stop.finished(ticket)
                once.resume(with: result)
            }
        }
    }
}

/// A continuation resumed by whichever comes first: the call's result or the stop giving up.
private final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) {
        self.continuation = Mutex(continuation)
    }

    func resume(with result: Result<T, any Error>) {
        let taken = continuation.withLock { value in
            defer { value = nil }
            return value
        }
        taken?.resume(with: result)
    }
}

/// Who is told that a write of the daemon (its services' or its front ends': a seal for the HTTP
/// API or the console) was refused because a copy moved its store: the daemon's node then stops
/// at once, as at the heartbeat that finds the record.
final class StoreMovedHandler: Sendable {
    private let handler = Mutex<(@Sendable (StoreError) -> Void)?>(nil)

    /// Tells `handler` from now on (replacing the one before).
    func set(_ handler: @escaping @Sendable (StoreError) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    func tell(_ refusal: StoreError) {
        handler.withLock { $0 }?(refusal)
    }
}
