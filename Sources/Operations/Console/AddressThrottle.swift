public import Foundation
import Synchronization

/// Failed logins counted per client address in memory: after `limit` failures within `window`
/// from one address, further attempts from it are refused until the window has passed, whatever
/// the name they try (the per-name lockout in the store is the other half).
///
/// In memory on purpose: a restart forgets it, which costs an attacker a restart they cannot
/// cause, and it never writes to the store for a flood of requests.
public final class AddressThrottle: Sendable {
    public let limit: Int
    public let window: TimeInterval
    private let entries = Mutex<[String: Entry]>([:])
    /// The most addresses remembered: the oldest are forgotten beyond it, so a flood of
    /// addresses cannot exhaust memory.
    private let capacity: Int

    private struct Entry {
        var failures: Int
        var since: Date
    }

    public init(limit: Int = 10, window: TimeInterval = 600, capacity: Int = 10_000) {
        self.limit = limit
        self.window = window
        self.capacity = capacity
    }

    /// When the address may try again, or nil when it may now.
    public func blockedUntil(_ address: String, now: Date) -> Date? {
        entries.withLock { entries in
            guard let entry = entries[address] else { return nil }
            let end = entry.since.addingTimeInterval(window)
            if end <= now {
                entries[address] = nil
                return nil
            }
            return entry.failures >= limit ? end : nil
        }
    }

    /// Counts a failure from `address`.
    public func fail(_ address: String, now: Date) {
        entries.withLock { entries in
            if var entry = entries[address], entry.since.addingTimeInterval(window) > now {
                entry.failures += 1
                entries[address] = entry
                return
            }
            if entries.count >= capacity, let oldest = entries.min(by: { $0.value.since < $1.value.since })?.key {
                entries[oldest] = nil
            }
            entries[address] = Entry(failures: 1, since: now)
        }
    }

    /// Forgets the address's failures (after a success).
    public func succeed(_ address: String) {
        entries.withLock { $0[address] = nil }
    }
}
