public import Glibc

/// The one way smsgw makes a system call: again while it fails with `EINTR`, and a
/// ``SystemCallError`` naming the call, the path and `errno` when it fails for another reason.
///
/// The pattern is NIOPosix's `syscall` wrappers: a signal that arrives while a call blocks (the
/// daemon's SIGTERM, a debugger's SIGSTOP/SIGCONT, any handler installed without `SA_RESTART`)
/// makes the call fail with `EINTR`, which is never the answer the caller waits for. The
/// functions in this target's other files build on these two.
public enum SystemCall {
    /// Makes a call that returns -1 and sets `errno` on failure, again while that is `EINTR`.
    ///
    /// - Parameters:
    ///   - call: The call's name for the error, e.g. `flock`.
    ///   - path: The file, device or socket it is made on, for the error.
    ///   - body: The call; runs once per attempt.
    /// - Returns: What the call returned (not -1).
    /// - Throws: ``SystemCallError`` for any `errno` but `EINTR`.
    @discardableResult
    public static func run<Result: FixedWidthInteger & SignedInteger>(
        _ call: String, path: String? = nil, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let code = errno
            if code != EINTR { throw SystemCallError(call: call, path: path, code: code) }
        }
    }

    /// Like ``run(_:path:_:)``, but a failure with one of `expected` is an answer, not an error:
    /// `EAGAIN` from a descriptor that would block, `EWOULDBLOCK` from a lock another process holds.
    ///
    /// - Returns: What the call returned, or nil when it failed with an `expected` errno.
    /// - Throws: ``SystemCallError`` for any other `errno` but `EINTR`.
    public static func run<Result: FixedWidthInteger & SignedInteger>(
        _ call: String, path: String? = nil, unless expected: Set<Int32>, _ body: () -> Result
    ) throws(SystemCallError) -> Result? {
        do {
            return try run(call, path: path, body)
        } catch  where expected.contains(error.code) {
            return nil
        }
    }

    /// The `errno` values that mean "not now" on a non-blocking descriptor or lock.
    public static let wouldBlock: Set<Int32> = [EAGAIN, EWOULDBLOCK]

    /// Waits until one of `descriptors` is ready or `timeout` passes (`poll(2)`); a signal does not
    /// cut the wait short, it goes on for the time left.
    ///
    /// - Parameters:
    ///   - descriptors: What to wait for; each `revents` is set on return. A negative `fd` is ignored.
    ///   - timeout: How long to wait at most (rounded up to whole milliseconds); nil waits forever.
    /// - Returns: How many descriptors are ready; 0 when the time ran out.
    public static func poll(_ descriptors: inout [pollfd], timeout: Duration?) throws(SystemCallError) -> Int {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        let count = nfds_t(descriptors.count)
        let ready = try run("poll") {
            Glibc.poll(&descriptors, count, deadline.map(milliseconds(until:)) ?? -1)
        }
        return Int(ready)
    }

    /// Whole milliseconds from now to `deadline`, rounded up so a wait never ends early; 0 once past.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let milliseconds = seconds * 1000 + (attoseconds + perMillisecond - 1) / perMillisecond
        return Int32(clamping: milliseconds)
    }
}
