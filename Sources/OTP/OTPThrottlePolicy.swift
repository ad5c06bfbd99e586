/// How long to refuse attempts after consecutive failures (RFC 4226 §7.3).
///
/// RFC 4226 asks servers to slow down brute force on short codes either with a lock-out or with
/// a delay that grows with each failure. This policy is the delay scheme: the first
/// ``freeFailures`` failures cost nothing (people mistype), and each failure after that doubles
/// the wait, up to ``maximumDelay``:
///
/// | failures | 1 | 2 | 3 | 4 | 5 | ... | 13 | 14+ |
/// |----------|---|---|---|---|---|-----|----|-----|
/// | delay (s)| 0 | 0 | 2 | 4 | 8 | ... | 2048 | 3600 |
///
/// With a ±1 step window an attacker guessing 6-digit codes then needs, on average, months
/// rather than minutes. A success resets the count.
public struct OTPThrottlePolicy: Codable, Sendable, Hashable {
    /// Failures allowed with no delay.
    public var freeFailures: Int
    /// The longest delay in seconds.
    public var maximumDelay: Int64

    /// Creates a policy.
    /// - Parameters:
    ///   - freeFailures: Failures allowed with no delay; the delay after failure `n` beyond
    ///     these is `2^(n - freeFailures)` seconds.
    ///   - maximumDelay: The cap on the delay, in seconds.
    public init(freeFailures: Int = 2, maximumDelay: Int64 = 3600) {
        self.freeFailures = max(0, freeFailures)
        self.maximumDelay = max(0, maximumDelay)
    }

    /// The default: two free failures, then 2, 4, 8, ... seconds, capped at one hour.
    public static let standard = OTPThrottlePolicy()

    /// No throttling at all; for tests and for callers that throttle elsewhere.
    public static let disabled = OTPThrottlePolicy(freeFailures: .max, maximumDelay: 0)

    /// The delay imposed after a number of consecutive failures.
    /// - Parameter failures: Consecutive failures so far, including the one just made.
    /// - Returns: Seconds to refuse further attempts; 0 for none.
    public func delay(afterFailures failures: Int) -> Int64 {
        guard failures > freeFailures, maximumDelay > 0 else { return 0 }
        let exponent = failures - freeFailures
        // 2^62 is the largest power of two an Int64 holds; anything past it is past the cap.
        guard exponent < 62 else { return maximumDelay }
        return min(Int64(1) << Int64(exponent), maximumDelay)
    }
}
