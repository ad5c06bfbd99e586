import Foundation
import TestSupport
import Testing

@testable import Store

/// The reads that grew with a year of traffic use the indexes of migration `v14-read-indexes`
/// on both backends, rather than every message or every SMS ever sent (docs/PERFORMANCE.md,
/// "A store after a year").
@Suite("Store: the indexes of a year's reads")
struct ReadIndexPlanTests {
    /// The plan of `sql` on `backend`'s store: SQLite's EXPLAIN QUERY PLAN, or PostgreSQL's with
    /// sequential scans forbidden (an empty table is read whole whatever its indexes).
    static func plan(_ sql: String, _ arguments: StoreArguments, on backend: StoreBackendKind) throws -> String {
        let (_, gateway, _) = try unlockedStore(on: backend)
        return try gateway.readTransaction { db -> String in
            switch backend {
            case .sqlite:
                return try db.rows(sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
                    .map { row -> String in row["detail"] }.joined(separator: "\n")
            case .postgresql:
                try db.execute(sql: "SET LOCAL enable_seqscan = off")
                return try db.values(String.self, sql: "EXPLAIN (COSTS OFF) " + sql, arguments: arguments).joined(separator: "\n")
            }
        }
    }

    @Test("The log by status, either order, from messages_status", arguments: StoreBackendKind.allCases)
    func logByStatus(_ backend: StoreBackendKind) throws {
        for (afterId, newestFirst) in [(Int64(0), true), (500, true), (0, false), (500, false)] {
            let selections = [LogSelection(status: .failed), LogSelection(direction: .outgoing, status: .failed)]
            for selection in selections {
                let statement = StoreReader.logPageStatement(selection, afterId: afterId, newestFirst: newestFirst, limit: 50)
                let plan = try Self.plan(statement.sql, statement.arguments, on: backend)
                #expect(plan.contains("messages_status"), "\(selection) after \(afterId), newest first \(newestFirst): \(plan)")
            }
        }
    }

    @Test(
        "The log of a contact by status from messages_contact_status (or v15's messages_status_direction_contact)",
        arguments: StoreBackendKind.allCases)
    func contactLogByStatus(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let alice = try store.addContact(name: "alice", number: TestStore.number("+447700900010"), pairingCode: Data())
        for status in [MessageStatus.delivered, .failed] {
            for newestFirst in [true, false] {
                let selection = LogSelection(contact: alice, direction: .outgoing, status: status)
                let statement = StoreReader.logPageStatement(selection, afterId: 0, newestFirst: newestFirst, limit: 50)
                let plan = try Self.plan(statement.sql, statement.arguments, on: backend)
                // Or v15's index, which narrows to the contact, the direction and the status as exactly.
                #expect(
                    plan.contains("messages_contact_status") || plan.contains("messages_status_direction_contact"),
                    "\(status), newest first \(newestFirst): \(plan)")
            }
        }
    }

    @Test("A contact's last acknowledgement from outbox_acknowledged", arguments: StoreBackendKind.allCases)
    func lastAcknowledgement(_ backend: StoreBackendKind) throws {
        let plan = try Self.plan(StoreReader.lastAcknowledgementStatement, [UUID().storeString], on: backend)
        #expect(plan.contains("outbox_acknowledged"), "\(plan)")
    }

    @Test("The next claim's number from outbox_claim_sequence", arguments: StoreBackendKind.allCases)
    func claimSequence(_ backend: StoreBackendKind) throws {
        let plan = try Self.plan(StoreTransaction.lastClaimSequence, [], on: backend)
        #expect(plan.contains("outbox_claim_sequence"), "\(plan)")
    }
}
