import Foundation
import Logging

/// When the inbox receiver reads a modem again after a scan that left SMS on it: a status report
/// for an SMS still being recorded as sent, or an SMS the store refused (a full disk, a server
/// lost).
///
/// Reading again at once loops as fast as the modem answers while the cause lasts (a full disk
/// kept a daemon at full CPU, logging the same failure a hundred times a second), so the next
/// read waits 1 s, then 2, 4 … up to `health_seconds`, and a clean scan starts over. What the
/// receiver waits for rings it earlier (``GatewayContext/storeWrote()``: the outbox sender
/// recorded a row, a heartbeat was written), and so does a new SMS.
struct InboxRetry {
    /// The longest pause: the health interval.
    let ceiling: Duration
    /// The pause after the next scan that leaves something behind.
    private(set) var step: Duration
    /// When to read again by itself; nil when the last scan left nothing.
    private(set) var due: ContinuousClock.Instant?
    /// Whether the store refused an SMS in this episode (said once when it takes them again).
    private(set) var failing = false

    init(healthSeconds: Double) {
        self.init(ceiling: .milliseconds(Int64(healthSeconds * 1000)))
    }

    static let first = Duration.seconds(1)

    /// Takes a scan's leftovers into account and logs what the operator needs to know: one line
    /// per pause while the store refuses SMS, one when it takes them again.
    mutating func note(_ left: InboxLeftovers, logger: Logger) {
        if failing, left.failed == 0 {
            logger.notice("Received SMS are recorded again; the store accepts writes.")
            self = InboxRetry(ceiling: ceiling)
        }
        guard left.deferred > 0 || left.failed > 0 else {
            self = InboxRetry(ceiling: ceiling)
            return
        }
        if left.failed > 0 {
            failing = true
            logger.error(
                "Could not record received SMS; they stay on the modem and are tried again.",
                metadata: [
                    GatewayLog.count: "\(left.failed)", GatewayLog.error: "\(left.error ?? "")",
                    GatewayLog.retryIn: "\(Self.seconds(step))",
                ])
        }
        due = .now + step
        step = min(step * 2, ceiling)
    }

    private init(ceiling: Duration) {
        self.ceiling = ceiling
        step = min(Self.first, ceiling)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// What one scan left on the modem to be read again.
struct InboxLeftovers: Sendable {
    /// Counts an SMS the store refused with `error`; the status keeps the database's own words,
    /// as for the daemon's other writes (``StoreWrites/refusal(_:)``).
    mutating func refused(_ error: any Error) {
        failed += 1
        self.error = "\(error)"
        guard let words = StoreWrites.refusal(error) else {
            faults += 1
            faultError = "\(error)"
            return
        }
        storageRefusals += 1
        storageError = words
    }

    /// Status reports for an SMS still being recorded as sent.
    var deferred = 0
    /// SMS the store refused.
    var failed = 0
    /// The store's last refusal.
    var error: String?
    /// Of ``failed``, those the storage itself refused (full, read-only, failing, unreachable:
    /// ``Store/StoreError/isStorageFailure``), as the status counts them, and the last one's error.
    var storageRefusals = 0
    var storageError: String?
    /// Of ``failed``, those refused for another reason (a fault of smsgw), and the last one's error.
    var faults = 0
    var faultError: String?
    /// Whether the scan read the modem's storage (so it tried every entry on it).
    var listed = false
    /// Entries that cannot be read whose log row the store refused.
    var refusedUnreadable = 0
    /// Concatenated SMS (complete, or logged as partial) the store refused.
    var refusedConcatenated = 0
}
