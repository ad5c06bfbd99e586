import Console
import Failures
import HTTPTypes

extension HTTPResponse.Status {
    /// The status the API answers an error of `category` with: the console's table
    /// (`ErrorCategory.httpStatus`), with the status's reason phrase.
    init(_ category: ErrorCategory) {
        let code = category.httpStatus
        self = Self.answered.first { $0.code == code } ?? HTTPResponse.Status(code: code)
    }

    /// Every status that table gives, each with its reason phrase.
    private static let answered: [HTTPResponse.Status] = [
        .unprocessableContent, .conflict, .notFound, .unauthorized, .forbidden, .tooManyRequests, .serviceUnavailable,
        .internalServerError,
    ]
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
