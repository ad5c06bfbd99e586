import Foundation

/// Polls `condition` until it holds or `timeout` passes, and says whether it held.
///
/// A condition that throws has not held yet (a store read while a daemon writes, a file not there
/// yet). The condition is looked at once more after the deadline: on a busy machine the task may
/// not have run for a while, and the last look is the one that counts.
///
/// Time the poller itself did not get to run does not count: when a sleep of `interval` ends
/// much later (the whole suite on two cores keeps Swift's cooperative pool busy, at times for
/// minutes), the deadline moves by the overshoot, since the code the test waits for was not
/// running either. The wait never goes past five times `timeout`.
///
/// Wait on conditions, never on time, and keep blocking calls out of the condition where you can:
/// tests share Swift's cooperative pool, and a condition that blocks a thread (a synchronous
/// process wait, an Argon2id hash) starves the services the test is waiting for.
///
/// - Parameters:
///   - timeout: How long to wait. Alone, most conditions hold in well under a second; the whole
///     suite on two cores makes them wait their turn, so be generous.
///   - interval: How long to sleep between looks.
///   - condition: What to wait for.
public func eventually(
    timeout: Duration = .seconds(45), every interval: Duration = .milliseconds(100),
    _ condition: () async throws -> Bool
) async -> Bool {
    let start = ContinuousClock.now
    let limit = start + timeout * 5
    var deadline = start + timeout
    while ContinuousClock.now < deadline {
        if (try? await condition()) == true { return true }
        let asleep = ContinuousClock.now
        try? await Task.sleep(for: interval)
        let overshoot = ContinuousClock.now - asleep - interval
        if overshoot > interval { deadline = min(deadline + overshoot, limit) }
    }
    return (try? await condition()) == true
}

/// Blocks until `isHeld` is false or `timeout` passes, and says whether it let go: for a lock this
/// process released, which a child process another test is starting at that moment may still
/// share (between its fork and its exec, before close-on-exec closes the descriptor), so that a
/// test's next acquire right after a release does not fail for a reason of the test runner's.
public func lockLetGo(timeout: Duration = .seconds(30), _ isHeld: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + timeout
    while isHeld() {
        guard ContinuousClock.now < deadline else { return false }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return true
}
