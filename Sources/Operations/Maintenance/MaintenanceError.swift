public import Failures

/// Why a maintenance operation (a backup, pruning the log) refused.
public enum MaintenanceError: Error, Sendable, Hashable {
    /// There is no database in the data directory to work on.
    case noDatabase(path: String)
    /// A negative age was given for pruning.
    case negativeAge(days: Int)
}

extension MaintenanceError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .noDatabase: .notFound
        case .negativeAge: .invalidInput
        }
    }

    public var description: String {
        switch self {
        case .noDatabase(let path): "There is no database at \(path); check the data directory."
        case .negativeAge(let days): "The age of \(days) days is negative; give a number of days ≥ 0."
        }
    }
}
