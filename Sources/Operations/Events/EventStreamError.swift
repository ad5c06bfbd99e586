public import Failures

/// Why the event stream cannot resume where a client asked.
public enum EventStreamError: CategorizedError, Sendable, Equatable {
    /// The cursor is beyond every event this store has handed out: it came from another store or
    /// from this one before a backup was restored, and resuming after it would skip every event
    /// up to it without a word.
    case cursorAhead(Int64)

    public var category: ErrorCategory { .conflict }

    public var description: String {
        switch self {
        case .cursorAhead(let id):
            "The event id \(id) is ahead of every event of this store (it comes from a restored backup or another store); "
                + "start again without Last-Event-ID or after, and read what was missed from the message list."
        }
    }
}
