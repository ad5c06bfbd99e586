/// The outcome of one verification attempt.
public enum OTPVerificationResult: Sendable, Hashable {
    /// The code was right. The associated value is the TOTP time step or the HOTP counter it
    /// matched.
    case accepted(step: UInt64)
    /// The code matched nothing in the window.
    case rejected
    /// The code was right once but its step or counter has already been used.
    case replayed
    /// Too many recent failures: the code was not looked at, and attempts are refused until the
    /// given Unix time.
    case throttled(until: Int64)

    /// Whether the attempt succeeded.
    public var isAccepted: Bool {
        if case .accepted = self { return true }
        return false
    }
}

/// The result of ``OTPVerifier/verify(_:state:now:)``: what happened and the state to persist.
public struct OTPVerification: Sendable, Hashable {
    /// What happened.
    public let result: OTPVerificationResult
    /// The state to store before acting on the result. It differs from the input state after
    /// every attempt that was not throttled.
    public let state: OTPVerificationState
}

/// Checks passcodes against an enrolled generator, as pure value logic.
///
/// The verifier holds no clock and no storage. The caller passes the current time and the
/// persisted ``OTPVerificationState`` and gets back an ``OTPVerification``: a result and the new
/// state, which it stores in the same transaction. It provides:
///
/// - a window of ±``window`` steps for TOTP clock drift (default 1), or a look-ahead of
///   ``window`` counters for HOTP (default 10) with resynchronisation: accepting a code ahead
///   moves the counter past it (RFC 4226 §7.4);
/// - replay rejection: no step or counter at or below the last accepted one is accepted;
/// - throttling (RFC 4226 §7.3) by ``OTPThrottlePolicy``;
/// - a constant-time comparison of the code with every candidate, without an early exit.
///
/// ```swift
/// let verifier = OTPVerifier(totp: totp)
/// let outcome = verifier.verify(typed, state: stored, now: TOTP.unixTime(Date()))
/// try store.save(outcome.state)   // then act on outcome.result
/// ```
public struct OTPVerifier: Sendable, Hashable {
    /// The generator being checked against.
    public enum Generator: Sendable, Hashable {
        /// Time-based codes.
        case totp(TOTP)
        /// Counter-based codes.
        case hotp(HOTP)
    }

    /// The generator being checked against.
    public let generator: Generator
    /// TOTP: steps accepted either side of the current one. HOTP: counters accepted beyond the
    /// expected one. Codes this far behind are also recognised, to report them as replays.
    public let window: Int
    /// The delay scheme after failures.
    public let throttle: OTPThrottlePolicy

    /// Creates a TOTP verifier.
    /// - Parameters:
    ///   - totp: The generator.
    ///   - window: Steps of clock drift accepted either way; 1 (RFC 6238 §5.2) by default.
    ///   - throttle: The delay scheme after failures.
    public init(totp: TOTP, window: Int = 1, throttle: OTPThrottlePolicy = .standard) {
        self.generator = .totp(totp)
        self.window = max(0, window)
        self.throttle = throttle
    }

    /// Creates an HOTP verifier.
    /// - Parameters:
    ///   - hotp: The generator.
    ///   - lookAhead: Counters beyond the expected one that are accepted, to resynchronise
    ///     after the user generated codes without using them; 10 by default.
    ///   - throttle: The delay scheme after failures.
    public init(hotp: HOTP, lookAhead: Int = 10, throttle: OTPThrottlePolicy = .standard) {
        self.generator = .hotp(hotp)
        self.window = max(0, lookAhead)
        self.throttle = throttle
    }

    /// Verifies a code typed by a user.
    ///
    /// Spaces in the code are ignored, so `"123 456"` is read as `"123456"`. A code of the wrong
    /// length or with other characters is rejected like any wrong code.
    /// - Parameters:
    ///   - code: The passcode as entered.
    ///   - state: The persisted state for this enrolment.
    ///   - now: The current Unix time: the TOTP clock and the throttling clock.
    /// - Returns: The result and the state to persist.
    public func verify(_ code: String, state: OTPVerificationState, now: Int64) -> OTPVerification {
        if let until = state.refusedUntil, now < until {
            return OTPVerification(result: .throttled(until: until), state: state)
        }
        let typed = Array(code.utf8.filter { $0 != UInt8(ascii: " ") })

        let candidates: [(counter: UInt64, code: [UInt8])]
        let hotp: HOTP
        switch generator {
        case .totp(let totp):
            hotp = totp.hotp
            guard let current = try? totp.step(at: now) else {
                return OTPVerification(result: .rejected, state: state.failing(at: now, policy: throttle))
            }
            candidates = hotp.codes(counters: Self.range(around: current, behind: window, ahead: window))
        case .hotp(let generator):
            hotp = generator
            candidates = hotp.codes(counters: Self.range(around: state.counter, behind: window, ahead: window))
        }

        // Every candidate is compared in full, whatever matched before it, so the time taken
        // does not reveal which step or counter the code belongs to.
        var freshMatch: UInt64?
        var spentMatch = false
        for candidate in candidates {
            let matches = constantTimeEquals(candidate.code, typed)
            let spent = Self.isSpent(candidate.counter, state: state, generator: generator)
            if matches && spent {
                spentMatch = true
            } else if matches && freshMatch == nil {
                freshMatch = candidate.counter
            }
        }

        if let step = freshMatch {
            var next = state.accepting(step: step)
            if case .hotp = generator {
                // Resynchronise: the next code expected is the one after the accepted counter.
                next.counter = step == .max ? .max : step + 1
            }
            return OTPVerification(result: .accepted(step: step), state: next)
        }
        let result: OTPVerificationResult = spentMatch ? .replayed : .rejected
        return OTPVerification(result: result, state: state.failing(at: now, policy: throttle))
    }

    /// Whether a step or counter can no longer be accepted.
    private static func isSpent(_ step: UInt64, state: OTPVerificationState, generator: Generator) -> Bool {
        if state.isSpent(step) { return true }
        // HOTP counters below the expected one were skipped or used, even with no success yet.
        if case .hotp = generator, step < state.counter { return true }
        return false
    }

    /// The counters from `center - behind` to `center + ahead`, clamped to the 64-bit range.
    static func range(around center: UInt64, behind: Int, ahead: Int) -> ClosedRange<UInt64> {
        let low = center >= UInt64(behind) ? center - UInt64(behind) : 0
        let (high, overflow) = center.addingReportingOverflow(UInt64(ahead))
        return low...(overflow ? .max : high)
    }
}
