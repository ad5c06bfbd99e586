public import Failures

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
