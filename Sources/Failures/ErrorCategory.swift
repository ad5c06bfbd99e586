/// What kind of failure an error is, in words no front end owns: the CLI maps a category to a
/// sysexits(3) status, the HTTP API to a status code, the console to a message box.
///
/// Errors below the front ends (Store, Gateway, Operations) say what happened in a sentence a
/// person can act on, and their category; they never name a command of a front end.
public enum ErrorCategory: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The input is malformed or does not fit: a text that is too long or not GSM-7, a code that
    /// does not parse, a name or number the store refuses.
    case invalidInput
    /// A message did not verify: altered, forged, a replay, a duplicate, too far ahead.
    case verificationFailed
    /// The thing's state does not allow it: already exists, not paired yet, already paired, a
    /// request waiting for a decision.
    case conflict
    /// The named thing (contact, message, account, entry) does not exist.
    case notFound
    /// Something the operation needs is missing or not running: a modem, the daemon, a number.
    case unavailable
    /// The passphrase or the second factor is missing or wrong.
    case authentication
    /// The caller is known but not allowed to do this: an API token without the scope it needs.
    case forbidden
    /// Too many failures: refused until a time the sentence gives.
    case locked
    /// The configuration, the data directory or the database cannot be used as it is.
    case configuration
    /// The store stayed busy (another process's transaction): try again shortly.
    case busy
    /// Stored data failed its integrity check: the file was altered or belongs to another account.
    case corrupted
    /// The disk or the database reported an error.
    case storage
    /// A fault of smsgw itself, not of the input, the disk or the configuration: the database
    /// refused a write the code should never have made (a constraint it should have kept), or
    /// failed in a way nothing else explains. Trying again will not help; report it with the log.
    case internalFault

    public var description: String { rawValue }
}

/// An error that knows its ``ErrorCategory`` and says what happened, and what to do, in one
/// sentence (its `description`), never with a secret in it.
public protocol CategorizedError: Error, CustomStringConvertible {
    /// What kind of failure this is.
    var category: ErrorCategory { get }
}
