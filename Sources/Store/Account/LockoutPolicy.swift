public import Foundation

/// How long the account stays locked after consecutive wrong passphrases.
///
/// The first `threshold - 1` failures only count; the `threshold`-th locks for `baseDelay`,
/// and each further failure doubles the delay, capped at `maximumDelay`.
/// The standard policy: 3 failures → 1 minute, 4 → 2, 5 → 4, … up to 24 hours.
public struct LockoutPolicy: Sendable, Hashable {
    public var threshold: Int
    public var baseDelay: TimeInterval
    public var maximumDelay: TimeInterval

    public init(threshold: Int, baseDelay: TimeInterval, maximumDelay: TimeInterval) {
        self.threshold = threshold
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    public static let standard = LockoutPolicy(threshold: 3, baseDelay: 60, maximumDelay: 24 * 3600)

    /// The lock duration after `failures` consecutive failures, or nil while below the threshold.
    public func lockDuration(afterFailures failures: Int) -> TimeInterval? {
        guard failures >= threshold else { return nil }
        let doublings = min(failures - threshold, 32)
        return min(baseDelay * pow(2, Double(doublings)), maximumDelay)
    }

    /// Attempts left before the account locks, given `failures` so far.
    public func remainingAttempts(afterFailures failures: Int) -> Int {
        max(0, threshold - failures)
    }
}
