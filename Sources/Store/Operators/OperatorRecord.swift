public import Foundation

/// A stored operator of the console: a name, a role, a password verifier and, once enrolled, a
/// second factor (both sealed under the data key, bound to the row), and the login lockout.
///
/// The operations layer defines what the second factor's blobs contain and the rules around them;
/// the store keeps them safe and answers by name under its own name comparison (trimmed, NFC,
/// case- and width-folded).
public struct OperatorRecord: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var name: String
    public var role: OperatorRole
    /// The decrypted password verifier (``OperatorPassword``).
    public var password: Data
    /// The decrypted second-factor enrolment and its verification state, once enrolled.
    public var secondFactor: SecondFactorEnrolment?
    /// Consecutive failed logins since the last success.
    public var failedAttempts: Int
    public var lockedUntil: Date?
    public var lastLoginAt: Date?
    public var createdAt: Date
    public var updatedAt: Date
}

extension OperatorRecord: CustomStringConvertible, CustomReflectable {
    /// Never shows the verifier or the second factor.
    public var description: String { "OperatorRecord(name: \(name), role: \(role))" }
    public var customMirror: Mirror { Mirror(self, children: ["id": id, "name": name, "role": role]) }
}

/// A change to an operator's row; nil leaves a field as it is.
public struct OperatorChange: Sendable {
    public var role: OperatorRole?
    public var password: Data?
    /// `.some(nil)` removes the second factor.
    public var secondFactor: SecondFactorEnrolment??
    public var failedAttempts: Int?
    /// `.some(nil)` clears the lock.
    public var lockedUntil: Date??
    public var lastLoginAt: Date?

    public init(
        role: OperatorRole? = nil, password: Data? = nil, secondFactor: SecondFactorEnrolment?? = nil, failedAttempts: Int? = nil,
        lockedUntil: Date?? = nil, lastLoginAt: Date? = nil
    ) {
        self.role = role
        self.password = password
        self.secondFactor = secondFactor
        self.failedAttempts = failedAttempts
        self.lockedUntil = lockedUntil
        self.lastLoginAt = lastLoginAt
    }
}

extension StoreReader {
    /// The operator with this name (under the store's name comparison), or nil.
    public func operatorRecord(named name: String) throws -> OperatorRecord? {
        try db.row(sql: "SELECT * FROM operators WHERE name_key = ?", arguments: [NameRules.key(for: name)])
            .map(operatorRecord)
    }

    /// Every operator, by name.
    public func operatorRecords() throws -> [OperatorRecord] {
        try db.rows(sql: "SELECT * FROM operators ORDER BY name_key").map(operatorRecord)
    }

    /// How many operators hold `role`.
    public func operatorCount(role: OperatorRole) throws -> Int {
        try db.value(Int.self, sql: "SELECT COUNT(*) FROM operators WHERE role = ?", arguments: [role.rawValue]) ?? 0
    }

    private func operatorRecord(_ row: StoreRow) throws -> OperatorRecord {
        let id = try UUID.fromStore(row["id"])
        let secret: Data? = row["second_factor"]
        let state: Data? = row["second_factor_state"]
        let lockedUntil: Double? = row["locked_until"]
        let lastLogin: Double? = row["last_login_at"]
        guard let role = OperatorRole(rawValue: row["role"]) else {
            throw StoreError.corrupted("An operator row has an unknown role; restore the database from a backup.")
        }
        return OperatorRecord(
            id: id, name: row["name"], role: role,
            password: try dataKey.open(row["password"], for: .operatorPassword(id)),
            secondFactor: try secret.map { sealed throws(StoreError) in
                SecondFactorEnrolment(
                    secret: try dataKey.open(sealed, for: .operatorSecondFactor(id)),
                    state: try state.map { blob throws(StoreError) in try dataKey.open(blob, for: .operatorSecondFactorState(id)) })
            },
            failedAttempts: row["failed_attempts"],
            lockedUntil: lockedUntil.map(Date.init(timeIntervalSince1970:)),
            lastLoginAt: lastLogin.map(Date.init(timeIntervalSince1970:)),
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            updatedAt: Date(timeIntervalSince1970: row["updated_at"])
        )
    }
}

extension StoreTransaction {
    /// Adds an operator.
    /// - Throws: ``StoreError/invalidInput(_:)`` for a bad name, ``StoreError/alreadyExists(_:)``.
    @discardableResult
    public func addOperator(name: String, role: OperatorRole, password: Data) throws -> OperatorRecord {
        let (name, key) = try NameRules.validate(name, what: "operator")
        if try db.value(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM operators WHERE name_key = ?)", arguments: [key]) == true {
            throw StoreError.alreadyExists("An operator named \"\(name)\" already exists; choose another name.")
        }
        let id = UUID()
        try db.execute(
            sql: """
                INSERT INTO operators (id, name, name_key, role, password, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                id.storeString, name, key, role.rawValue, try dataKey.seal(password, for: .operatorPassword(id)), now, now,
            ]
        )
        guard let record = try operatorRecord(named: name) else { throw StoreError.corrupted("An operator vanished as it was added.") }
        return record
    }

    /// Applies `change` to the operator `record` and returns the row as stored.
    @discardableResult
    public func updateOperator(_ record: OperatorRecord, _ change: OperatorChange) throws -> OperatorRecord {
        var next = record
        if let role = change.role { next.role = role }
        if let password = change.password { next.password = password }
        if let secondFactor = change.secondFactor { next.secondFactor = secondFactor }
        if let failures = change.failedAttempts { next.failedAttempts = failures }
        if let lockedUntil = change.lockedUntil { next.lockedUntil = lockedUntil }
        if let lastLogin = change.lastLoginAt { next.lastLoginAt = lastLogin }
        next.updatedAt = Date(timeIntervalSince1970: now)
        let id = record.id
        try db.execute(
            sql: """
                UPDATE operators SET role = ?, password = ?, second_factor = ?, second_factor_state = ?,
                    failed_attempts = ?, locked_until = ?, last_login_at = ?, updated_at = ?
                WHERE id = ?
                """,
            arguments: [
                next.role.rawValue, try dataKey.seal(next.password, for: .operatorPassword(id)),
                try next.secondFactor.map { factor throws(StoreError) in try dataKey.seal(factor.secret, for: .operatorSecondFactor(id)) },
                try next.secondFactor?.state.map { state throws(StoreError) in
                    try dataKey.seal(state, for: .operatorSecondFactorState(id))
                },
                next.failedAttempts, next.lockedUntil?.timeIntervalSince1970, next.lastLoginAt?.timeIntervalSince1970, now,
                id.storeString,
            ]
        )
        return next
    }

    /// Deletes an operator; returns false when there was none by that name.
    @discardableResult
    public func removeOperator(named name: String) throws -> Bool {
        try db.execute(sql: "DELETE FROM operators WHERE name_key = ?", arguments: [NameRules.key(for: name)])
        return db.changesCount > 0
    }
}
