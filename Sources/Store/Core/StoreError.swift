public import Failures
public import Foundation

/// An error from the gateway's store, with a plain sentence that says what to do.
///
/// Its ``category`` tells a front end what kind of failure it is (the CLI maps it to an exit
/// status, the HTTP API to a status code); its sentence names no command of any front end, which
/// adds its own hint where the case is typed (``Missing``, ``daemonRunning(pid:)``).
/// No description ever contains a key, a passphrase, a pairing code or a message text.
public enum StoreError: Error, Sendable, Equatable {
    /// The named thing (account, contact, message, OTP entry, outbox row) does not exist.
    case notFound(Missing)
    /// Something with that name or number already exists.
    case alreadyExists(String)
    /// The caller passed a value the store refuses (bad name, number, parameters).
    case invalidInput(String)
    /// The passphrase did not unlock the account: so many more wrong ones lock it, or nil when
    /// none is counted (a read-only store, which cannot record a failure).
    case authenticationFailed(remainingAttempts: Int?)
    /// The passphrase was right but the two-factor code was missing, wrong or already used
    /// (remaining attempts as for ``authenticationFailed(remainingAttempts:)``).
    case secondFactorFailed(SecondFactorFailure, remainingAttempts: Int?)
    /// Too many wrong passphrases or codes: the account refuses to try again before `until`.
    case lockedOut(until: Date)
    /// This attempt's passphrase (or, with `secondFactor`, its code) was wrong too, and it was
    /// the one that locked the account until `until`.
    case lockedByThisAttempt(until: Date, secondFactor: Bool)
    /// The data directory or the database cannot be used as it is (permissions, newer schema).
    case configuration(String)
    /// A stored secret failed authentication: the file was altered or belongs to another account.
    case corrupted(String)
    /// An operation is not allowed in the row's current state (for example marking a queued SMS delivered).
    case invalidState(String)
    /// The daemon (process `pid`, 0 when its lock does not say) runs on the data directory and
    /// holds the current data key, so an operation its key would undo is refused.
    case daemonRunning(pid: Int32)
    /// SQLite reported an error (its words; busy for too long, disk full, I/O), and its cause.
    case database(String, cause: Cause)
    /// The PostgreSQL server reported an error (its message and SQLSTATE), or the connection to
    /// it failed or closed (why), and its cause (``Cause/busy`` when trying again can succeed:
    /// a serialisation failure, a deadlock, a lock not granted in time).
    case server(String, cause: Cause)
    /// The SQLite store cannot be opened or replaced now: a restore is replacing it, or (for a
    /// restore) another process has it open (``StoreLock``).
    case inUse(InUse)
    /// The SQLite store of the data directory (its path) can only be read (``ReadOnlyReason``),
    /// and this would write to it.
    case readOnly(directory: String, reason: ReadOnlyReason)

    /// Who holds the store that ``StoreError/inUse(_:)`` could not have.
    public enum InUse: Sendable, Hashable {
        /// A restore is replacing the store of the data directory (its path).
        case restoring(directory: String)
        /// Another process (or another open store of this one) has the store of the data
        /// directory (its path) open, so it cannot be replaced.
        case open(directory: String)
    }
    /// What ``StoreError/notFound(_:)`` looked for: typed, so a front end can point at the place
    /// that lists what exists (a command, a page, a route).
    public enum Missing: Sendable, Hashable {
        /// No account exists in the data directory yet.
        case account
        /// The data directory (its path) holds no SQLite store, and opening it was not to create
        /// one: none was made there yet, or this node's store is elsewhere (on PostgreSQL).
        case store(directory: String)
        /// No contact has this name.
        case contact(named: String)
        /// No node of this name ever ran on the store (or it was forgotten).
        case node(named: String)
        /// The contact (by its name when known) was removed since it was read.
        case removedContact(String?)
        /// No message has this id: never logged, or pruned.
        case message(id: Int64)
        /// No OTP entry has this name.
        case otpEntry(named: String)
        /// No outbox row has this id.
        case outboxEntry(id: Int64)
        /// The store has no record of a webhook endpoint with this URL.
        case webhookEndpoint(String)
        /// No webhook delivery has this id.
        case webhookDelivery(Int64)
    }
}

extension StoreError: CustomStringConvertible, LocalizedError {
    public var description: String {
        switch self {
        case .notFound(let missing):
            return missing.sentence
        case .alreadyExists(let message), .invalidInput(let message), .configuration(let message),
            .corrupted(let message), .invalidState(let message):
            return message
        case .authenticationFailed(let remaining):
            if let remaining, remaining <= 0 {
                return "The passphrase is wrong; the account is now locked for a while, so wait before trying again."
            }
            return "The passphrase is wrong; check it and try again (\(StoreError.attempts(remaining)))."
        case .secondFactorFailed(let failure, let remaining):
            let attempts = StoreError.attempts(remaining)
            switch failure {
            case .missing:
                return "Two-factor login is on and no code was given; give the current code from your authenticator app (\(attempts))."
            case .wrong:
                return "The two-factor code is wrong; check the code and the clock and try again (\(attempts))."
            case .replayed:
                return
                    "That two-factor code was already used (a code unlocks once, and this try was not counted as a failure); wait until the authenticator app shows the next code and enter that (\(attempts))."
            }
        case .lockedOut(let until):
            return "The account is locked after repeated wrong passphrases or codes; \(StoreError.tryAgain(after: until))."
        case .lockedByThisAttempt(let until, let secondFactor):
            let what = secondFactor ? "The two-factor code was not accepted" : "The passphrase is wrong"
            return "\(what), and that was one failure too many: the account is now locked; \(StoreError.tryAgain(after: until))."
        case .daemonRunning(let pid):
            let daemon = pid > 0 ? "The daemon (process \(pid))" : "The daemon"
            return "\(daemon) is running on this data directory and holds the current data key; stop it first, then try again."
        case .database(let message, let cause):
            return cause.sqliteSentence(message)
        case .server(let message, let cause):
            return cause.serverSentence(message)
        case .inUse(.restoring(let directory)):
            return "A restore is replacing the store in \(directory); try again when it has finished."
        case .inUse(.open(let directory)):
            return
                "Another smsgw process has the store in \(directory) open, and the store is replaced only while no other process uses it; stop that process (a command still running or following the log), then try again."
        case .readOnly(let directory, let reason):
            return
                "The store in \(directory) is read-only (\(reason.words)), so nothing can be changed in it; back it up and restore the backup on a writable disk."
        }
    }

    public var errorDescription: String? { description }

    /// "2 more attempts before the account locks", or, when failures are not counted (nil),
    /// that a read-only store counts none.
    public static func attempts(_ remaining: Int?) -> String {
        guard let remaining else { return "attempts are not counted while the store is read-only" }
        return (remaining == 1 ? "1 more attempt" : "\(remaining) more attempts") + " before the account locks"
    }

    /// "try again after 2026-…Z (in 1 minute)".
    static func tryAgain(after until: Date) -> String {
        let seconds = max(1, Int(until.timeIntervalSinceNow.rounded(.up)))
        return "try again after \(ISO8601DateFormatter().string(from: until)) (in \(duration(seconds)))"
    }

    /// A short human duration such as "3 minutes" or "2 hours 5 minutes".
    static func duration(_ seconds: Int) -> String {
        func unit(_ value: Int, _ name: String) -> String { value == 1 ? "1 \(name)" : "\(value) \(name)s" }
        if seconds < 60 { return unit(seconds, "second") }
        let minutes = (seconds + 59) / 60
        if minutes < 60 { return unit(minutes, "minute") }
        let hours = minutes / 60
        let rest = minutes % 60
        return rest == 0 ? unit(hours, "hour") : "\(unit(hours, "hour")) \(unit(rest, "minute"))"
    }
}

extension StoreError.Missing {
    /// What was not found and what to do, naming no front end's command.
    var sentence: String {
        switch self {
        case .account:
            "No account exists in this data directory; create one first."
        case .store(let directory):
            "There is no store in \(directory); create one first, or, if this node's store is on PostgreSQL, give the configuration that names it."
        case .contact(let name):
            "No contact is named \"\(name)\"; check the name against the list of contacts."
        case .node(let name):
            "No node named \"\(name)\" ran on this store; check the name against the status's list of nodes."
        case .removedContact(let name?):
            "The contact \"\(name)\" no longer exists; it was removed meanwhile, so check the list of contacts."
        case .removedContact(nil):
            "The contact no longer exists; it was removed meanwhile, so check the list of contacts."
        case .message(let id):
            "No message has id \(id); it was never logged, or it was pruned."
        case .otpEntry(let name):
            "No OTP entry is named \"\(name)\"; check the name against the list of entries."
        case .outboxEntry(let id):
            "No outbox entry has id \(id); it was never queued, or it was removed since."
        case .webhookEndpoint(let url):
            "No webhook endpoint \(url) has been delivered to yet; check the URL against the configuration."
        case .webhookDelivery(let id):
            "No webhook delivery has id \(id); check the id against the list of deliveries."
        }
    }
}

extension StoreError: CategorizedError {
    /// What kind of failure this is, for every front end (the CLI's exit status, an HTTP status).
    public var category: ErrorCategory {
        switch self {
        case .notFound: .notFound
        case .alreadyExists, .invalidState, .daemonRunning: .conflict
        case .invalidInput: .invalidInput
        case .authenticationFailed, .secondFactorFailed: .authentication
        case .lockedOut, .lockedByThisAttempt: .locked
        case .configuration: .configuration
        case .corrupted: .corrupted
        case .database(_, let cause), .server(_, let cause):
            switch cause {
            case .busy: .busy
            case .constraint: .internalFault
            default: .storage
            }
        case .inUse: .busy
        case .readOnly: .unavailable
        }
    }
}
