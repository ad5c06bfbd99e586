import Dispatch
import Foundation
import Synchronization
import TestSupport
import Testing

/// The trait the in-process service tests run under: a test case on its own executor gets on
/// with its sleeps, continuations and child tasks while every thread of the cooperative pool is
/// blocked, as other targets' tests block them in a full run.
@Suite("A dedicated executor runs a test while the cooperative pool is blocked", .dedicatedExecutor)
struct DedicatedExecutorTests {
    /// Tasks that each hold a pool thread until released, or give up after a minute (as they
    /// would if the test needed the pool: it could not run to release them).
    final class Blockers: Sendable {
        let count = ProcessInfo.processInfo.activeProcessorCount
        private let release = DispatchSemaphore(value: 0)
        private let holding = Atomic(0)
        private let releasedInTime = Atomic(0)

        var allHolding: Bool { holding.load(ordering: .sequentiallyConsistent) == count }
        var allReleasedInTime: Bool { releasedInTime.load(ordering: .sequentiallyConsistent) == count }

        func start() {
            for _ in 0..<count {
                Task.detached { self.hold() }
            }
        }

        func releaseAll() {
            for _ in 0..<count { release.signal() }
        }

        private func hold() {
            holding.add(1, ordering: .sequentiallyConsistent)
            if release.wait(timeout: .now() + 60) == .success { releasedInTime.add(1, ordering: .sequentiallyConsistent) }
        }
    }

    @Test func aTestGetsOnWhileEveryPoolThreadIsBlocked() async throws {
        let executor = try #require(DedicatedExecutor.current)
        let blockers = Blockers()
        blockers.start()
        #expect(await eventually { blockers.allHolding })

        // Every pool thread is held: a sleep, a continuation resumed from a dispatch queue, a
        // child task and a task started with the executor all run here.
        try await Task.sleep(for: .milliseconds(10))
        await withCheckedContinuation { continuation in DispatchQueue.global().async { continuation.resume() } }
        async let child = 1
        let started = Task(executorPreference: executor) { 2 }
        #expect(await child + started.value == 3)

        blockers.releaseAll()
        #expect(await eventually { blockers.allReleasedInTime })
    }
}
