public import Failures

/// Why an API send was refused before or instead of queueing.
public enum SubmissionError: CategorizedError, Sendable, Equatable {
    /// The idempotency key is empty, over 255 characters, or not printable ASCII.
    case invalidKey
    /// The idempotency key was used before for a different request.
    case keyReused
    /// The outbox holds `limit` queued messages already.
    case queueFull(limit: Int)

    public var category: ErrorCategory {
        switch self {
        case .invalidKey: .invalidInput
        case .keyReused: .conflict
        case .queueFull: .busy
        }
    }

    public var description: String {
        switch self {
        case .invalidKey:
            "An idempotency key has 1 to 255 printable ASCII characters; use a UUID, for example."
        case .keyReused:
            "This idempotency key was already used for a different message; use a new key for a new message (nothing was queued)."
        case .queueFull(let limit):
            "The outbox already holds \(limit) queued messages; try again once the modems have sent some (nothing was queued)."
        }
    }
}
