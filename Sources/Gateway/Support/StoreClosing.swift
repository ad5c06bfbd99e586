import Dispatch
import Foundation
public import Logging
public import Store
import Synchronization

/// The store's close at the daemon's exit, bounded: on SQLite it folds the `-wal` into the
/// database file, on PostgreSQL it closes the idle connections, and either can wait on something
/// that never answers (a PostgreSQL server that hangs, another process's lock). The daemon's
/// services have stopped by then; it waits the stop's grace at most (``StoreStop/graceSeconds``,
/// well under systemd's stop timeout) and then exits without it, logging that it abandoned the
/// store: a SQLite store's `-wal` then still holds its last writes, which the next open reads.
public enum StoreClosing: Sendable, Equatable {
    /// The store closed.
    case closed
    /// The close failed with this sentence.
    case failed(String)
    /// The close did not return within the grace; no one waits for it any more.
    case abandoned

    /// The grace of the close: the stop's (10 s).
    public static let graceSeconds = StoreStop.graceSeconds

    /// Closes `store`, waiting ``graceSeconds`` at most, and logs a close that failed or was abandoned.
    @discardableResult
    public static func close(_ store: UnlockedStore, logger: Logger) async -> StoreClosing {
        let outcome = await close(within: graceSeconds) { try store.close() }
        switch outcome {
        case .closed: break
        case .failed(let error):
            logger.warning(
                "Could not fold the write-ahead log into the database; copy smsgw.sqlite with its -wal file.",
                metadata: [GatewayLog.error: "\(error)"])
        case .abandoned:
            logger.error(
                "Abandoned the store: it did not close within the stop's \(Int(graceSeconds)) s grace, so the daemon exits without waiting for it (on SQLite, copy smsgw.sqlite with its -wal file)."
            )
        }
        return outcome
    }

    /// Runs `close` on a thread of its own and returns its outcome, or ``abandoned`` once
    /// `seconds` have passed without one; a close that never returns keeps only that thread.
    static func close(within seconds: Double, _ close: @escaping @Sendable () throws -> Void) async -> StoreClosing {
        let answer = Answer()
        return await withCheckedContinuation { continuation in
            answer.hold(continuation)
            // On a thread of its own, not on Swift's pool: a close that hangs keeps only that thread.
            let closing = Thread {
                do {
                    try close()
                    answer.give(.closed)
                } catch {
                    answer.give(.failed("\(error)"))
                }
            }
            closing.name = "smsgw.store-close"
            closing.start()
            GraceQueue.shared.asyncAfter(deadline: .now() + seconds) { answer.give(.abandoned) }
        }
    }

    /// The first of the close's outcome and the grace's end, given once.
    private final class Answer: Sendable {
        private let waiting = Mutex<CheckedContinuation<StoreClosing, Never>?>(nil)

        func hold(_ continuation: CheckedContinuation<StoreClosing, Never>) {
            waiting.withLock { $0 = continuation }
        }

        func give(_ outcome: StoreClosing) {
            let continuation = waiting.withLock { waiting in
                defer { waiting = nil }
                return waiting
            }
            continuation?.resume(returning: outcome)
        }
    }
}
