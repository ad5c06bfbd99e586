import Foundation
import Operations
import TestSupport
import Testing

@testable import Store

/// What a seal costs on PostgreSQL in statements, each one round trip to the server
/// (docs/PERFORMANCE.md, "The cost of a PostgreSQL write"): the locks and their release, `BEGIN`
/// and `COMMIT`, the contact and its other numbers read once, the key generation and the session,
/// the record of a move, the session's update, the log row, one outbox row per SMS written in its
/// final form, and one notice at the commit.
@Suite("Statements of a seal on PostgreSQL")
struct SealStatementsTests {
    /// The statements alice's store ran while `body` did.
    private func statements(of couple: Couple, _ body: () throws -> Void) throws -> Int {
        let before = try #require(couple.alice.gateway.postgresStatementCount)
        try body()
        return try #require(couple.alice.gateway.postgresStatementCount) - before
    }

    @Test("A queued text is 13 statements, a text of three SMS 15, each row with its sealed position")
    func queuedText() throws {
        _ = try requirePostgres()
        let couple = try Couple(on: .postgresql)
        _ = try Contacts.edit("bob", changes: .init(acknowledgements: true), store: couple.alice)
        var rng = SystemRandomNumberGenerator()
        let now = Date()
        var queued: [QueuedMessage] = []
        let one = try statements(of: couple) {
            queued.append(try Messages.queue("hello", to: "bob", store: couple.alice, now: now, using: &rng))
        }
        #expect(one == 13, "\(one) statements")
        let long = String(repeating: "Acknowledged texts arrive whole, or say they did not. ", count: 6)
        let three = try statements(of: couple) {
            queued.append(try Messages.queue(long, to: "bob", store: couple.alice, now: now, using: &rng))
        }
        #expect(three == 15, "\(three) statements")

        #expect(queued.map(\.parts) == [1, 3])
        let rows = try couple.alice.read { try $0.outboxItems() }
        #expect(rows.map(\.position) == [0, 1, 2, 3] && rows.allSatisfy { $0.epoch == 0 })
        // One SMS awaits no acknowledgement (§9.2): only a long text's parts are sent again.
        #expect(rows.map(\.awaitsAcknowledgement) == [false, true, true, true])
        #expect(Set(rows.map(\.number.e164)) == ["+15550002"])
    }

    @Test("SQLite counts no statements: its are calls, not round trips")
    func noneOnSQLite() throws {
        let couple = try Couple(on: .sqlite)
        #expect(couple.alice.gateway.postgresStatementCount == nil)
    }
}
