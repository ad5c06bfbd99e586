public import Failures
public import Store
import SystemCalls

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension AutomaticBackups {
    /// Why an automatic backup failed, in the daemon's own words: which file in which directory,
    /// the system's or the database's reason, and what to do about the directory or its disk.
    public struct Failure: CategorizedError, Sendable, Equatable {
        /// The backup's file name.
        public var file: String
        /// The backup directory.
        public var directory: String
        /// What failed.
        public var cause: Cause

        public enum Cause: Sendable, Equatable {
            /// A file of the backup's name was there already (not one of this daemon's).
            case exists
            /// The copy failed.
            case copy(GatewayStore.CopyFailure)
        }

        public init(file: String, directory: String, cause: Cause) {
            self.file = file
            self.directory = directory
            self.cause = cause
        }

        public var category: ErrorCategory {
            switch cause {
            case .exists: .conflict
            case .copy(.create(let error)), .copy(.name(let error)): error.category
            case .copy(.write(let error)): error.category
            }
        }

        public var description: String {
            let backup = "The automatic backup \(file)"
            switch cause {
            case .exists:
                return
                    "\(backup) could not be written: \(directory) holds a file of that name already, which is not this daemon's; the next attempt takes another name."
            case .copy(.name(let error)) where error.code == EEXIST:
                return
                    "\(backup) could not be named: a file of that name appeared in \(directory) while it was written; the next attempt takes another name."
            case .copy(.create(let error)):
                return "\(backup) could not be created in \(directory) (\(error.reason)); \(Self.advice(error.code))."
            case .copy(.name(let error)):
                return "\(backup) could not be named in \(directory) (\(error.reason)); \(Self.advice(error.code))."
            case .copy(.write(let error)):
                return
                    "\(backup) could not be written in \(directory) (\(error.databaseFailure ?? "\(error)")); \(GatewayStore.CopyFailure.advice(error.cause))."
            }
        }

        /// What to do about the directory after a system call in it failed with `code`.
        private static func advice(_ code: Int32) -> String {
            switch code {
            case ENOENT: "the directory is gone: make it again, or mount the disk it is on"
            case ENOSPC, EDQUOT, EFBIG: "its disk is full: free space on it"
            case EACCES, EPERM: "the daemon's user may not write there: give it the directory again"
            case EROFS: "its file system is read-only: make it writable again"
            default: "check the directory and its disk"
            }
        }
    }
}
