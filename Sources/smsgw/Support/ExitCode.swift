/// The exit statuses smsgw uses, from sysexits.h; documented in `smsgw --help` and docs/CLI.md.
enum CLIStatus: Int32, Sendable {
    /// EX_USAGE: the command line was wrong (swift-argument-parser uses it for validation errors
    /// too), or a confirmation (a repeated passphrase, a typed name) did not match.
    case usage = 64
    /// EX_DATAERR: a message failed verification, was a duplicate, or input was malformed.
    case dataError = 65
    /// EX_NOINPUT: the contact, account or input file does not exist.
    case notFound = 66
    /// EX_UNAVAILABLE: the command needs a modem or the daemon.
    case unavailable = 69
    /// EX_SOFTWARE: a fault of smsgw itself (a constraint its code should have kept).
    case internalFault = 70
    /// EX_IOERR: the database reported an I/O error.
    case ioError = 74
    /// EX_TEMPFAIL: try again later (another daemon serves the data directory).
    case temporaryFailure = 75
    /// EX_NOPERM: wrong passphrase, locked account, or no passphrase available.
    case authentication = 77
    /// EX_CONFIG: the data directory or configuration cannot be used.
    case configuration = 78
}

/// An error raised by the command-line layer itself: a sentence saying what to do, and a status.
struct CLIError: Error, Sendable, CustomStringConvertible {
    var message: String
    var status: CLIStatus

    init(_ message: String, status: CLIStatus) {
        self.message = message
        self.status = status
    }

    var description: String { message }
}
