import Foundation
import Synchronization

/// One dedicated OS thread per modem that runs its libgammu calls one at a time, in order.
///
/// libgammu blocks on the serial port, so its calls must never run on Swift's cooperative pool. Jobs
/// queue here; when the queue is empty the thread runs the idle job every polling interval (to read
/// unsolicited notifications). The thread owns the ``GammuSession``; other threads reach it only
/// through jobs, or through ``abortRunning(_:)`` which uses libgammu's thread-safe abort.
final class ModemWorker: Sendable {
    typealias Body = @Sendable (GammuSession) -> Void

    private struct Job {
        let id: UInt64
        let body: Body
    }

    private struct State {
        var queue: [Job] = []
        var nextID: UInt64 = 1
        var running: UInt64?
        var abortedAt: ContinuousClock.Instant?
        var hasAborted = false
        var stopped = false
        var exited = false
    }

    private let state = Mutex(State())
    private let wakeup = DispatchSemaphore(value: 0)
    /// Touched only by the worker thread (jobs run there); the initialiser hands it over before the
    /// thread starts, and starting a thread is a happens-before edge.
    nonisolated(unsafe) private let session: GammuSession
    private let abortHandle: GammuAbortHandle
    private let pollingInterval: Duration
    private let idle: Body

    /// Creates the session and starts the thread.
    /// - Parameters:
    ///   - name: The thread's name, for debuggers and `top -H`.
    ///   - session: The session this thread will own.
    ///   - pollingInterval: How long the queue may be empty before ``idle`` runs.
    ///   - idle: Runs on the thread when no job came for `pollingInterval`.
    init(name: String, session: GammuSession, pollingInterval: Duration, idle: @escaping Body) {
        self.session = session
        self.abortHandle = GammuAbortHandle(session)
        self.pollingInterval = pollingInterval
        self.idle = idle
        let threadName = String("modem:\(name)".prefix(15))  // Linux thread names hold 15 bytes
        let thread = Thread { [self] in
            Thread.current.name = threadName
            self.runLoop()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Queues a job; returns its id for ``cancelIfQueued(_:)`` and ``abortRunning(_:)``.
    @discardableResult
    func submit(_ body: @escaping Body) -> UInt64 {
        let id = state.withLock { state -> UInt64 in
            let id = state.nextID
            state.nextID += 1
            state.queue.append(Job(id: id, body: body))
            return id
        }
        wakeup.signal()
        return id
    }

    /// Removes a job that has not started; returns whether it was still queued.
    func cancelIfQueued(_ id: UInt64) -> Bool {
        state.withLock { state in
            guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return false }
            state.queue.remove(at: index)
            return true
        }
    }

    /// Calls `GSM_AbortOperation` if job `id` is the one running now.
    func abortRunning(_ id: UInt64) {
        let isRunning = state.withLock { state -> Bool in
            guard state.running == id else { return false }
            if state.abortedAt == nil { state.abortedAt = .now }
            state.hasAborted = true
            return true
        }
        if isRunning { abortHandle.abort() }
    }

    /// Whether a job was aborted more than `grace` ago and still has not returned.
    func isWedged(grace: Duration) -> Bool {
        state.withLock { state in
            guard state.running != nil, let abortedAt = state.abortedAt else { return false }
            return ContinuousClock.now - abortedAt > grace
        }
    }

    /// Whether a call was ever aborted: libgammu 1.42 never clears its abort flag (only
    /// `GSM_AllocStateMachine` does), so every later call on this state machine fails at once.
    var hasAborted: Bool { state.withLock { $0.hasAborted } }

    /// Whether the thread has left its loop and closed the port.
    var hasExited: Bool { state.withLock { $0.exited } }

    /// Lets the thread finish its current job and exit; queued jobs are dropped.
    func stop() {
        state.withLock { state in
            state.stopped = true
            state.queue.removeAll()
        }
        wakeup.signal()
    }

    private func runLoop() {
        while true {
            let timeout = DispatchTime.now() + pollingInterval.timeInterval
            let woke = wakeup.wait(timeout: timeout) == .success
            let next = state.withLock { state -> (job: Job?, stop: Bool) in
                if state.stopped { return (nil, true) }
                guard !state.queue.isEmpty else { return (nil, false) }
                let job = state.queue.removeFirst()
                state.running = job.id
                state.abortedAt = nil
                return (job, false)
            }
            if next.stop { break }
            if let job = next.job {
                job.body(session)
                state.withLock { state in
                    state.running = nil
                    state.abortedAt = nil
                }
                // More jobs may be queued behind this one without a matching signal consumed.
                if state.withLock({ !$0.queue.isEmpty }) { wakeup.signal() }
            } else if !woke {
                idle(session)
            }
        }
        session.disconnect()
        state.withLock { $0.exited = true }
    }
}

extension Duration {
    /// Seconds as a `Double`, for Dispatch and Foundation APIs.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
