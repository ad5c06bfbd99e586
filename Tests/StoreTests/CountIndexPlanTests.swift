import Foundation
import TestSupport
import Testing

@testable import Store

/// The counts of `/metrics` and the failures `status` lists use the indexes of migration
/// `v15-count-indexes` on both backends, rather than every message or every failed SMS
/// (docs/PERFORMANCE.md, "A store after a year").
@Suite("Store: the indexes of a year's counts")
struct CountIndexPlanTests {
    @Test("The log counted by direction and status from messages_status_direction_contact", arguments: StoreBackendKind.allCases)
    func messageCounts(_ backend: StoreBackendKind) throws {
        let plan = try ReadIndexPlanTests.plan(StoreReader.messageCountsStatement, [], on: backend)
        #expect(plan.contains("messages_status_direction_contact"), "\(plan)")
        if backend == .sqlite { #expect(plan.contains("COVERING INDEX"), "\(plan)") }
    }

    @Test("The failures status lists from outbox_failed", arguments: StoreBackendKind.allCases)
    func recentFailures(_ backend: StoreBackendKind) throws {
        let plan = try ReadIndexPlanTests.plan(StoreReader.recentFailuresStatement, [1_800_000_000.0, 5], on: backend)
        #expect(plan.contains("outbox_failed"), "\(plan)")
    }

    @Test("The failures listed are the newest of the last day, newest first")
    func recentFailuresSelection() throws {
        try TestStore.withAccount { _, _, store in
            let alice = try store.addContact(name: "alice", number: TestStore.number("+447700900010"), pairingCode: Data())
            let now = Date()
            let rows = try store.write { tx in
                try (0..<8).map { index in
                    let id = try tx.enqueueOutbox("C\(index)", to: alice)
                    // Rows 0 and 1 failed two days ago, 2 to 6 within the day, 7 is still queued.
                    let updated = index < 2 ? now - 2 * 86_400 : now - Double(100 - index)
                    try tx.db.execute(
                        sql: "UPDATE outbox SET state = ?, updated_at = ? WHERE id = ?",
                        arguments: [index == 7 ? "queued" : "failed", updated.timeIntervalSince1970, id])
                    return id
                }
            }
            let listed = try store.read { try $0.recentFailures(since: now - 86_400, limit: 4) }.map(\.id)
            #expect(listed == [rows[6], rows[5], rows[4], rows[3]])
        }
    }
}
