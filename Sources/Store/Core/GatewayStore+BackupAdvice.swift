public import Failures

extension GatewayStore.CopyFailure {
    /// What to do about the directory a copy goes to after the database failed to write it
    /// there (``write(_:)``): about that directory's disk, not the data directory's, but for a
    /// store that could not be read whole. A backup an operator asked for and the daemon's
    /// automatic ones give the same advice.
    public static func advice(_ cause: StoreError.Cause?) -> String {
        switch cause {
        case .full: "its disk is full: free space on it"
        case .ioError: "its disk failed a write: check the disk and the system's log"
        case .readOnly: "its file system is read-only: make it writable again"
        case .corrupt: "the store could not be read whole: check the disk of the data directory"
        default: "check the directory and its disk"
        }
    }
}

/// A backup an operator asked for that the database could not write to its disk (full, failing,
/// read-only): said of the backup's disk, where the store's own sentence names the data
/// directory's.
public struct BackupWriteError: CategorizedError, Sendable, Equatable {
    /// The backup's path.
    public var path: String
    /// The database's failure.
    public var error: StoreError

    /// The failure when it is about the disk the copy goes to, else nil (the store's own
    /// sentence fits: busy, a damaged store).
    public init?(path: String, error: StoreError) {
        guard let cause = error.cause, [.full, .ioError, .readOnly].contains(cause) else { return nil }
        self.path = path
        self.error = error
    }

    public var category: ErrorCategory { error.category }

    public var description: String {
        "The backup \(path) could not be written (\(error.databaseFailure ?? "\(error)")); \(GatewayStore.CopyFailure.advice(error.cause)), then try again."
    }
}
