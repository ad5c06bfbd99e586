public import Foundation

/// A stored console session: whose it is and when it began and was last used. Found by the
/// SHA-256 of its token; the token (the browser's cookie) is never stored.
public struct ConsoleSessionRecord: Sendable, Hashable {
    public var operatorName: String
    /// The operator's role now (a change of role applies to sessions already open).
    public var role: OperatorRole
    public var createdAt: Date
    public var lastSeenAt: Date
}

extension StoreReader {
    /// The session whose token hashes to `tokenHash`, with its operator, or nil.
    public func consoleSession(tokenHash: Data) throws -> ConsoleSessionRecord? {
        let row = try db.row(
            sql: """
                SELECT operators.name, operators.role, console_sessions.created_at, console_sessions.last_seen_at
                FROM console_sessions JOIN operators ON operators.id = console_sessions.operator_id
                WHERE console_sessions.token_hash = ?
                """,
            arguments: [tokenHash])
        guard let row else { return nil }
        guard let role = OperatorRole(rawValue: row[1]) else {
            throw StoreError.corrupted("An operator row has an unknown role; restore the database from a backup.")
        }
        return ConsoleSessionRecord(
            operatorName: row[0], role: role, createdAt: Date(timeIntervalSince1970: row[2]),
            lastSeenAt: Date(timeIntervalSince1970: row[3]))
    }
}

extension StoreTransaction {
    /// Stores a new session for the operator `name`, created and last seen at `now`.
    public func addConsoleSession(tokenHash: Data, operatorNamed name: String, now: Date) throws {
        try db.execute(
            sql: """
                INSERT INTO console_sessions (token_hash, operator_id, created_at, last_seen_at)
                SELECT ?, id, ?, ? FROM operators WHERE name_key = ?
                """,
            arguments: [tokenHash, now.timeIntervalSince1970, now.timeIntervalSince1970, NameRules.key(for: name)])
        guard db.changesCount == 1 else { throw StoreError.invalidState("The operator was removed as the session began.") }
    }

    /// Records that the session was used at `now`.
    public func touchConsoleSession(tokenHash: Data, now: Date) throws {
        try db.execute(
            sql: "UPDATE console_sessions SET last_seen_at = ? WHERE token_hash = ?", arguments: [now.timeIntervalSince1970, tokenHash])
    }

    /// Ends one session; returns whether it existed.
    @discardableResult
    public func removeConsoleSession(tokenHash: Data) throws -> Bool {
        try db.execute(sql: "DELETE FROM console_sessions WHERE token_hash = ?", arguments: [tokenHash])
        return db.changesCount > 0
    }

    /// Ends every session of the operator `name`; returns how many there were.
    @discardableResult
    public func removeConsoleSessions(operatorNamed name: String) throws -> Int {
        try db.execute(
            sql: "DELETE FROM console_sessions WHERE operator_id IN (SELECT id FROM operators WHERE name_key = ?)",
            arguments: [NameRules.key(for: name)])
        return db.changesCount
    }

    /// Deletes sessions begun before `createdBefore` or idle since before `seenBefore`.
    @discardableResult
    public func pruneConsoleSessions(createdBefore: Date, seenBefore: Date) throws -> Int {
        try db.execute(
            sql: "DELETE FROM console_sessions WHERE created_at < ? OR last_seen_at < ?",
            arguments: [createdBefore.timeIntervalSince1970, seenBefore.timeIntervalSince1970])
        return db.changesCount
    }
}
