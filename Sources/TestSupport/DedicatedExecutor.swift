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
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let executor = DedicatedExecutor(label: "smsgw.tests.\(test.name)")
        try await DedicatedExecutor.$current.withValue(executor) {
            try await withTaskExecutorPreference(executor) { try await function() }
        }
    }
}

extension Trait where Self == DedicatedExecutorTrait {
    /// Each test case runs on a ``DedicatedExecutor`` of its own, off Swift's cooperative pool.
    public static var dedicatedExecutor: Self { Self() }
}
