public import Failures
public import Foundation

/// An error from the gateway's store, with a plain sentence that says what to do.
///
/// Each case maps to a sysexits(3) code through ``exitCode`` so the CLI can exit with it.
/// No description ever contains a key, a passphrase, a pairing code or a message text.
public enum StoreError: Error, Sendable, Equatable {
    /// The named thing (account, contact, message, OTP entry) does not exist. Exit 66.
    case notFound(String)
    /// Something with that name or number already exists. Exit 65.
    case alreadyExists(String)
    /// The caller passed a value the store refuses (bad name, number, parameters). Exit 65.
    case invalidInput(String)
    /// The passphrase did not unlock the account. Exit 77.
    case authenticationFailed(remainingAttempts: Int)
    /// The passphrase was right but the two-factor code was missing, wrong or already used. Exit 77.
    case secondFactorFailed(SecondFactorFailure, remainingAttempts: Int)
    /// Too many wrong passphrases or codes: the account refuses to try again before `until`. Exit 77.
    case lockedOut(until: Date)
    /// The data directory or the database cannot be used as it is (permissions, newer schema). Exit 78.
    case configuration(String)
    /// A stored secret failed authentication: the file was altered or belongs to another account. Exit 65.
    case corrupted(String)
    /// An operation is not allowed in the row's current state (for example marking a queued SMS delivered). Exit 65.
    case invalidState(String)
    /// SQLite reported an error (busy for too long, disk full, I/O). Exit 74, or 75 when busy.
    case database(String, busy: Bool)
}

extension StoreError {
    /// The sysexits(3) code a command-line tool should exit with for this error.
    public var exitCode: Int32 {
        switch self {
        case .notFound: 66                            // EX_NOINPUT
        case .alreadyExists, .invalidInput: 65        // EX_DATAERR
        case .authenticationFailed, .secondFactorFailed, .lockedOut: 77    // EX_NOPERM
        case .configuration: 78                       // EX_CONFIG
        case .corrupted, .invalidState: 65            // EX_DATAERR
        case .database(_, let busy): busy ? 75 : 74   // EX_TEMPFAIL, EX_IOERR
        }
    }
}

extension StoreError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .notFound(let message), .alreadyExists(let message), .invalidInput(let message),
             .configuration(let message), .corrupted(let message), .invalidState(let message):
            return message
        case .authenticationFailed(let remaining):
            if remaining <= 0 {
                return "The passphrase is wrong; the account is now locked for a while, so wait before trying again."
            }
            let attempts = remaining == 1 ? "1 more attempt" : "\(remaining) more attempts"
            return "The passphrase is wrong; check it and try again (\(attempts) before the account locks)."
        case .secondFactorFailed(let failure, let remaining):
            let attempts = remaining == 1 ? "1 more attempt" : "\(remaining) more attempts"
            switch failure {
            case .missing:
                return "Two-factor login is on and no code was given; give the current code from your authenticator app (\(attempts) before the account locks)."
            case .wrong:
                return "The two-factor code is wrong; check the code and the clock and try again (\(attempts) before the account locks)."
            case .replayed:
                return "That two-factor code was already used; wait for the next code and enter that (\(attempts) before the account locks)."
            }
        case .lockedOut(let until):
            let stamp = ISO8601DateFormatter().string(from: until)
            let seconds = max(1, Int(until.timeIntervalSinceNow.rounded(.up)))
            return "The account is locked after repeated wrong passphrases or codes; try again after \(stamp) (in \(StoreError.duration(seconds)))."
        case .database(let message, let busy):
            if busy {
                return "The database stayed busy too long (\(message)); try again when the other smsgw process has finished."
            }
            return "The database reported an error (\(message)); check the disk and the data directory, then try again."
        }
    }

    public var errorDescription: String? { description }

    /// A short human duration such as "3 minutes" or "2 hours 5 minutes".
    static func duration(_ seconds: Int) -> String {
        func unit(_ value: Int, _ name: String) -> String { value == 1 ? "1 \(name)" : "\(value) \(name)s" }
        if seconds < 60 { return unit(seconds, "second") }
        let minutes = (seconds + 59) / 60
        if minutes < 60 { return unit(minutes, "minute") }
        let hours = minutes / 60, rest = minutes % 60
        return rest == 0 ? unit(hours, "hour") : "\(unit(hours, "hour")) \(unit(rest, "minute"))"
    }
}

extension StoreError: CategorizedError {
    /// What kind of failure this is, for every front end (the CLI's exit status, an HTTP status).
    public var category: ErrorCategory {
        switch self {
        case .notFound: .notFound
        case .alreadyExists, .invalidState: .conflict
        case .invalidInput: .invalidInput
        case .authenticationFailed, .secondFactorFailed: .authentication
        case .lockedOut: .locked
        case .configuration: .configuration
        case .corrupted: .corrupted
        case .database(_, let busy): busy ? .busy : .storage
        }
    }
}
