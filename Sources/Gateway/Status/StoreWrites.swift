import Foundation
import Operations
import Store
import Synchronization

/// Whether the store takes the daemon's writes, as the running daemon's status says it
/// (``Operations/GatewayStatus/storeRefusal``): the daemon's ``StoreRunner`` observes every
/// write of its store, its services' and its front ends' (an API send, a console session), and
/// notes here each one the store refused (a full disk, a read-only file system, an I/O error, a
/// lost database server) and each one it took; each modem's receiver also reports what its last
/// read left on the modem because the store refused it.
///
/// Kept in memory: a store that refuses writes cannot record that it does.
final class StoreWrites: Sendable {
    private struct Refusal {
        var since: Date
        var waiting: Int
        var error: String?
    }

    /// By modem name, those whose last read the store refused.
    private let refusals = Mutex([String: Refusal]())
    /// By modem name, those whose last read left SMS the store refused for another reason.
    private let faults = Mutex([String: Refusal]())
    /// The refusal of the daemon's writes since the last one the store took; nil while it takes them.
    private let writes = Mutex<Refusal?>(nil)

    init() {}

    /// Notes what one read of `modem` left on it (``InboxLeftovers``): SMS the storage refused
    /// and SMS refused for another reason (a broken rule: a fault of smsgw), each with its last
    /// error; a count of 0 ends that kind for the modem.
    func noteRead(of modem: String, _ left: InboxLeftovers, now: Date) {
        Self.note(left.storageRefusals, error: left.storageError, of: modem, in: refusals, now: now)
        Self.note(left.faults, error: left.faultError, of: modem, in: faults, now: now)
    }

    /// Records `count` SMS waiting on `modem` in `map`, keeping when the episode began.
    private static func note(_ count: Int, error: String?, of modem: String, in map: borrowing Mutex<[String: Refusal]>, now: Date) {
        map.withLock { all in
            guard count > 0 else {
                all[modem] = nil
                return
            }
            all[modem] = Refusal(since: all[modem]?.since ?? now, waiting: count, error: error)
        }
    }

    /// Received SMS the store refused for another reason than its storage, on every modem.
    var inboxFault: GatewayStatus.InboxFault? {
        let all = faults.withLock { Array($0.values) }
        guard let first = all.min(by: { $0.since < $1.since }) else { return nil }
        return GatewayStatus.InboxFault(
            since: first.since, waiting: all.reduce(0) { $0 + $1.waiting }, error: first.error ?? "no reason given")
    }

    /// Notes one write transaction's outcome: nil when the store took it, else its error. Only
    /// the storage's own failures count (not a busy store, a statement that broke a rule, nor an
    /// operation that refused its input): the first starts a refusal, the next write the store
    /// takes ends it.
    func noteWrite(failedWith error: (any Error)?, now: Date) {
        guard let error else {
            writes.withLock { $0 = nil }
            return
        }
        guard let sentence = Self.refusal(error) else { return }
        writes.withLock { refusal in
            refusal = Refusal(since: refusal?.since ?? now, waiting: 0, error: sentence)
        }
    }

    /// The store's words when `error` is the storage refusing a write (full, read-only,
    /// failing, damaged, unreachable: ``StoreError/isStorageFailure``), else nil: neither a busy
    /// store nor a statement that broke a rule (a fault of smsgw, logged and reported as such).
    static func refusal(_ error: any Error) -> String? {
        guard let error = error as? StoreError, error.isStorageFailure else { return nil }
        return error.databaseFailure ?? "\(error)"
    }

    /// The refusal since the earliest one that lasts (with the latest error) and every modem's
    /// waiting SMS; nil while the store takes writes.
    var refusal: GatewayStatus.StoreRefusal? {
        let reads = refusals.withLock { Array($0.values) }
        let all = reads + (writes.withLock { $0 }.map { [$0] } ?? [])
        guard let first = all.min(by: { $0.since < $1.since }) else { return nil }
        return GatewayStatus.StoreRefusal(since: first.since, waiting: reads.reduce(0) { $0 + $1.waiting }, error: first.error)
    }
}
