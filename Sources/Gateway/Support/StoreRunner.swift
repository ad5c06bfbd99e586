import Dispatch
import Foundation
import Store

/// Runs store transactions on a dedicated dispatch queue, off Swift's cooperative pool.
///
/// A write can wait up to the store's busy timeout for another process (the CLI), and SQLite
/// blocks while it waits; the daemon's tasks must not block pool threads meanwhile.
///
/// Its ``writes`` observe every write of the store (``Store/UnlockedStore/observeWrites(_:)``):
/// those of the daemon's services, which pass here, and those of its front ends (the HTTP API,
/// the console), which call the application layer on the same store; the status says while the
/// store refuses them.
struct StoreRunner: Sendable {
    let store: UnlockedStore
    /// Whether the store takes the writes, shared by every copy of this runner.
    let writes: StoreWrites
    private let queue = DispatchQueue(label: "smsgw.gateway.store")

    init(store: UnlockedStore, writes: StoreWrites = StoreWrites()) {
        self.store = store
        self.writes = writes
        store.observeWrites { error in writes.noteWrite(failedWith: error, now: Date()) }
    }

    /// One write transaction; see ``UnlockedStore/write(_:_:)``.
    func write<T: Sendable>(
        _ scope: WriteScope = .database, _ body: @escaping @Sendable (StoreTransaction) throws -> T
    ) async throws -> T {
        let store = self.store
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try store.write(scope, body) }) }
        }
    }

    /// One read snapshot; see ``UnlockedStore/read(_:)``.
    func read<T: Sendable>(_ body: @escaping @Sendable (StoreReader) throws -> T) async throws -> T {
        let store = self.store
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try store.read(body) }) }
        }
    }
}
