import Foundation
import Operations
import Store
import TestSupport
import Testing

/// The API's message pages, oldest first and newest first, and their cursors.
struct MessagePageTests {
    @Test(arguments: StoreBackendKind.allCases)
    func newestFirstPagesTowardsOlderMessagesAndAnInsertMeanwhileShiftsNone(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        for index in 0..<5 { try Messages.queue("m\(index)", to: "bob", store: couple.alice, now: Date(), using: &rng) }
        let first = try MessageLog.page(.init(order: .newest, limit: 2), store: couple.alice)
        #expect(first.messages.map(\.text) == ["m4", "m3"])
        #expect(first.next == first.messages.last?.id)
        // Logged between two pages: it takes a higher id, before the first page.
        let late = try Messages.queue("late", to: "bob", store: couple.alice, now: Date(), using: &rng)
        let second = try MessageLog.page(.init(after: first.next, order: .newest, limit: 2), store: couple.alice)
        #expect(second.messages.map(\.text) == ["m2", "m1"])
        let third = try MessageLog.page(.init(after: second.next, order: .newest, limit: 2), store: couple.alice)
        #expect(third.messages.map(\.text) == ["m0"])
        let end = try MessageLog.page(.init(after: third.next, order: .newest, limit: 2), store: couple.alice)
        #expect(end.messages.isEmpty && end.next == third.next)
        // What came meanwhile: oldest first after the first page's first id.
        let since = try MessageLog.page(.init(after: try #require(first.messages.first?.id)), store: couple.alice)
        #expect(since.messages.map(\.id) == [late.logID])
        // Filters and the cursor bound hold newest first as oldest first.
        let outgoing = try MessageLog.page(.init(direction: .outgoing, contact: "bob", order: .newest, limit: 1), store: couple.alice)
        #expect(outgoing.messages.map(\.text) == ["late"])
        #expect(try MessageLog.page(.init(direction: .incoming, order: .newest), store: couple.alice).messages.isEmpty)
        #expect(throws: StoreError.self) { try MessageLog.page(.init(contact: "carol", order: .newest), store: couple.alice) }
        #expect(throws: CursorError.self) {
            try MessageLog.page(.init(after: late.logID + 1000, order: .newest), store: couple.alice)
        }
    }

    /// A writer logs messages while a reader pages newest first: every message logged before the
    /// first page is seen once, none twice, in descending order.
    @Test(arguments: StoreBackendKind.allCases)
    func pagingNewestFirstWhileAnotherTaskLogsMissesAndRepeatsNothing(_ backend: StoreBackendKind) async throws {
        let couple = try Couple(on: backend)
        let store = couple.alice
        var rng = SystemRandomNumberGenerator()
        var before: [Int64] = []
        for index in 0..<12 { before.append(try Messages.queue("old \(index)", to: "bob", store: store, now: Date(), using: &rng).logID) }
        let first = try MessageLog.page(.init(order: .newest, limit: 3), store: store)
        let writer = Task {
            var rng = SystemRandomNumberGenerator()
            var logged: [Int64] = []
            for index in 0..<6 {
                logged.append(try Messages.queue("new \(index)", to: "bob", store: store, now: Date(), using: &rng).logID)
            }
            return logged
        }
        var seen = first.messages.map(\.id)
        var cursor = first.next
        while true {
            let page = try MessageLog.page(.init(after: cursor, order: .newest, limit: 3), store: store)
            if page.messages.isEmpty { break }
            seen += page.messages.map(\.id)
            cursor = page.next
            await Task.yield()
        }
        let logged = try await writer.value
        #expect(seen == before.reversed())
        #expect(Set(logged).isDisjoint(with: seen) && logged.allSatisfy { $0 > before.last ?? 0 })
    }
}
