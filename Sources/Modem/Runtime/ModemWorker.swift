import Foundation
import Synchronization
import SystemCalls

/// One dedicated OS thread per modem that runs its libgammu calls one at a time, in order.
///
/// libgammu blocks on the serial port, so its calls must never run on Swift's cooperative pool. Jobs
/// queue here; when the queue is empty the thread waits in `poll(2)` for a job, for input on the
/// port (an unsolicited +CMTI or +CDS line) or for a long fallback interval, and runs the idle job
/// (which reads the notifications) on input or timeout; with the port closed it waits for a job
/// alone. When the port's descriptor is unknown it runs the idle job every polling interval
/// instead; libgammu's own read then listens for up to 50 ms. The thread owns the
/// ``GammuSession``; other threads reach it only through jobs, or through ``abortRunning(_:)``
/// which uses libgammu's thread-safe abort.
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
    /// A pipe the thread polls: ``submit(_:)`` and ``stop()`` wake it. Nil when none could be
    /// made; the thread then looks for jobs every polling interval. It closes with the worker,
    /// when nothing can wake it any more: closed earlier, a late `submit` or `stop` would write
    /// into whatever file reused the descriptor number (another modem's port).
    private let wakePipe: WakePipe?
    /// Touched only by the worker thread (jobs run there); the initialiser hands it over before the
    /// thread starts, and starting a thread is a happens-before edge.
    nonisolated(unsafe) private let session: GammuSession
    private let abortHandle: GammuAbortHandle
    private let pollingInterval: Duration
    private let idleCheckInterval: Duration
    private let idle: Body
    private let afterJobs: Body

    /// Creates the session and starts the thread.
    /// - Parameters:
    ///   - name: The thread's name, for debuggers and `top -H`.
    ///   - session: The session this thread will own.
    ///   - pollingInterval: How long the queue may be empty before ``idle`` runs, when the port's
    ///     descriptor is unknown.
    ///   - idleCheckInterval: The same while the thread watches the port's descriptor.
    ///   - idle: Runs on the thread on input, or when no job came for the interval.
    ///   - afterJobs: Runs on the thread when the queue ran empty after jobs, before it waits:
    ///     hands over what a job's reads of the port collected (an announcement that came in meanwhile).
    init(
        name: String, session: GammuSession, pollingInterval: Duration, idleCheckInterval: Duration, idle: @escaping Body,
        afterJobs: @escaping Body
    ) {
        self.session = session
        self.abortHandle = GammuAbortHandle(session)
        self.pollingInterval = pollingInterval
        self.idleCheckInterval = idleCheckInterval
        self.idle = idle
        self.afterJobs = afterJobs
        wakePipe = try? WakePipe()
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
        wakePipe?.wake()
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
        wakePipe?.wake()
    }

    private enum Wake { case job, port, timeout }

    /// Waits for a job, for input or a hang-up on the port, or for the fallback interval.
    ///
    /// Watching the port, the thread sleeps up to ``ModemConfiguration/idleCheckInterval`` (the
    /// daemon's health interval), since input and a hang-up wake it at once; with the port closed
    /// only a job can give it work, so it sleeps until one comes. Only a connected port whose
    /// descriptor is unknown is read every ``ModemConfiguration/pollingInterval``.
    private func waitForWork() -> Wake {
        // A negative descriptor is ignored by poll: no pipe, only the interval wakes the thread.
        let port = wakePipe == nil ? nil : session.portDescriptor
        var descriptors = [pollfd(fd: wakePipe?.readEnd ?? -1, events: Int16(POLLIN), revents: 0)]
        if let port { descriptors.append(pollfd(fd: port, events: Int16(POLLIN), revents: 0)) }
        let interval: Duration?
        if port != nil {
            interval = idleCheckInterval
        } else if wakePipe != nil, !session.isConnected {
            interval = nil
        } else {
            interval = pollingInterval
        }
        // poll fails only for a bad argument or no memory; waiting the interval out is the same as a timeout.
        guard let ready = try? SystemCall.poll(&descriptors, timeout: interval), ready > 0 else { return .timeout }
        if descriptors[0].revents != 0 {
            wakePipe?.drain()
            return .job
        }
        if descriptors.count > 1, descriptors[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            // A port that hung up stays "ready"; pace the reads that will notice it.
            Thread.sleep(forTimeInterval: Self.hangUpPause.timeInterval)
        }
        return .port
    }

    /// The pause before reading a port that hung up, so a port that keeps saying so is not read in a tight loop.
    static let hangUpPause = Duration.milliseconds(250)

    private func runLoop() {
        var work = Wake.timeout
        while true {
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
                continue  // the queue is looked at again before waiting
            }
            if work != .job { idle(session) } else { afterJobs(session) }
            work = waitForWork()
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
