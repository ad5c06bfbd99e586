/// Everything a verifier remembers about one enrolled generator between attempts.
///
/// It is a small `Codable` value so the caller can persist it in the same transaction that
/// reads it: load the state, call ``OTPVerifier/verify(_:state:now:)``, store the returned
/// state, commit. Storing the state before acting on an accepted code is what makes replay
/// rejection and throttling hold across processes and sessions.
///
/// One type serves both modes: TOTP uses ``lastAcceptedStep``; HOTP uses ``counter`` and
/// ``lastAcceptedStep``. Both use the throttling fields.
public struct OTPVerificationState: Codable, Sendable, Hashable {
    /// HOTP only: the next counter value the verifier expects (RFC 4226's server counter C).
    /// Codes for counters below it have been used or skipped. TOTP ignores it.
    public var counter: UInt64
    /// The highest time step (TOTP) or counter (HOTP) ever accepted; a code for it or anything
    /// below it is a replay. `nil` until the first success.
    public var lastAcceptedStep: UInt64?
    /// Failed attempts since the last success (RFC 4226 §7.3).
    public var consecutiveFailures: Int
    /// Unix time before which attempts are refused without looking at the code, or `nil` if
    /// attempts are allowed now.
    public var refusedUntil: Int64?

    /// Creates a state.
    /// - Parameters:
    ///   - counter: HOTP: the counter of the next code expected, as given in the enrolment URI.
    ///   - lastAcceptedStep: The replay boundary, if any code was accepted before.
    ///   - consecutiveFailures: Failures since the last success.
    ///   - refusedUntil: Unix time until which attempts are refused.
    public init(
        counter: UInt64 = 0,
        lastAcceptedStep: UInt64? = nil,
        consecutiveFailures: Int = 0,
        refusedUntil: Int64? = nil
    ) {
        self.counter = counter
        self.lastAcceptedStep = lastAcceptedStep
        self.consecutiveFailures = consecutiveFailures
        self.refusedUntil = refusedUntil
    }

    /// The state of a freshly enrolled TOTP generator.
    public static let newTOTP = OTPVerificationState()

    /// The state of a freshly enrolled HOTP generator.
    /// - Parameter counter: The counter of the first code the user will enter.
    /// - Returns: A state expecting that counter.
    public static func newHOTP(counter: UInt64) -> OTPVerificationState {
        OTPVerificationState(counter: counter)
    }

    /// Whether an attempt at `now` would be refused by throttling.
    /// - Parameter now: Unix time of the attempt.
    /// - Returns: `true` while `now` is before ``refusedUntil``.
    public func isThrottled(at now: Int64) -> Bool {
        guard let refusedUntil else { return false }
        return now < refusedUntil
    }

    /// Whether a step or counter is at or below the replay boundary.
    func isSpent(_ step: UInt64) -> Bool {
        guard let lastAcceptedStep else { return false }
        return step <= lastAcceptedStep
    }

    /// The state after a successful verification: failures forgotten, the boundary moved.
    func accepting(step: UInt64) -> OTPVerificationState {
        var next = self
        next.lastAcceptedStep = max(step, lastAcceptedStep ?? 0)
        next.consecutiveFailures = 0
        next.refusedUntil = nil
        return next
    }

    /// The state after a failed attempt at `now` under a throttling policy.
    func failing(at now: Int64, policy: OTPThrottlePolicy) -> OTPVerificationState {
        var next = self
        let (failures, overflow) = consecutiveFailures.addingReportingOverflow(1)
        next.consecutiveFailures = overflow ? .max : failures
        let delay = policy.delay(afterFailures: next.consecutiveFailures)
        if delay > 0 {
            let (until, overflow) = now.addingReportingOverflow(delay)
            next.refusedUntil = overflow ? .max : until
        } else {
            next.refusedUntil = nil
        }
        return next
    }
}
