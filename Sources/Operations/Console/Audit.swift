public import Foundation
public import Store

/// Who acts: an operator in the console, an API token, or the command line (whoever holds the
/// data passphrase on the machine).
public enum AuditActor: Sendable, Hashable {
    case `operator`(String)
    case token(String)
    case commandLine

    var kind: String {
        switch self {
        case .operator: "operator"
        case .token: "token"
        case .commandLine: "command-line"
        }
    }

    var name: String? {
        switch self {
        case .operator(let name), .token(let name): name
        case .commandLine: nil
        }
    }
}

/// What was done, as the audit list names it.
public enum AuditAction: String, Sendable, Hashable, CaseIterable, Codable {
    case login
    case logout
    case send
    case retry
    case resync
    case operatorAdded = "operator-added"
    case operatorRemoved = "operator-removed"
    case operatorRoleChanged = "operator-role-changed"
    case operatorPasswordChanged = "operator-password-changed"
    case operatorTwoFactorChanged = "operator-two-factor-changed"
    case tokenCreated = "token-created"
    case tokenRevoked = "token-revoked"
    case webhookRedelivered = "webhook-redelivered"
    case unconfirmedChecked = "unconfirmed-checked"
    case nodeForgotten = "node-forgotten"
}

/// How an audited action ended.
public enum AuditOutcome: String, Sendable, Hashable, Codable {
    /// It was done.
    case done
    /// The actor was not allowed to (a role or scope too small): refused before anything changed.
    case refused
    /// It was tried and failed (a wrong password, a locked operator).
    case failed
}

/// One entry of the audit list as every front end shows it.
///
/// JSON (``OperationsJSON``): `{"id","time","actor","actorName","action","target","outcome","address"}`,
/// every key always present.
public struct AuditEntry: Sendable, Hashable, Encodable {
    public var id: Int64
    public var time: Date
    /// `operator`, `token` or `command-line`.
    public var actor: String
    public var actorName: String?
    public var action: String
    public var target: String?
    public var outcome: String
    public var address: String?

    init(_ record: AuditRecord) {
        id = record.id
        time = record.time
        actor = record.actorKind
        actorName = record.actorName
        action = record.action
        target = record.target
        outcome = record.outcome
        address = record.address
    }

    private enum CodingKeys: String, CodingKey {
        case id, time, actor, actorName, action, target, outcome, address
    }

    /// Writes absent values as `null`, so every entry has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(time, forKey: .time)
        try container.encode(actor, forKey: .actor)
        try container.encode(actorName, forKey: .actorName)
        try container.encode(action, forKey: .action)
        try container.encode(target, forKey: .target)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(address, forKey: .address)
    }
}

/// The audit list: who did what (logins, sends, resyncs, token and operator changes), written in
/// the transaction of what it records, so an action and its line commit together. It never holds
/// a secret or a message text.
public enum Audit {
    /// The most characters of a target kept: a refusal's target is the path the client asked
    /// for, which a client can make as long as its server lets it.
    public static let targetLimit = 200

    /// The most refusals of one operator or token recorded within ``refusalWindow`` seconds:
    /// a client that repeats a refused request (a script with a token of too small a scope, a
    /// viewer's forged forms) cannot grow the list without bound; the first ones show what it tried.
    public static let refusalLimit = 10
    /// The seconds over which ``refusalLimit`` counts.
    public static let refusalWindow: TimeInterval = 60

    /// Appends a line in the caller's transaction; a target over ``targetLimit`` characters (scalars)
    /// is cut there and ends in `…`. A refusal beyond ``refusalLimit`` of its actor within
    /// ``refusalWindow`` is not written (the request is refused all the same).
    public static func record(
        _ action: AuditAction, by actor: AuditActor, target: String? = nil, outcome: AuditOutcome = .done, address: String? = nil,
        in tx: StoreTransaction, now: Date
    ) throws {
        if outcome == .refused {
            let recent = try tx.recentRefusals(
                actorKind: actor.kind, actorName: actor.name, since: now.addingTimeInterval(-refusalWindow), among: 1000)
            if recent >= refusalLimit { return }
        }
        let kept = target.map { $0.unicodeScalars.count > targetLimit ? String($0.unicodeScalars.prefix(targetLimit - 1)) + "…" : $0 }
        try tx.appendAudit(
            AuditRecord(
                time: now, actorKind: actor.kind, actorName: actor.name, action: action.rawValue, target: kept, outcome: outcome.rawValue,
                address: address))
    }

    /// Appends a line in a transaction of its own (an action refused before any change, or one
    /// whose operation committed on its own).
    public static func record(
        _ action: AuditAction, by actor: AuditActor, target: String? = nil, outcome: AuditOutcome = .done, address: String? = nil,
        in store: UnlockedStore, now: Date
    ) throws {
        try store.write { tx in try record(action, by: actor, target: target, outcome: outcome, address: address, in: tx, now: now) }
    }

    /// The newest lines first, at most `limit`, older than the line `before` when given (the next page).
    public static func list(limit: Int = 100, before: Int64? = nil, in store: UnlockedStore) throws -> [AuditEntry] {
        try store.read { reader in try reader.auditRecords(limit: max(1, min(limit, 1000)), before: before).map(AuditEntry.init) }
    }
}
