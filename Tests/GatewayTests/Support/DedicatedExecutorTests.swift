import Dispatch
import Synchronization
import Testing

@testable import TestSupport

/// The trait the in-process service tests run under: a test case, its sleeps, the continuations
/// it resumes from other queues, its child tasks and the tasks it starts with the executor all
/// run on the executor's own queue, never on a thread of the cooperative pool (which other
/// targets' tests hold for minutes in a full run).
@Suite("A dedicated executor keeps a test off the cooperative pool", .dedicatedExecutor)
struct DedicatedExecutorTests {
    @Test func everyHopOfTheTestRunsOnItsOwnQueue() async throws {
        let executor = try #require(DedicatedExecutor.current)
        #expect(executor.isCurrent, "the test's body")
        try await Task.sleep(for: .milliseconds(10))
        #expect(executor.isCurrent, "after a sleep")
        await withCheckedContinuation { continuation in DispatchQueue.global().async { continuation.resume() } }
        #expect(executor.isCurrent, "after a continuation resumed on another queue")
        async let child = executor.isCurrent
        #expect(await child, "a child task")
        #expect(await Task(executorPreference: executor) { executor.isCurrent }.value, "a task started with the executor")
        #expect(await Task { executor.isCurrent }.value == false, "an unstructured task without it runs on the pool")
    }

    /// `.blockingOffPool` lets two test cases in at once: the third waits, holding no thread.
    @Test func theGateAdmitsTwoAtATime() async {
        let gate = AdmissionGate(width: 2)
        await gate.enter()
        await gate.enter()
        let admitted = Mutex(false)
        // On this test's executor: a task on the pool, starved in a full run, once took over
        // two minutes to reach the gate.
        let third = Task(executorPreference: DedicatedExecutor.current) {
            await gate.enter()
            admitted.withLock { $0 = true }
        }
        #expect(await eventually { await gate.queued == 1 }, "the third waits")
        #expect(!admitted.withLock { $0 })
        await gate.leave()
        await third.value
        let queued = await gate.queued
        #expect(admitted.withLock { $0 } && queued == 0, "a place left is the third's")
    }
}
