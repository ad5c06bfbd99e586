public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// How a child process ended: its exit status, or the signal that ended it.
public struct ChildExit: Sendable, Equatable, CustomStringConvertible {
    /// Whether the process exited or a signal ended it.
    public enum Reason: Sendable, Equatable {
        case exit
        case signal
    }

    public let reason: Reason
    /// The exit status, or the signal's number.
    public let status: Int32

    public init(reason: Reason, status: Int32) {
        self.reason = reason
        self.status = status
    }

    /// Whether the process exited with status 0.
    public var succeeded: Bool { self == ChildExit(reason: .exit, status: 0) }

    public var description: String { reason == .exit ? "status \(status)" : "signal \(status)" }
}

extension Process {
    /// Waits for the process (started with `run()`) to end without holding a thread of Swift's
    /// cooperative pool, and says how it ended.
    ///
    /// `waitUntilExit()` blocks its thread, and in an async test that thread is one of the pool's
    /// two (on two cores): every service the test process runs waits behind it. It also waits for
    /// Foundation's single monitor thread, which learns of each child's end from a socket the child
    /// inherits and then reaps it with a blocking `waitpid`: a child that closes its inherited
    /// descriptors while it runs (a shell that closes every descriptor above 2, `sudo`) sends that
    /// thread into `waitpid` until it ends, and no other child's end is seen meanwhile
    /// (``ChildExitTests`` shows it). This waits on a thread of its own with `waitid(WNOWAIT)`,
    /// which sees the end without reaping the child, so Foundation still reaps it.
    ///
    /// Use the answer, not `terminationStatus`: Foundation may not have reaped the child yet.
    public func exit() async -> ChildExit {
        let waiter = ExitWaiter(process: self)
        return await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: waiter.wait()) }
            thread.name = "smsgw.tests.child-exit"
            thread.start()
        }
    }

    /// Waits at most `timeout` for the process to end, as ``exit()`` does; nil when it still runs.
    public func exit(within timeout: Duration) async -> ChildExit? {
        let waiter = ExitWaiter(process: self)
        let answer = FirstAnswer()
        return await withCheckedContinuation { continuation in
            answer.hold(continuation)
            let thread = Thread { answer.give(waiter.wait()) }
            thread.name = "smsgw.tests.child-exit"
            thread.start()
            Task {
                try? await Task.sleep(for: timeout)
                answer.give(nil)
            }
        }
    }

    /// Runs `body`, then ends the process with `signal` and waits for it as ``exit()`` does,
    /// whether or not `body` threw: for an async test, which cannot await in a `defer`.
    public func stopping<T>(with signal: Int32 = SIGTERM, after body: () async throws -> T) async throws -> T {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
        if isRunning { kill(processIdentifier, signal) }
        _ = await exit()
        return try outcome.get()
    }

    /// Blocks the calling thread until the process ends, without waiting for Foundation's
    /// monitor (see ``exit()``), and says how it ended: for a `deinit` and for threads of their
    /// own, never for async code, which awaits ``exit()``.
    public func waitForExit() -> ChildExit { ExitWaiter(process: self).wait() }

    /// ``waitForExit()`` for at most `timeout`; nil when the process still runs.
    public func waitForExit(within timeout: Duration) -> ChildExit? {
        let waiter = ExitWaiter(process: self)
        let deadline = ContinuousClock.now + timeout
        while true {
            if let ended = waiter.ended(blocking: false) { return ended }
            guard ContinuousClock.now < deadline else { return nil }
            usleep(10_000)
        }
    }
}

/// A continuation resumed once, with the first answer given.
private final class FirstAnswer: Sendable {
    private let continuation = Mutex<CheckedContinuation<ChildExit?, Never>?>(nil)

    func hold(_ waiting: CheckedContinuation<ChildExit?, Never>) { continuation.withLock { $0 = waiting } }

    func give(_ answer: ChildExit?) { continuation.withLock { $0.take() }?.resume(returning: answer) }
}

/// A process to wait for, handed to the waiting thread.
private struct ExitWaiter: @unchecked Sendable {
    // Only `processIdentifier`, `isRunning` and the termination properties are read, after `run()`.
    let process: Process

    func wait() -> ChildExit {
        // Blocking, `ended` answers once the process has ended.
        ended(blocking: true) ?? foundationsAnswer()
    }

    /// How the process ended, or nil while it runs (only when not `blocking`).
    func ended(blocking: Bool) -> ChildExit? {
        let pid = process.processIdentifier
        precondition(pid > 0, "the process was not started")
        if !process.isRunning { return foundationsAnswer() }
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | (blocking ? 0 : WNOHANG)) != 0 {
            // ECHILD: Foundation reaped it first and is about to say how it ended.
            guard errno == EINTR else { return foundationsAnswer() }
        }
        guard info._sifields._sigchld.si_pid == pid else { return nil }  // WNOHANG: still running
        let status = info._sifields._sigchld.si_status
        return ChildExit(reason: info.si_code == Int32(CLD_EXITED) ? .exit : .signal, status: status)
    }

    /// How Foundation says the process ended, once it has reaped it (this thread is no pool's).
    private func foundationsAnswer() -> ChildExit {
        while process.isRunning { usleep(1000) }
        return ChildExit(reason: process.terminationReason == .exit ? .exit : .signal, status: process.terminationStatus)
    }
}

extension FileHandle {
    /// Reads to the end of the file (a pipe: until every writer closed it) on a thread of its own,
    /// not one of the cooperative pool's.
    public func readToEndOffThePool() async -> Data {
        let handle = UncheckedHandle(handle: self)
        return await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: (try? handle.handle.readToEnd()) ?? Data()) }
            thread.name = "smsgw.tests.read"
            thread.start()
        }
    }
}

/// A file handle handed to the reading thread, which alone uses it until it is done.
private struct UncheckedHandle: @unchecked Sendable {
    let handle: FileHandle
}
