public import Foundation
public import Store

/// What a daemon does by the clock rather than because an SMS came: long texts whose missing
/// parts waited too long are logged with their gaps marked (``LongTexts``), acknowledgements that
/// waited their delay are queued, and SMS whose acknowledgement is overdue are sent again or given
/// up (``Acknowledgements``), and received vault copies whose expiry has come are deleted and
/// reported to their owner (``VaultSharing/expire(in:now:)``). One call does what is due and says when the next thing falls due, so
/// the daemon sleeps until then instead of looking every few seconds.
public enum DueWork {
    /// The timing the work follows, in seconds (the daemon's `[intervals]`).
    public struct Timing: Sendable, Equatable {
        /// How long a long text waits for its missing parts.
        public var longTextTimeout: TimeInterval
        /// How long a decrypted message waits for others to share its acknowledgement.
        public var acknowledgementDelay: TimeInterval
        /// How long a part waits for its acknowledgement before it is sent again (doubling after).
        public var acknowledgementTimeout: TimeInterval

        public init(longTextTimeout: TimeInterval, acknowledgementDelay: TimeInterval, acknowledgementTimeout: TimeInterval) {
            self.longTextTimeout = longTextTimeout
            self.acknowledgementDelay = acknowledgementDelay
            self.acknowledgementTimeout = acknowledgementTimeout
        }
    }

    /// What one call did, and when to call again.
    public struct Outcome: Sendable, Equatable {
        /// Log ids of long texts shown with gaps.
        public var released: [Int64] = []
        /// Acknowledgements queued.
        public var queued = 0
        /// SMS queued again for want of an acknowledgement.
        public var resent = 0
        /// SMS given up after their last send went unacknowledged.
        public var givenUp = 0
        /// Received vault copies deleted at their expiry (each reported to its owner by SMS).
        public var expired = 0
        /// When the next piece of work falls due; nil when nothing waits. It can be in the past
        /// when something waits that cannot be done yet (an acknowledgement for a contact without
        /// a number): the caller then looks again later, not at once.
        public var nextDue: Date?

        /// Whether outbox rows were queued (the sender should be woken).
        public var queuedOutbox: Bool { queued > 0 || resent > 0 || expired > 0 }
    }

    /// Does what is due at `now`, in the caller's transaction, and finds the next due time.
    public static func run(
        in tx: StoreTransaction, timing: Timing, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> Outcome {
        var outcome = Outcome()
        outcome.released = try LongTexts.releaseWaiting(in: tx, timeout: timing.longTextTimeout, now: now)
        outcome.queued = try Acknowledgements.sendDue(in: tx, delay: timing.acknowledgementDelay, now: now, using: &rng).count
        let (resent, givenUp) = try Acknowledgements.resendDue(in: tx, timeout: timing.acknowledgementTimeout, now: now)
        outcome.resent = resent.count
        outcome.givenUp = givenUp.count
        outcome.expired = try VaultSharing.expire(in: tx, now: now).count
        let candidates = [
            try LongTexts.nextRelease(in: tx, timeout: timing.longTextTimeout),
            try tx.oldestPendingAcknowledgement()?.addingTimeInterval(timing.acknowledgementDelay),
            try tx.nextAcknowledgementTimeout(timeout: timing.acknowledgementTimeout),
            try VaultSharing.nextExpiry(in: tx),
        ]
        outcome.nextDue = candidates.compactMap { $0 }.min()
        return outcome
    }
}
