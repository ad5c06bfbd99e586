public import Foundation

/// When a failed webhook delivery is tried again: exponential backoff with jitter, the first
/// retry within a minute, until ``giveUpAfter`` from the first attempt, then the delivery fails.
///
/// Retry n (1 for the first) waits a random time in [d/2, d] with d = base·3^(n−1), at most
/// ``maximumSeconds``: with the defaults 5-10 s, 15-30 s, 45-90 s, … up to 1-2 hours. The jitter
/// keeps the retries of many endpoints from arriving together after an outage.
public struct RetrySchedule: Sendable, Hashable {
    /// The longest first wait, in seconds (`retry_base_seconds`).
    public var baseSeconds: Double
    /// The longest wait between two attempts, in seconds.
    public var maximumSeconds: Double
    /// How long after the first attempt a delivery keeps being retried (24 hours).
    public var giveUpAfter: TimeInterval

    public init(baseSeconds: Double = 10, maximumSeconds: Double = 7200, giveUpAfter: TimeInterval = 86_400) {
        self.baseSeconds = baseSeconds
        self.maximumSeconds = maximumSeconds
        self.giveUpAfter = giveUpAfter
    }

    /// The longest wait before retry `retry` (1 for the first), without jitter.
    public func ceiling(beforeRetry retry: Int) -> Double {
        let exponent = Double(min(max(retry - 1, 0), 40))
        return min(baseSeconds * pow(3, exponent), maximumSeconds)
    }

    /// The wait before retry `retry` (1 for the first): random in [ceiling/2, ceiling].
    public func delay(beforeRetry retry: Int, using rng: inout some RandomNumberGenerator) -> Double {
        let ceiling = ceiling(beforeRetry: retry)
        return ceiling / 2 + Double.random(in: 0...1, using: &rng) * ceiling / 2
    }
}
