import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Gateway

/// ``StoreStop`` alone: a stop gives up a store call that does not answer, and only then refuses
/// the calls after it; a stop that is merely slow still lets its last writes through.
@Suite("The stop's grace for store calls")
struct StoreStopTests {
    @Test("A call asked after the grace, with nothing given up, still runs (a slow stop records its modems as stopped)")
    func aSlowStopRefusesNothing() async throws {
        let stop = StoreStop(graceSeconds: 0.1)
        stop.begin()
        try await Task.sleep(for: .milliseconds(500))
        let asked = stop.waiting({})
        let ticket = try #require(asked, "a call after the grace, with nothing hung, was refused")
        stop.finished(ticket)
    }

    @Test("A call that does not answer is given up after the grace, with every other one waiting; later calls fail at once")
    func aHungCallIsGivenUp() async throws {
        let stop = StoreStop(graceSeconds: 0.1)
        let givenUp = Mutex(0)
        let first = stop.waiting({ givenUp.withLock { $0 += 1 } })
        stop.begin()
        let second = stop.waiting({ givenUp.withLock { $0 += 1 } })
        #expect(first != nil && second != nil)
        #expect(await eventually(timeout: .seconds(30)) { givenUp.withLock { $0 } == 2 })
        let later = stop.waiting({})
        #expect(later == nil, "the store hangs: a later call is refused at once")
    }

    @Test("A call that finishes within its grace is not given up")
    func aFinishedCallStays() async throws {
        let stop = StoreStop(graceSeconds: 0.1)
        let givenUp = Mutex(false)
        stop.begin()
        let asked = stop.waiting({ givenUp.withLock { $0 = true } })
        let ticket = try #require(asked)
        stop.finished(ticket)
        try await Task.sleep(for: .milliseconds(500))
        #expect(!givenUp.withLock { $0 })
        let later = stop.waiting({})
        #expect(later != nil)
    }
}
