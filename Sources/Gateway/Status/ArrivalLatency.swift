public import Foundation
import Synchronization

/// How long each received SMS took from arrival (the daemon had it from the modem: the storage
/// listing returned, or the modem handed it over directly) to its log row committed, as a
/// histogram since the daemon started: `smsgw_arrival_log_seconds` on the metrics page.
///
/// Kept in memory, not in the store: the two moments exist only inside the daemon, and a restart
/// reads as a counter reset to Prometheus.
public final class ArrivalLatency: Sendable {
    /// The buckets' upper bounds, in seconds.
    public static let bounds: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Figures {
        var atMost = [Int](repeating: 0, count: ArrivalLatency.bounds.count)
        var count = 0
        var sum = 0.0
    }

    private let figures = Mutex(Figures())

    public init() {}

    /// Counts one SMS that took `duration` from arrival to its committed log row.
    func record(_ duration: Duration) {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        figures.withLock { figures in
            for (index, bound) in Self.bounds.enumerated() where seconds <= bound { figures.atMost[index] += 1 }
            figures.count += 1
            figures.sum += seconds
        }
    }

    /// For each bound how many took at most that long, with the count and the sum of all.
    public func snapshot() -> (atMost: [Int], count: Int, sum: Double) {
        figures.withLock { ($0.atMost, $0.count, $0.sum) }
    }
}
