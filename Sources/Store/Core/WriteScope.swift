import Foundation

/// What a write transaction changes, so that on PostgreSQL writers on different contacts run at
/// once while writers on one contact take turns.
///
/// On SQLite every write transaction is alone (IMMEDIATE) and the scope changes nothing. On
/// PostgreSQL, before its snapshot is taken, a transaction holds:
///
/// | scope | the store's write lock | each named contact's lock |
/// |---|---|---|
/// | ``database`` | exclusive | – |
/// | ``contacts(named:numbers:)`` | shared | exclusive |
///
/// So two ratchet steps of one contact never overlap (on one node or two) and each starts from
/// the state the other committed; steps of different contacts overlap; and a transaction over
/// the whole database (adding or renaming a contact, a claim, a key rotation) waits for all of
/// them, and they for it. The locks are taken in one order (the store's lock, then contacts by
/// key), so they never deadlock, and by one statement (``lockStatement(storeLock:)``). Serialisable isolation stays on every write: a scope narrower
/// than what the body really touches costs a retry, never a wrong result.
///
/// A contact's lock is a PostgreSQL advisory lock keyed by the contact's id, not `SELECT … FOR
/// UPDATE` on its row: a row lock is taken inside the transaction, after its serialisable
/// snapshot, so the second of two steps would wait and then fail (its snapshot predates the
/// first's commit) instead of going on from the first's state.
public enum WriteScope: Sendable, Hashable {
    /// The whole database: one writer at a time, as on SQLite.
    case database
    /// Only the contacts with these names (compared without regard to case) or numbers (a
    /// contact's main number or one of its others) have their ratchet stepped; names and
    /// numbers no contact has lock nothing.
    case contacts(named: [String], numbers: [PhoneNumber])

    /// The contact with this name.
    public static func contact(named name: String) -> WriteScope {
        .contacts(named: [name], numbers: [])
    }

    /// The contact with this number, if any; a sender's SMS is processed under it.
    public static func contact(number: PhoneNumber?) -> WriteScope {
        .contacts(named: [], numbers: number.map { [$0] } ?? [])
    }

    /// The one statement that takes the scope's locks before a transaction begins: the store's
    /// write lock `storeLock` (exclusive for ``database``, else shared), then the lock of each
    /// contact found by name or number, in key order. It returns the contacts' keys.
    ///
    /// One round trip instead of one per lock plus the lookup's. The order is the plan's: the
    /// store's lock is the statement's one-time filter, evaluated before any row is read, and the
    /// contacts' locks are taken row by row over their keys sorted in a subquery that `OFFSET 0`
    /// keeps apart (no filter is pushed into it, so none is taken before its turn).
    ///
    /// The lookup reads the statement's snapshot, taken before the store's lock was granted: when
    /// the statement waited for a whole-database writer that added, renamed or renumbered a
    /// contact, it may miss that change. The transaction then runs without that contact's lock,
    /// and serialisable isolation turns an overlap with another step of it into a retry (as any
    /// scope narrower than its body), never into a second use of one ratchet step.
    func lockStatement(storeLock: Int64) -> (sql: String, arguments: StoreArguments) {
        guard let lookup = contactLookup() else {
            return (self == .database ? "SELECT pg_advisory_lock(?)" : "SELECT pg_advisory_lock_shared(?)", [storeLock])
        }
        let sql = """
            SELECT k.key FROM (\(lookup.sql) OFFSET 0) k
            WHERE (SELECT pg_advisory_lock_shared(?)) IS NOT NULL AND pg_advisory_lock(k.key) IS NOT NULL
            """
        return (sql, lookup.arguments + [storeLock])
    }

    /// The advisory lock keys of the contacts in scope, sorted, as ``lockStatement(storeLock:)``
    /// finds them (without taking any lock).
    func contactLockKeys(_ db: StoreDatabase) throws -> [Int64] {
        guard let lookup = contactLookup() else { return [] }
        return try db.values(Int64.self, sql: lookup.sql, arguments: lookup.arguments)
    }

    /// The query of the contacts' lock keys (``lockKey(for:)`` computed by the server from the id's
    /// first 8 hex digits), sorted and distinct; nil when the scope names no contact.
    private func contactLookup() -> (sql: String, arguments: StoreArguments)? {
        guard case .contacts(let names, let numbers) = self, !(names.isEmpty && numbers.isEmpty) else { return nil }
        let keys = names.map { NameRules.key(for: $0) }
        let e164 = numbers.map(\.e164)
        var clauses: [String] = []
        if !keys.isEmpty { clauses.append("name_key IN (\(Self.placeholders(keys.count)))") }
        if !e164.isEmpty {
            let list = Self.placeholders(e164.count)
            clauses.append("phone_number IN (\(list)) OR id IN (SELECT contact_id FROM contact_numbers WHERE phone_number IN (\(list)))")
        }
        let sql = """
            SELECT DISTINCT \(Self.contactLockSpace) | ('x' || substr(id, 1, 8))::bit(32)::bigint AS key FROM contacts
            WHERE \(clauses.joined(separator: " OR ")) ORDER BY key
            """
        return (sql, StoreArguments(keys + e164 + e164))
    }

    /// The advisory lock key of a contact: a name space of its own in the high half (apart from
    /// the store's write and migration locks), 32 bits of the contact's random id in the low half.
    /// Two contacts sharing a key only wait for each other.
    static func lockKey(for contact: UUID) -> Int64 {
        let bytes = contact.uuid
        let low = UInt32(bytes.0) << 24 | UInt32(bytes.1) << 16 | UInt32(bytes.2) << 8 | UInt32(bytes.3)
        return contactLockSpace | Int64(low)
    }

    /// The high half of every contact's lock key ("smsc").
    static let contactLockSpace: Int64 = 0x736d_7363 << 32

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}
