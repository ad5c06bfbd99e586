public import Foundation
public import Store

extension Operators {
    /// An operator's login: the name, the password and, when the operator has two-factor login
    /// on, the current code, checked with the lockout of ``LockoutPolicy``.
    ///
    /// The answer never says which of name and password was wrong, and a name that does not exist
    /// costs the same hashing as one that does. A locked operator is refused before the password
    /// is checked. The attempt is counted in a transaction before the password is hashed (outside
    /// any transaction, so no login holds the write lock while hashing); the verdict (the count
    /// taken back, the code's replay state, the last login) is written in a second transaction
    /// that reads the row again, so concurrent attempts count one by one and a code is accepted
    /// once.
    ///
    /// - Throws: ``OperatorError/loginFailed``, ``OperatorError/codeRequired`` (the password was
    ///   right; nothing counted), ``OperatorError/codeRejected``, ``OperatorError/codeReplayed`` (the
    ///   password was right and the code already used; audited as failed, not counted),
    ///   ``OperatorError/lockedOut(until:)``. Failures and refusals
    ///   are audited with `address`; a success is audited when its session starts
    ///   (``ConsoleSessions/start(for:address:in:now:using:)``).
    public static func authenticate(
        _ name: String, password: String, code: String?, address: String? = nil, in store: UnlockedStore, now: Date,
        policy: LockoutPolicy = .standard
    ) throws -> AuthenticatedOperator {
        guard password.utf8.count <= maximumPasswordLength, let found = try store.read({ try $0.operatorRecord(named: name) }) else {
            OperatorPassword.spendCheck(String(password.prefix(maximumPasswordLength)))
            throw OperatorError.loginFailed
        }
        // Counted as a failure before the slow hash, as the account's unlock is: parallel guesses
        // each count, and a guess cut short still counts. A success takes it back.
        let before = try store.write { tx -> Result<OperatorRecord, OperatorError> in
            let current = try record(found.name, in: tx)
            if let until = current.lockedUntil, until > now {
                try Audit.record(.login, by: .operator(current.name), outcome: .refused, address: address, in: tx, now: now)
                return .failure(.lockedOut(until: until))
            }
            let failures = current.failedAttempts + 1
            let lock = policy.lockDuration(afterFailures: failures).map { now.addingTimeInterval($0) }
            try tx.updateOperator(current, OperatorChange(failedAttempts: failures, lockedUntil: .some(lock)))
            return .success(current)
        }.get()
        let passwordRight = try OperatorPassword.matches(password, verifier: found.password)
        return try store.write { tx -> Result<AuthenticatedOperator, OperatorError> in
            let current = try record(found.name, in: tx)
            let failed = { (error: OperatorError) throws -> Result<AuthenticatedOperator, OperatorError> in
                try Audit.record(.login, by: .operator(current.name), outcome: .failed, address: address, in: tx, now: now)
                return .failure(error)
            }
            guard passwordRight else { return try failed(.loginFailed) }
            guard let enrolment = current.secondFactor else {
                try tx.updateOperator(current, OperatorChange(failedAttempts: 0, lockedUntil: .some(nil), lastLoginAt: now))
                return .success(AuthenticatedOperator(name: current.name, role: current.role))
            }
            // The password was right: an attempt that is no guess (no code asked for yet, the
            // owner's used code again) is taken back, with the lock it set (a lock that had
            // ended must not start again); what attempts meanwhile counted stays.
            let takenBack = { (stored: SecondFactorEnrolment?) in
                let lock = current.failedAttempts == before.failedAttempts + 1 ? before.lockedUntil : current.lockedUntil
                try tx.updateOperator(
                    current,
                    OperatorChange(
                        secondFactor: stored.map { .some($0) }, failedAttempts: max(0, current.failedAttempts - 1), lockedUntil: .some(lock)
                    ))
            }
            guard let code else {
                try takenBack(nil)
                return .failure(.codeRequired)
            }
            let verdict = try check(code, against: enrolment, name: current.name, now: now)
            let stored = SecondFactorEnrolment(secret: enrolment.secret, state: verdict.state ?? enrolment.state)
            if let failure = verdict.failure {
                guard failure.countsTowardLockout else {
                    try takenBack(stored)
                    return try failed(.codeReplayed)
                }
                try tx.updateOperator(current, OperatorChange(secondFactor: .some(stored)))
                return try failed(.codeRejected)
            }
            try tx.updateOperator(
                current, OperatorChange(secondFactor: .some(stored), failedAttempts: 0, lockedUntil: .some(nil), lastLoginAt: now))
            return .success(AuthenticatedOperator(name: current.name, role: current.role))
        }.get()
    }

    /// Checks `code` against the operator's enrolment, as the account's login does.
    private static func check(_ code: String, against enrolment: SecondFactorEnrolment, name: String, now: Date) throws
        -> SecondFactorVerdict
    {
        do {
            return try TwoFactorLogin.check(code: code, now: now)(enrolment)
        } catch AccountError.twoFactorUnreadable {
            throw OperatorError.twoFactorUnreadable(name)
        }
    }
}
