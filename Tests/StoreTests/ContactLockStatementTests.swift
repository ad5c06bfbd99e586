import Foundation
import TestSupport
import Testing

@testable import Store

/// The locks of a write scoped to contacts taken by one statement on PostgreSQL
/// (``WriteScope/lockStatement(storeLock:)``): which locks it holds, and the plan that keeps their
/// order (the store's lock first, then the contacts' by key), so that writers never deadlock.
@Suite("Contact locks in one statement")
struct ContactLockStatementTests {
    @Test("One statement takes the store's lock shared, then each contact's found by name or number, and returns their keys")
    func oneStatementTakesEveryLock() throws {
        let location = try location(.postgresql)
        let (gateway, a) = try location.unlockedStore()
        let alice = try a.addContact(name: "Alice", number: try PhoneNumber("+15550001"), pairingCode: Data())
        let bob = try a.addContact(name: "bob", number: try PhoneNumber("+15550002"), pairingCode: Data())
        _ = try a.addContact(name: "carol", number: try PhoneNumber("+15550003"), pairingCode: Data())
        let scope = WriteScope.contacts(
            named: ["ALICE", "nobody"], numbers: [try PhoneNumber("+15550002"), try PhoneNumber("+15559999")])
        let statement = scope.lockStatement(storeLock: PostgresPool.writeLock)
        let (keys, held) = try gateway.readTransaction { db in
            defer { _ = try? db.execute(sql: "SELECT pg_advisory_unlock_all()") }
            let keys = try db.values(Int64.self, sql: statement.sql, arguments: statement.arguments)
            let held = try db.rows(
                sql: """
                    SELECT (classid::bigint << 32) | objid::bigint AS key, mode FROM pg_locks
                    WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted
                    """
            ).map { row -> (Int64, String) in (row["key"], row["mode"]) }
            return (keys, held)
        }
        let contacts = [WriteScope.lockKey(for: alice.id), WriteScope.lockKey(for: bob.id)].sorted()
        #expect(keys == contacts)
        let modes = Dictionary(held, uniquingKeysWith: { first, _ in first })
        #expect(modes == [PostgresPool.writeLock: "ShareLock", contacts[0]: "ExclusiveLock", contacts[1]: "ExclusiveLock"])
        #expect(held.count == 3)
    }

    @Test("Its plan takes the store's lock before it reads a contact, and the contacts' in key order")
    func thePlanKeepsTheOrder() throws {
        let location = try location(.postgresql)
        let (gateway, _) = try location.unlockedStore()
        let statement = WriteScope.contacts(named: ["alice", "bob"], numbers: [try PhoneNumber("+15550002")])
            .lockStatement(storeLock: PostgresPool.writeLock)
        let plan = try gateway.readTransaction { db in
            try db.values(String.self, sql: "EXPLAIN (COSTS OFF) " + statement.sql, arguments: statement.arguments)
        }.map { $0.trimmingCharacters(in: .whitespaces) }
        // A gating filter over everything: the store's lock (an InitPlan) before any row is read.
        #expect(plan.first == "Result" && plan.dropFirst().first?.hasPrefix("One-Time Filter:") == true, "\(plan)")
        // The contacts' locks filter the rows a sort handed up, one after the other.
        let scan = try #require(plan.firstIndex { $0.contains("Subquery Scan on k") }, "\(plan)")
        #expect(plan[scan + 1] == "Filter: (pg_advisory_lock(k.key) IS NOT NULL)", "\(plan)")
        #expect(plan[(scan + 2)...].contains { $0.contains("Sort") }, "\(plan)")
    }

    @Test("A scope over the whole database, or naming no contact, takes the store's lock alone")
    func noContactNoLookup() {
        #expect(WriteScope.database.lockStatement(storeLock: 7).sql == "SELECT pg_advisory_lock(?)")
        #expect(WriteScope.contact(number: nil).lockStatement(storeLock: 7).sql == "SELECT pg_advisory_lock_shared(?)")
    }
}
