public import Foundation
public import Store

/// The console's operators: people who log in to the web console with their own name and
/// password, in one of three roles (``OperatorRole``). They never see or need the data
/// passphrase: the daemon holds the data key, and an operator's login only proves who they are.
///
/// Each operation is one store transaction; the Argon2id hash of a password is computed before
/// it, so a login or a new password never holds the store's write lock while hashing.
public enum Operators {
    /// The shortest password accepted.
    public static let minimumPasswordLength = 12
    /// The longest password accepted (a bound on the hashing work one request can ask for).
    public static let maximumPasswordLength = 1024

    /// Adds an operator with `role` and `password`.
    /// - Throws: ``OperatorError/weakPassword(_:)``; the store's errors for a bad or taken name.
    @discardableResult
    public static func add(_ name: String, role: OperatorRole, password: String, by actor: AuditActor, in store: UnlockedStore, now: Date)
        throws -> OperatorSummary
    {
        let verifier = try verifier(for: password, name: name)
        return try store.write { tx in
            let added = try tx.addOperator(name: name, role: role, password: verifier)
            try Audit.record(.operatorAdded, by: actor, target: "\(added.name) (\(role))", in: tx, now: now)
            return OperatorSummary(added, now: now)
        }
    }

    /// Every operator, by name.
    public static func list(in store: UnlockedStore, now: Date) throws -> [OperatorSummary] {
        try store.read { reader in try reader.operatorRecords().map { OperatorSummary($0, now: now) } }
    }

    /// One operator.
    public static func find(_ name: String, in store: UnlockedStore, now: Date) throws -> OperatorSummary {
        try store.read { reader in OperatorSummary(try record(name, in: reader), now: now) }
    }

    /// Sets a new password, lifts a lockout and ends the operator's console sessions.
    public static func setPassword(_ name: String, to password: String, by actor: AuditActor, in store: UnlockedStore, now: Date) throws {
        let verifier = try verifier(for: password, name: name)
        try store.write { tx in
            let current = try record(name, in: tx)
            try tx.updateOperator(current, OperatorChange(password: verifier, failedAttempts: 0, lockedUntil: .some(nil)))
            try tx.removeConsoleSessions(operatorNamed: current.name)
            try Audit.record(.operatorPasswordChanged, by: actor, target: current.name, in: tx, now: now)
        }
    }

    /// Gives the operator another role; the last admin cannot be made anything else.
    @discardableResult
    public static func setRole(_ name: String, to role: OperatorRole, by actor: AuditActor, in store: UnlockedStore, now: Date) throws
        -> OperatorSummary
    {
        try store.write { tx in
            let current = try record(name, in: tx)
            try requireAnotherAdmin(besides: current, in: tx, unless: role == .admin)
            let changed = try tx.updateOperator(current, OperatorChange(role: role))
            try Audit.record(.operatorRoleChanged, by: actor, target: "\(current.name) (\(current.role) → \(role))", in: tx, now: now)
            return OperatorSummary(changed, now: now)
        }
    }

    /// Deletes the operator and their sessions; the last admin cannot be deleted while other
    /// operators remain.
    public static func remove(_ name: String, by actor: AuditActor, in store: UnlockedStore, now: Date) throws {
        try store.write { tx in
            let current = try record(name, in: tx)
            let others = try tx.operatorRecords().count - 1
            try requireAnotherAdmin(besides: current, in: tx, unless: others == 0)
            try tx.removeOperator(named: current.name)
            try Audit.record(.operatorRemoved, by: actor, target: current.name, in: tx, now: now)
        }
    }

    /// Checks a new password against the rules: long enough, not absurdly long, not the name.
    /// A front end may call it before asking for anything else.
    public static func checkPassword(_ password: String, name: String) throws {
        if password.count < minimumPasswordLength {
            throw OperatorError.weakPassword(.tooShort(length: password.count, least: minimumPasswordLength))
        }
        if password.utf8.count > maximumPasswordLength {
            throw OperatorError.weakPassword(.tooLong(most: maximumPasswordLength))
        }
        let folded = { (text: String) in text.trimmingCharacters(in: .whitespaces).lowercased() }
        if folded(password).contains(folded(name)) && !folded(name).isEmpty {
            throw OperatorError.weakPassword(.containsName)
        }
    }

    /// The operator's row, or ``OperatorError/notFound(_:)``.
    static func record(_ name: String, in reader: StoreReader) throws -> OperatorRecord {
        guard let record = try reader.operatorRecord(named: name) else { throw OperatorError.notFound(name) }
        return record
    }

    private static func verifier(for password: String, name: String) throws -> Data {
        try checkPassword(password, name: name)
        return try OperatorPassword.verifier(for: password)
    }

    /// Throws ``OperatorError/lastAdmin(_:)`` when `record` is the only admin and the change would
    /// take that away (`unless` says the change keeps an admin anyway).
    private static func requireAnotherAdmin(besides record: OperatorRecord, in tx: StoreTransaction, unless allowed: Bool) throws {
        guard !allowed, record.role == .admin, try tx.operatorCount(role: .admin) <= 1 else { return }
        throw OperatorError.lastAdmin(record.name)
    }
}
