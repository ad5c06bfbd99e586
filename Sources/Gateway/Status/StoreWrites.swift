import Foundation
import Operations
import Synchronization

/// Whether the store takes the inbox receiver's writes, as the running daemon's status says it
/// (``Operations/GatewayStatus/storeRefusal``): each modem's receiver reports what its last read
/// left on the modem because the store refused it.
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

    init() {}

    /// Notes one read of `modem`: `failed` SMS the store refused (0: it recorded everything it was
    /// given), the last with `error`.
    func noteRead(of modem: String, failed: Int, error: String?, now: Date) {
        refusals.withLock { refusals in
            guard failed > 0 else {
                refusals[modem] = nil
                return
            }
            let since = refusals[modem]?.since ?? now
            refusals[modem] = Refusal(since: since, waiting: failed, error: error)
        }
    }

    /// The refusal since the earliest one that lasts (with its error) and every modem's waiting
    /// SMS; nil while the store takes writes.
    var refusal: GatewayStatus.StoreRefusal? {
        refusals.withLock { refusals in
            guard let first = refusals.values.min(by: { $0.since < $1.since }) else { return nil }
            return GatewayStatus.StoreRefusal(
                since: first.since, waiting: refusals.values.reduce(0) { $0 + $1.waiting }, error: first.error)
        }
    }
}
