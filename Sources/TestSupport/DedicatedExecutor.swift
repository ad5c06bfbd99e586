import Dispatch
public import Testing

/// A task executor with a serial dispatch queue of its own: what runs on it never waits for a
/// thread of Swift's cooperative pool.
///
/// On two cores the pool has two threads, and in a full run other tests hold them for long
/// stretches with blocking calls (a child process waited for, a PostgreSQL cluster started); a
/// service started in the test process hops onto the pool at every `await` and waits behind them
/// each time. A task that prefers this executor runs here instead, with its child tasks, its
/// sleeps and its resumed continuations. Give a suite or test the ``Testing/Trait/dedicatedExecutor``
/// trait: each of its test cases then runs on an executor of its own, ``current``. An
/// unstructured `Task {}` does not inherit the preference; start services in such a test with
/// `Task(executorPreference: DedicatedExecutor.current)`.
///
/// Only for a test whose awaited work stays on the executor: ``eventually(timeout:every:_:)``
/// stretches its deadline by the time its own task was starved, so a poller here, punctual,
/// gives up on a service that still hops through the starved pool (the outbox sender submits in
/// an unstructured task; a full run failed its tests so).
public final class DedicatedExecutor: TaskExecutor {
    /// The executor of the test case running, when its test has the trait.
    @TaskLocal public static var current: DedicatedExecutor?

    private let queue: DispatchQueue
    private static let key = DispatchSpecificKey<ObjectIdentifier>()

    /// - Parameter label: The queue's name, as a debugger shows it.
    public init(label: String = "smsgw.tests.dedicated") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: Self.key, value: ObjectIdentifier(self))
    }

    /// Whether the caller runs on this executor's queue.
    public var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.key) == ObjectIdentifier(self) }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Runs each test case of the test or suite it is given to on a ``DedicatedExecutor`` of its own.
public struct DedicatedExecutorTrait: TestTrait, SuiteTrait, TestScoping {
    /// Admits the test cases of ``Testing/Trait/blockingOffPool`` two at a time.
    static let blockingGate = AdmissionGate(width: 2)

    let gate: AdmissionGate?

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Admitted once, even where the trait reaches a test case twice (from its suite too).
        guard let gate, !Self.admitted else { return try await run(test, function) }
        await gate.enter()
        do {
            try await Self.$admitted.withValue(true) { try await run(test, function) }
        } catch {
            await gate.leave()
            throw error
        }
        await gate.leave()
    }

    @TaskLocal private static var admitted = false

    private func run(_ test: Test, _ function: @Sendable () async throws -> Void) async throws {
        let executor = DedicatedExecutor(label: "smsgw.tests.\(test.name)")
        try await DedicatedExecutor.$current.withValue(executor) {
            try await withTaskExecutorPreference(executor) { try await function() }
        }
    }
}

extension Trait where Self == DedicatedExecutorTrait {
    /// Each test case runs on a ``DedicatedExecutor`` of its own, off Swift's cooperative pool.
    public static var dedicatedExecutor: Self { Self(gate: nil) }

    /// ``dedicatedExecutor`` for tests that block their thread (a synchronous test that runs child
    /// processes and waits for them), at most two of them at once in the whole run: they no longer
    /// hold the cooperative pool's threads, and no more of them run at once than did on those two.
    public static var blockingOffPool: Self { Self(gate: DedicatedExecutorTrait.blockingGate) }
}

/// Lets at most `width` callers past ``enter()`` until they ``leave()``; the others wait, holding
/// no thread.
actor AdmissionGate {
    private let width: Int
    private var inside = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) { self.width = width }

    /// How many wait to enter.
    var queued: Int { waiting.count }

    func enter() async {
        guard inside >= width else {
            inside += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        // The place passes straight to the next in line, if any.
        if waiting.isEmpty { inside -= 1 } else { waiting.removeFirst().resume() }
    }
}
