public import Foundation
import Modem

/// The `[outbox]` table: when the sender gives up on an SMS that keeps failing temporarily.
///
/// A temporary refusal (a `+CMS ERROR` that may pass, such as network congestion or a modem
/// refusing the PDU) is retried with a growing delay; without a limit a modem that refuses every
/// SMS kept its row queued for ever. After ``maxAttempts`` such failures of one row, or once its
/// first one is older than ``maxAgeSeconds``, the row fails as after a permanent error (log,
/// `message.failed`, `status`), and `smsgw log retry` queues it again with the same ciphertext.
///
/// Only failures of the send itself count. Modem trouble (a hung or unplugged modem, a recovery,
/// a send that may have gone out) is not the number's fault: the row waits for the modem however
/// long that takes, and so a long outage followed by one refusal does not count as an old failure.
public struct OutboxSettings: Sendable, Equatable {
    /// `max_attempts`: temporary failures of one row before it fails; 0 never gives up by count.
    public var maxAttempts: Int
    /// `max_age_seconds`: how long after its first temporary failure a row that keeps failing
    /// fails; 0 never gives up by age.
    public var maxAgeSeconds: Double

    public init(maxAttempts: Int = 10, maxAgeSeconds: Double = 86_400) {
        self.maxAttempts = maxAttempts
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// Why the sender gives up on a row.
    public enum GiveUp: Sendable, Equatable {
        /// It failed temporarily this many times, the limit.
        case attempts(Int)
        /// It has been failing for longer than this many seconds, over so many attempts.
        case age(seconds: Double, attempts: Int)

        /// The row's last error: why it gave up, then the error of the last attempt.
        public func sentence(lastError: String) -> String {
            switch self {
            case .attempts(let count):
                "Gave up after \(count) attempts that failed temporarily; the last error: \(lastError)"
            case .age(let seconds, let count):
                "Gave up after failing temporarily for over \(OutboxSettings.duration(seconds)) (\(count) attempts); the last error: \(lastError)"
            }
        }
    }

    /// Whether a row gives up now, after a temporary failure of its own.
    ///
    /// - Parameters:
    ///   - failures: The row's temporary failures, this one included.
    ///   - failingSince: When the first of them happened.
    ///   - now: This failure's time.
    /// - Returns: Why it gives up, or nil to retry it.
    public func giveUp(failures: Int, failingSince: Date, now: Date) -> GiveUp? {
        if maxAttempts > 0, failures >= maxAttempts { return .attempts(failures) }
        if maxAgeSeconds > 0, now.timeIntervalSince(failingSince) >= maxAgeSeconds {
            return .age(seconds: maxAgeSeconds, attempts: failures)
        }
        return nil
    }

    /// Whether `error` is a failure of the send itself, which counts toward the limit: the
    /// network or the modem refused this SMS with a `+CMS ERROR` or `+CME ERROR` that may pass.
    /// Modem trouble (``ModemError/needsRecovery``, a send that may have gone out, a device that
    /// cannot be opened, a failure with no refusal) is not counted.
    static func counts(_ error: ModemError) -> Bool {
        guard error.isRetryable, !error.needsRecovery, !error.mayHaveBeenSent else { return false }
        return error.code == .sendRejected || error.cmsError != nil || error.cmeError != nil
    }

    /// `seconds` as a person reads a limit: `90 s`, `30 min`, `24 h`.
    static func duration(_ seconds: Double) -> String {
        func number(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        if seconds >= 3600 { return number(seconds / 3600) + " h" }
        if seconds >= 60 { return number(seconds / 60) + " min" }
        return number(seconds) + " s"
    }
}
