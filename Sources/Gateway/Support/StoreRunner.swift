import Dispatch
import Store

/// Runs store transactions on a dedicated dispatch queue, off Swift's cooperative pool.
///
/// A write can wait up to the store's busy timeout for another process (the CLI), and SQLite
/// blocks while it waits; the daemon's tasks must not block pool threads meanwhile.
struct StoreRunner: Sendable {
    let store: UnlockedStore
    private let queue = DispatchQueue(label: "smsgw.gateway.store")

    init(store: UnlockedStore) {
        self.store = store
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
