public import Failures
public import Foundation

/// Why an API token could not be made, found or used; never containing a token.
public enum APITokenError: CategorizedError, Sendable, Equatable {
    /// The name is empty, too long or has characters other than letters, digits, `-`, `_` and `.`.
    case invalidName
    /// A scope that is not send, read, admin or metrics.
    case unknownScope(String)
    /// No scope was given.
    case noScope
    /// An expiry that is not a positive duration.
    case invalidExpiry
    /// No token has this name.
    case notFound(String)
    /// The request carries no bearer token.
    case missing
    /// The token is not one the store knows (never issued, revoked, or mistyped).
    case invalid
    /// The token expired at the given time.
    case expired(Date)
    /// The token lacks the scope the request needs.
    case missingScope(APIScope)
    /// Too many failed authentications from one address: refused until the time.
    case throttled(until: Date)

    public var category: ErrorCategory {
        switch self {
        case .invalidName, .unknownScope, .noScope, .invalidExpiry: .invalidInput
        case .notFound: .notFound
        case .missing, .invalid, .expired: .authentication
        case .missingScope: .forbidden
        case .throttled: .locked
        }
    }

    public var description: String {
        switch self {
        case .invalidName:
            "A token name has 1 to 64 letters, digits, '-', '_' or '.'; choose such a name."
        case .unknownScope(let scope):
            "The scope \"\(scope)\" is unknown; use send, read, admin or metrics, comma-separated."
        case .noScope:
            "A token needs at least one scope; give send, read, admin or metrics, comma-separated."
        case .invalidExpiry:
            "The expiry must be a positive duration such as 30d, 12h or 90m."
        case .notFound(let name):
            "No API token is named \"\(name)\"; check the name against the list of tokens."
        case .missing:
            "The request has no token; send it in an Authorization: Bearer header."
        case .invalid:
            "The token is not valid (never issued, revoked, or mistyped); check it or ask for a new one."
        case .expired(let date):
            "The token expired at \(OperationsJSON.timestamp(date)); ask for a new one."
        case .missingScope(let scope):
            "The token lacks the \(scope.rawValue) scope this request needs; use a token that has it."
        case .throttled(let until):
            "Too many failed authentications from this address; try again after \(OperationsJSON.timestamp(until))."
        }
    }
}
