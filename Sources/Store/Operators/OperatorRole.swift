/// What an operator of the console may do: each role may do everything the one before it may.
///
/// - viewer: read the log, the status and the contacts.
/// - operator: also send, retry and start or accept a resync.
/// - admin: also manage operators, API tokens and webhooks.
public enum OperatorRole: String, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    case viewer
    case `operator`
    case admin

    /// Whether this role may do what `required` may.
    public func allows(_ required: OperatorRole) -> Bool { self >= required }

    public static func < (lhs: OperatorRole, rhs: OperatorRole) -> Bool { lhs.rank < rhs.rank }

    public var description: String { rawValue }

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .operator: 1
        case .admin: 2
        }
    }
}
