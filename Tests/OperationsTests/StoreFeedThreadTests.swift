import Dispatch
import Foundation
import Store
import Synchronization
import TestSupport
import Testing

@testable import Operations

/// A feed's reads hold no thread of the task iterating it: on PostgreSQL a read waits for the
/// server, and the daemon's event streams, iterated on Swift's cooperative pool, all read so.
@Suite("Store feeds read off the iterating task's thread", .dedicatedExecutor)
struct StoreFeedThreadTests {
    @Test("While a feed's read hangs, the executor iterating it (one thread here) runs other work")
    func aHangingReadLeavesTheIteratingExecutorFree() async throws {
        let couple = try Couple(on: .sqlite)
        let executor = try #require(DedicatedExecutor.current)
        let released = DispatchSemaphore(value: 0)
        let reading = Atomic<Bool>(false)
        // A read that waits as one of a PostgreSQL server held by a lock does.
        let feed = StoreFeed<Int64>(store: couple.alice, cursor: 0, following: false) { _, _ in
            reading.store(true, ordering: .sequentiallyConsistent)
            released.wait()
            return []
        } position: {
            $0
        }
        // Should the read hold this test's only thread, something must let it go at last.
        let rescued = Atomic<Bool>(false)
        let rescue = DispatchWorkItem {
            rescued.store(true, ordering: .sequentiallyConsistent)
            released.signal()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: rescue)
        let reader = Task(executorPreference: executor) { for try await _ in feed {} }
        #expect(await eventually(timeout: .seconds(20)) { reading.load(ordering: .sequentiallyConsistent) })
        rescue.cancel()
        let wasRescued = rescued.load(ordering: .sequentiallyConsistent)
        #expect(!wasRescued, "the read held the thread of the task iterating the feed")
        if !wasRescued { released.signal() }
        try await reader.value
    }
}
