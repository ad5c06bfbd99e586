public import Foundation
public import Store

/// The unlock sequence every front end runs, in two steps so that it can ask for what is needed
/// in between (a prompt, a form, a request field).
///
/// ``begin(_:now:)`` checks that an account exists and is not locked, before anyone is asked for
/// a passphrase (a locked account should not ask for one it will refuse), and says whether a
/// code is needed. ``unlock(passphrase:code:now:)`` then takes the passphrase and the code as
/// values. The front end asks for the code whenever ``requiresCode`` says so, before calling and
/// whatever the passphrase: so nobody types while the unlock lock is held, and the question says
/// nothing about whether the passphrase was right. The errors stay distinct: a wrong passphrase
/// (``StoreError/authenticationFailed(remainingAttempts:)``), a wrong or replayed code
/// (``StoreError/secondFactorFailed(_:remainingAttempts:)``), a lock
/// (``StoreError/lockedOut(until:)``), and each failure counts against the lockout.
public struct Login: Sendable {
    /// The store being unlocked.
    public let gateway: GatewayStore
    /// Whether two-factor login is on, so the front end must give a code with the passphrase.
    public let requiresCode: Bool

    /// Checks that the account exists and is not locked, and whether it wants a code.
    ///
    /// - Throws: ``AccountError/noAccount(directory:)``; ``StoreError/lockedOut(until:)`` while
    ///   locked at `now`.
    public static func begin(_ gateway: GatewayStore, now: Date) throws -> Login {
        guard try gateway.accountExists else { throw AccountError.noAccount(directory: gateway.directory.path) }
        if let until = try gateway.lockedUntil(now: now) { throw StoreError.lockedOut(until: until) }
        return Login(gateway: gateway, requiresCode: try gateway.twoFactorEnabled)
    }

    /// Unlocks the account with the passphrase and, when ``requiresCode``, the code.
    ///
    /// The unlock holds the unlock lock (``Store/GatewayStore/withUnlockLock(_:)``: one unlock
    /// at a time across processes, the daemon and other nodes too, so parallel right passphrases
    /// never trip the lockout). The code is compared only once the
    /// passphrase proved right, in the transaction that stores its new verification state, so a
    /// code is accepted at most once across processes.
    ///
    /// - Parameters:
    ///   - passphrase: The account passphrase.
    ///   - code: The current code from the authenticator, or nil when none was asked for.
    ///   - now: The time of the attempt: the lockout's clock and the code's.
    /// - Throws: ``AccountError/codeRequired`` when a code is needed and `code` is nil (before
    ///   the passphrase is checked), and the store's errors listed on ``Login``.
    public func unlock(passphrase: String, code: String?, now: Date) throws -> UnlockedStore {
        if requiresCode && code == nil { throw AccountError.codeRequired }
        let check = code.map { TwoFactorLogin.check(code: $0, now: now) }
        return try gateway.withUnlockLock {
            try gateway.unlock(passphrase: passphrase, now: now, secondFactor: check)
        }
    }
}

/// A passphrase and, when two-factor login is on, a code, as a front end asked for them (a
/// restore unlocks the backup with them and tries the replaced store with the same).
public struct LoginCredentials: Sendable {
    public var passphrase: String
    public var code: String?

    public init(passphrase: String, code: String?) {
        self.passphrase = passphrase
        self.code = code
    }
}
