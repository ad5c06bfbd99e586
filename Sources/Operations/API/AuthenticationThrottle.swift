public import Foundation
import Synchronization

/// Failed authentications counted per client address: after ``limit`` failures within
/// ``window`` an address is refused, without looking at its token, until the window has passed
/// since its first failure. A success clears the address's count.
///
/// One per API listener, in memory: a restart forgets the counts, which costs an attacker a
/// daemon restart they cannot cause.
public final class AuthenticationThrottle: Sendable {
    /// Failures an address may have within ``window``.
    public let limit: Int
    /// Seconds over which failures are counted.
    public let window: TimeInterval
    /// Addresses tracked at most; the oldest are dropped first, so a flood of addresses cannot
    /// grow memory without bound.
    static let capacity = 10_000

    private struct Failures {
        var first: Date
        var count: Int
    }
    private let failures = Mutex<[String: Failures]>([:])

    public init(limit: Int = 10, window: TimeInterval = 60) {
        self.limit = limit
        self.window = window
    }

    /// Refuses an address that used up its failures.
    ///
    /// - Throws: ``APITokenError/throttled(until:)`` (locked).
    public func check(_ address: String, now: Date) throws(APITokenError) {
        let until: Date? = failures.withLock { table in
            guard let entry = table[address] else { return nil }
            let end = entry.first.addingTimeInterval(window)
            if end <= now {
                table[address] = nil
                return nil
            }
            return entry.count >= limit ? end : nil
        }
        if let until { throw .throttled(until: until) }
    }

    /// Counts one failure of the address.
    public func recordFailure(_ address: String, now: Date) {
        failures.withLock { table in
            if var entry = table[address], entry.first.addingTimeInterval(window) > now {
                entry.count += 1
                table[address] = entry
                return
            }
            if table.count >= Self.capacity, let oldest = table.min(by: { $0.value.first < $1.value.first })?.key {
                table[oldest] = nil
            }
            table[address] = Failures(first: now, count: 1)
        }
    }

    /// Forgets the address's failures after it authenticated.
    public func recordSuccess(_ address: String) {
        _ = failures.withLock { $0.removeValue(forKey: address) }
    }
}
