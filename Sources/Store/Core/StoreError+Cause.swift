extension StoreError {
    /// What made the database fail, from SQLite's primary result code or PostgreSQL's SQLSTATE:
    /// the storage (``isStorage``), a wait on other writers (``busy``), or smsgw's own statement.
    public enum Cause: Sendable, Hashable {
        /// Busy or locked for too long, or (PostgreSQL) a serialisation failure, a deadlock, a
        /// lock not granted in time: trying again can succeed.
        case busy
        /// The disk (or SQLite's page limit, or an exhausted AUTOINCREMENT key) has no room
        /// (`SQLITE_FULL`; PostgreSQL `53100` disk_full).
        case full
        /// The database or its file system takes no writes (`SQLITE_READONLY`; PostgreSQL
        /// `25006`, a standby or a read-only server).
        case readOnly
        /// The disk failed a read or a write (`SQLITE_IOERR`; PostgreSQL class `58`).
        case ioError
        /// The database file is damaged (`SQLITE_CORRUPT`, `SQLITE_NOTADB`; PostgreSQL `XX001`,
        /// `XX002`).
        case corrupt
        /// The database cannot be opened (`SQLITE_CANTOPEN`, `SQLITE_PERM`), or the PostgreSQL
        /// server cannot be reached, refused the connection, or closed it (class `08`, `57P0x`,
        /// `53300`, no SQLSTATE at all).
        case cannotOpen
        /// A statement broke one of the schema's rules (`SQLITE_CONSTRAINT`; PostgreSQL class
        /// `23`): a fault of smsgw, not of the storage.
        case constraint
        /// Anything else, most likely smsgw's own statement.
        case other

        /// Whether the storage itself refused (full, read-only, failing, damaged, unreachable),
        /// rather than the statement or a wait on other writers.
        public var isStorage: Bool {
            switch self {
            case .full, .readOnly, .ioError, .corrupt, .cannotOpen: true
            case .busy, .constraint, .other: false
            }
        }

        /// The cause of a PostgreSQL error with this SQLSTATE; nil (no answer from the server)
        /// is a connection that failed.
        static func postgres(sqlState state: String?) -> Cause {
            guard let state else { return .cannotOpen }
            switch state {
            case "40001", "40P01", "55P03": return .busy
            case "53100": return .full
            case "25006": return .readOnly
            case "XX001", "XX002": return .corrupt
            case "53300", "57P01", "57P02", "57P03", "3D000": return .cannotOpen
            default: break
            }
            switch state.prefix(2) {
            case "58": return .ioError
            case "08", "28": return .cannotOpen
            case "23": return .constraint
            default: return .other
            }
        }

        /// SQLite's failure (its `message`) as a sentence that says what to do.
        func sqliteSentence(_ message: String) -> String {
            switch self {
            case .busy:
                "The database stayed busy too long (\(message)); try again when the other smsgw process has finished."
            case .full:
                "The database cannot grow: its disk is full (\(message)); free space on the disk of the data directory, then try again."
            case .readOnly:
                "The database cannot be written: its file or its file system is read-only (\(message)); check the disk and the data directory's modes, then try again."
            case .ioError:
                "The disk failed a read or a write of the database (\(message)); check the disk and the system's log, then try again."
            case .corrupt:
                "The database file is damaged (\(message)); check the disk, then restore the last backup."
            case .cannotOpen:
                "The database cannot be opened (\(message)); check the data directory, its modes and the disk, then try again."
            case .constraint:
                "The database refused a change that breaks one of its rules (\(message)); that is a fault of smsgw, not of the disk: report it with the log."
            case .other:
                "The database reported an error (\(message)); check the disk and the data directory, then try again."
            }
        }

        /// The PostgreSQL server's failure (its words and SQLSTATE, or why the connection
        /// failed) as a sentence that says what to do.
        func serverSentence(_ message: String) -> String {
            switch self {
            case .busy:
                "The PostgreSQL server kept this transaction waiting on others too long (\(message)); try again when the other smsgw processes and nodes have finished."
            case .full:
                "The PostgreSQL server's disk is full (\(message)); free space on the server, then try again."
            case .readOnly:
                "The PostgreSQL server takes no writes (\(message)): it is a standby or set read-only; point the store's url at the primary, then try again."
            case .ioError, .corrupt:
                "The PostgreSQL server could not read or write its data (\(message)); check the server's disk and the server's log."
            case .constraint:
                "The PostgreSQL server refused a change that breaks one of the store's rules (\(message)); that is a fault of smsgw, not of the server: report it with the log."
            case .cannotOpen, .other:
                "The PostgreSQL server reported an error or could not be reached (\(message)); check that the server runs and accepts this node's connections, and the server's log, then try again."
            }
        }
    }
}
