import Failures
import HTTPTypes

extension HTTPResponse.Status {
    /// The one table from an error's category to the HTTP status the API answers with
    /// (docs/OPERATIONS.md, "HTTP API", lists it): the HTTP twin of the CLI's exit statuses.
    init(_ category: ErrorCategory) {
        switch category {
        case .invalidInput, .verificationFailed: self = .unprocessableContent  // 422
        case .conflict: self = .conflict  // 409
        case .notFound: self = .notFound  // 404
        case .authentication: self = .unauthorized  // 401
        case .forbidden: self = .forbidden  // 403
        case .locked: self = .tooManyRequests  // 429
        case .unavailable, .busy: self = .serviceUnavailable  // 503
        case .configuration, .corrupted, .storage: self = .internalServerError  // 500
        }
    }
}

extension ErrorCategory {
    /// Seconds a client should wait before trying again, for the categories that pass.
    var retryAfter: Int? {
        switch self {
        case .busy: 1
        case .unavailable: 30
        default: nil
        }
    }

    /// The problem type's last part: the category in kebab case (`invalid-input`).
    var slug: String {
        rawValue.reduce(into: "") { result, character in
            if character.isUppercase { result += "-" + character.lowercased() } else { result.append(character) }
        }
    }
}
