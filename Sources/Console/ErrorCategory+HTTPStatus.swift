public import Failures
import Operations

extension ErrorCategory {
    /// The one table from an error's category to the HTTP status both HTTP front ends answer
    /// with: the console's pages here, the API's problems through `HTTPAPI`, which mounts the
    /// console (docs/OPERATIONS.md, "HTTP API", lists it). The HTTP twin of the CLI's exit statuses.
    public var httpStatus: Int {
        switch self {
        case .invalidInput, .verificationFailed: 422
        case .conflict: 409
        case .notFound: 404
        case .authentication: 401
        case .forbidden: 403
        case .locked: 429
        case .unavailable, .busy: 503
        case .configuration, .corrupted, .storage, .internalFault: 500
        }
    }
}

extension CategorizedError {
    /// The category both HTTP front ends answer this error as: its own, except for a contact
    /// without a number (paired or not). That stays so until a person adds one, a conflict with
    /// the contact's state rather than an outage to wait out (a 503 with `Retry-After` has
    /// clients retry for ever); the CLI keeps its exit status for it (69).
    public var httpCategory: ErrorCategory {
        switch self as any Error {
        case ContactError.noNumber, ContactError.noNumberNorPairing: .conflict
        default: category
        }
    }

    /// The HTTP status for ``httpCategory``.
    public var httpStatus: Int { httpCategory.httpStatus }
}
