public import Failures

/// A text that cannot become a message, said before any key step is spent on it.
public enum MessageError: CategorizedError, Sendable, Equatable {
    /// Nothing, or only spaces and line breaks.
    case emptyText

    public var category: ErrorCategory { .invalidInput }

    public var description: String {
        switch self {
        case .emptyText: "The text is empty; give a message (nothing was encrypted and no key was used)."
        }
    }
}
