public import Failures

/// A cursor a client kept that this store never handed out: it came from another store, or from
/// this one before a backup was restored. Going on from it would skip, without a word, everything
/// up to it, or wait at it while new ids are given below it; so it is refused instead.
public enum CursorError: CategorizedError, Sendable, Equatable {
    /// An event stream's resume id (`Last-Event-ID`, `after`) beyond every event of the store.
    case eventAhead(Int64)
    /// A message page's `after` beyond every message id of the store.
    case messageAhead(Int64)

    public var category: ErrorCategory { .conflict }

    public var description: String {
        switch self {
        case .eventAhead(let id):
            "The event id \(id) is ahead of every event of this store (it comes from a restored backup or another store); "
                + "start again without Last-Event-ID or after, and read what was missed from the message list."
        case .messageAhead(let id):
            "The cursor \(id) is ahead of every message of this store (it comes from a restored backup or another store); "
                + "start again from the first page, without after."
        }
    }
}
