import Foundation
import OTP
import Testing

/// Windows, replay rejection, throttling and HOTP resynchronisation.
struct OTPVerifierTests {
    static let secret = try! OTPSecret(bytes: Array("12345678901234567890".utf8))
    static let totp = try! TOTP(secret: secret)
    static let hotp = try! HOTP(secret: secret)
    /// 2005-03-18 01:58:29 UTC, in step 37037036 (RFC 6238's second row).
    static let now: Int64 = 1_111_111_109
    static let step: UInt64 = 37_037_036

    // MARK: TOTP window

    @Test("The default window accepts one step either side", arguments: [-2, -1, 0, 1, 2])
    func defaultWindow(_ offset: Int) {
        let verifier = OTPVerifier(totp: Self.totp)
        let step = UInt64(Int(Self.step) + offset)
        let outcome = verifier.verify(Self.totp.code(step: step), state: .newTOTP, now: Self.now)
        if abs(offset) <= 1 {
            #expect(outcome.result == .accepted(step: step))
            #expect(outcome.state.lastAcceptedStep == step)
        } else {
            #expect(outcome.result == .rejected)
            #expect(outcome.state.consecutiveFailures == 1)
        }
    }

    @Test("The window is configurable", arguments: [0, 2, 5])
    func configurableWindow(_ window: Int) {
        let verifier = OTPVerifier(totp: Self.totp, window: window, throttle: .disabled)
        for offset in -(window + 1)...(window + 1) {
            let step = UInt64(Int(Self.step) + offset)
            let result = verifier.verify(Self.totp.code(step: step), state: .newTOTP, now: Self.now).result
            #expect(result.isAccepted == (abs(offset) <= window), "offset \(offset) window \(window)")
        }
    }

    @Test("Codes with the wrong shape are rejected, spaces are ignored")
    func codeShapes() {
        let verifier = OTPVerifier(totp: Self.totp, throttle: .disabled)
        let code = Self.totp.code(step: Self.step)
        for typed in ["", "12345", String(code.dropLast()), code + "0", "abcdef", "０７０８１８", "-\(code.dropFirst())"] {
            #expect(verifier.verify(typed, state: .newTOTP, now: Self.now).result == .rejected, "\(typed)")
        }
        let spaced = "\(code.prefix(3)) \(code.suffix(3))"
        #expect(verifier.verify(spaced, state: .newTOTP, now: Self.now).result == .accepted(step: Self.step))
    }

    @Test("A time before T0 is rejected, not a crash")
    func beforeStart() throws {
        let shifted = try TOTP(secret: Self.secret, startTime: 2_000_000_000)
        let verifier = OTPVerifier(totp: shifted)
        #expect(verifier.verify("123456", state: .newTOTP, now: 0).result == .rejected)
    }

    // MARK: Replay

    @Test("A code accepted once is a replay the second time")
    func replaySameCode() {
        let verifier = OTPVerifier(totp: Self.totp)
        let code = Self.totp.code(step: Self.step)
        let first = verifier.verify(code, state: .newTOTP, now: Self.now)
        #expect(first.result == .accepted(step: Self.step))
        let second = verifier.verify(code, state: first.state, now: Self.now + 1)
        #expect(second.result == .replayed)
        #expect(second.state.lastAcceptedStep == Self.step)
        #expect(second.state.consecutiveFailures == 1)
    }

    @Test("Nothing at or below the last accepted step is accepted")
    func replayOlderStep() {
        let verifier = OTPVerifier(totp: Self.totp)
        // The user's clock runs fast: the next step's code is accepted first.
        let ahead = verifier.verify(Self.totp.code(step: Self.step + 1), state: .newTOTP, now: Self.now)
        #expect(ahead.result == .accepted(step: Self.step + 1))
        for step in [Self.step - 1, Self.step, Self.step + 1] {
            #expect(verifier.verify(Self.totp.code(step: step), state: ahead.state, now: Self.now).result == .replayed)
        }
        // Thirty seconds later the following step is fresh.
        let next = verifier.verify(Self.totp.code(step: Self.step + 2), state: ahead.state, now: Self.now + 30)
        #expect(next.result == .accepted(step: Self.step + 2))
    }

    // MARK: Throttling

    @Test(
        "RFC 4226 §7.3 delays: none for two failures, then doubling up to an hour",
        arguments: [(1, 0), (2, 0), (3, 2), (4, 4), (5, 8), (12, 1_024), (13, 2_048), (14, 3_600), (100, 3_600), (Int.max, 3_600)]
            as [(Int, Int64)])
    func delays(_ example: (failures: Int, delay: Int64)) {
        #expect(OTPThrottlePolicy.standard.delay(afterFailures: example.failures) == example.delay)
    }

    @Test("Failures are counted, attempts refused until the delay ends, success resets")
    func throttling() {
        let verifier = OTPVerifier(totp: Self.totp)
        var state = OTPVerificationState.newTOTP
        var time = Self.now
        for failure in 1...2 {
            state = verifier.verify("000000", state: state, now: time).state
            #expect(state.consecutiveFailures == failure)
            #expect(state.refusedUntil == nil)
        }
        state = verifier.verify("000000", state: state, now: time).state
        #expect(state.consecutiveFailures == 3)
        #expect(state.refusedUntil == time + 2)
        #expect(state.isThrottled(at: time + 1))

        // Even the right code is not looked at while throttled, and the state does not change.
        time += 1
        let good = Self.totp.code(step: Self.step)
        let refused = verifier.verify(good, state: state, now: time)
        #expect(refused.result == .throttled(until: Self.now + 2))
        #expect(refused.state == state)

        time = Self.now + 2
        state = verifier.verify("000000", state: state, now: time).state
        #expect(state.consecutiveFailures == 4)
        #expect(state.refusedUntil == time + 4)

        time += 4
        let accepted = verifier.verify(good, state: state, now: time)
        #expect(accepted.result == .accepted(step: Self.step))
        #expect(accepted.state.consecutiveFailures == 0)
        #expect(accepted.state.refusedUntil == nil)
    }

    @Test("The delay is capped at one hour")
    func cappedDelay() {
        let verifier = OTPVerifier(totp: Self.totp)
        var state = OTPVerificationState.newTOTP
        var time = Self.now
        for _ in 0..<40 {
            state = verifier.verify("000000", state: state, now: time).state
            time = state.refusedUntil ?? time
        }
        #expect(state.consecutiveFailures == 40)
        #expect(state.refusedUntil.map { $0 - time } == 0)
        let last = verifier.verify("000000", state: state, now: time).state
        #expect(last.refusedUntil == time + 3_600)
    }

    @Test("The state is a small Codable value")
    func codable() throws {
        let state = OTPVerificationState(counter: 7, lastAcceptedStep: 37_037_036, consecutiveFailures: 3, refusedUntil: 1_111_111_111)
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(OTPVerificationState.self, from: data) == state)
        #expect(data.count < 120)
        let fresh = try JSONEncoder().encode(OTPVerificationState.newTOTP)
        #expect(try JSONDecoder().decode(OTPVerificationState.self, from: fresh) == .newTOTP)
    }

    // MARK: HOTP

    @Test("HOTP accepts the expected counter and moves past it")
    func hotpNext() {
        let verifier = OTPVerifier(hotp: Self.hotp)
        let outcome = verifier.verify("755224", state: .newHOTP(counter: 0), now: Self.now)
        #expect(outcome.result == .accepted(step: 0))
        #expect(outcome.state.counter == 1)
        #expect(verifier.verify("755224", state: outcome.state, now: Self.now).result == .replayed)
        #expect(verifier.verify("287082", state: outcome.state, now: Self.now).result == .accepted(step: 1))
    }

    @Test("HOTP look-ahead resynchronises and burns the skipped counters")
    func hotpResync() {
        let verifier = OTPVerifier(hotp: Self.hotp)
        // The user pressed the button five times without logging in; counter 5 arrives.
        let resync = verifier.verify("254676", state: .newHOTP(counter: 0), now: Self.now)
        #expect(resync.result == .accepted(step: 5))
        #expect(resync.state.counter == 6)
        #expect(resync.state.lastAcceptedStep == 5)
        for skipped in ["755224", "969429", "254676"] {
            #expect(verifier.verify(skipped, state: resync.state, now: Self.now).result == .replayed)
        }
        #expect(verifier.verify("287922", state: resync.state, now: Self.now).result == .accepted(step: 6))
    }

    @Test("HOTP look-ahead stops at the configured distance", arguments: [0, 3, 10])
    func hotpLookAhead(_ lookAhead: Int) {
        let verifier = OTPVerifier(hotp: Self.hotp, lookAhead: lookAhead, throttle: .disabled)
        let start: UInt64 = 100
        for distance in 0...(lookAhead + 1) {
            let code = Self.hotp.code(counter: start + UInt64(distance))
            let result = verifier.verify(code, state: .newHOTP(counter: start), now: Self.now).result
            #expect(result.isAccepted == (distance <= lookAhead), "distance \(distance)")
        }
    }

    @Test("Counters before the enrolment counter are not accepted")
    func hotpBelowStart() {
        let verifier = OTPVerifier(hotp: Self.hotp)
        #expect(verifier.verify("755224", state: .newHOTP(counter: 3), now: Self.now).result == .replayed)
    }

    @Test("HOTP at the end of the 64-bit counter range")
    func hotpCounterMaximum() {
        let verifier = OTPVerifier(hotp: Self.hotp)
        let code = Self.hotp.code(counter: .max)
        let outcome = verifier.verify(code, state: .newHOTP(counter: .max - 2), now: Self.now)
        #expect(outcome.result == .accepted(step: .max))
        #expect(outcome.state.counter == .max)
        #expect(verifier.verify(code, state: outcome.state, now: Self.now).result == .replayed)
    }
}
