import Crypto
public import Foundation
public import Store

/// How long a console session lives.
public struct ConsoleSessionPolicy: Sendable, Hashable {
    /// Unused this long, a session ends.
    public var idle: TimeInterval
    /// This long after login, a session ends however busy.
    public var absolute: TimeInterval
    /// A session's last use is written at most this often (not on every request).
    public var touchInterval: TimeInterval

    public init(idle: TimeInterval, absolute: TimeInterval, touchInterval: TimeInterval) {
        self.idle = idle
        self.absolute = absolute
        self.touchInterval = touchInterval
    }

    /// 30 minutes idle, 12 hours in all, last use written once a minute.
    public static let standard = ConsoleSessionPolicy(idle: 30 * 60, absolute: 12 * 3600, touchInterval: 60)
}

/// A signed-in operator's session, as a request finds it.
public struct ConsoleSession: Sendable, Hashable {
    public var operatorName: String
    /// The operator's role now: a change of role applies to open sessions at once.
    public var role: OperatorRole
    /// The token forms must carry with the cookie (``ConsoleSessions/checkCSRF(_:token:)``).
    public var csrfToken: String
    public var createdAt: Date
}

/// Console sessions: a random 256-bit token in the browser's cookie, only its SHA-256 in the
/// store; idle and absolute timeouts; ended by logout, by a new password and by removing the
/// operator. Each form also carries a CSRF token derived from the session's token (an HMAC), so
/// nothing more is stored and it changes with every session.
public enum ConsoleSessions {
    /// Starts a session for an operator who just authenticated, and audits the login.
    /// - Returns: The token for the cookie (shown nowhere else) and the session.
    public static func start(
        for who: AuthenticatedOperator, address: String?, in store: UnlockedStore, now: Date, using rng: inout some RandomNumberGenerator
    ) throws -> (token: String, session: ConsoleSession) {
        let token = randomToken(using: &rng)
        try store.write { tx in
            try tx.addConsoleSession(tokenHash: hash(token), operatorNamed: who.name, now: now)
            try Audit.record(.login, by: .operator(who.name), address: address, in: tx, now: now)
        }
        let session = ConsoleSession(operatorName: who.name, role: who.role, csrfToken: csrfToken(for: token), createdAt: now)
        return (token, session)
    }

    /// The session the cookie's `token` names, if it is still alive at `now`.
    /// - Throws: ``OperatorError/notSignedIn`` for an unknown, ended or expired session (an
    ///   expired one is deleted).
    public static func resume(_ token: String, in store: UnlockedStore, now: Date, policy: ConsoleSessionPolicy = .standard) throws
        -> ConsoleSession
    {
        let tokenHash = hash(token)
        guard let record = try store.read({ try $0.consoleSession(tokenHash: tokenHash) }) else { throw OperatorError.notSignedIn }
        let expired = now.timeIntervalSince(record.createdAt) > policy.absolute || now.timeIntervalSince(record.lastSeenAt) > policy.idle
        if expired || now.timeIntervalSince(record.lastSeenAt) >= policy.touchInterval {
            try store.write { tx in
                if expired {
                    try tx.removeConsoleSession(tokenHash: tokenHash)
                } else {
                    try tx.touchConsoleSession(tokenHash: tokenHash, now: now)
                }
            }
        }
        if expired { throw OperatorError.notSignedIn }
        return ConsoleSession(
            operatorName: record.operatorName, role: record.role, csrfToken: csrfToken(for: token), createdAt: record.createdAt)
    }

    /// The role of the operator whose session the cookie's `token` names, when it is alive at
    /// `now` (nil otherwise), without recording a use: an open live log asks before each event it
    /// sends, so that signing out, a new password, a removed operator or a timeout ends the
    /// stream too, a changed role changes what it shows, and watching does not keep a session
    /// alive.
    public static func liveRole(_ token: String, in store: UnlockedStore, now: Date, policy: ConsoleSessionPolicy = .standard)
        -> OperatorRole?
    {
        guard let record = try? store.read({ try $0.consoleSession(tokenHash: hash(token)) }) else { return nil }
        let live = now.timeIntervalSince(record.createdAt) <= policy.absolute && now.timeIntervalSince(record.lastSeenAt) <= policy.idle
        return live ? record.role : nil
    }

    /// Logout: ends the session and audits it. Ending one that is already gone is no error.
    public static func end(_ token: String, address: String?, in store: UnlockedStore, now: Date) throws {
        let tokenHash = hash(token)
        try store.write { tx in
            guard let record = try tx.consoleSession(tokenHash: tokenHash) else { return }
            try tx.removeConsoleSession(tokenHash: tokenHash)
            try Audit.record(.logout, by: .operator(record.operatorName), address: address, in: tx, now: now)
        }
    }

    /// Deletes every session past its timeouts at `now` (housekeeping).
    @discardableResult
    public static func prune(in store: UnlockedStore, now: Date, policy: ConsoleSessionPolicy = .standard) throws -> Int {
        try store.write { tx in
            try tx.pruneConsoleSessions(
                createdBefore: now.addingTimeInterval(-policy.absolute), seenBefore: now.addingTimeInterval(-policy.idle))
        }
    }

    /// Whether `given` (a form's field) is the CSRF token of the session `token` names, compared
    /// in constant time.
    public static func checkCSRF(_ given: String, token: String) -> Bool {
        tokensMatch(given, csrfToken(for: token))
    }

    /// Whether two tokens are equal, compared in constant time for tokens of one length.
    public static func tokensMatch(_ given: String, _ expected: String) -> Bool {
        let expected = Array(expected.utf8)
        let offered = Array(given.utf8)
        guard offered.count == expected.count, !expected.isEmpty else { return false }
        return zip(offered, expected).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The CSRF token of a session: HMAC-SHA256 of a fixed label under the session's token.
    static func csrfToken(for token: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("smsgw console csrf".utf8), using: SymmetricKey(data: Data(token.utf8)))
        return base64URL(Data(mac))
    }

    /// The SHA-256 of a token: what the store keeps.
    static func hash(_ token: String) -> Data { Data(SHA256.hash(data: Data(token.utf8))) }

    /// 32 random bytes, base64url without padding (43 characters).
    public static func randomToken(using rng: inout some RandomNumberGenerator) -> String {
        base64URL(Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &rng) }))
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
