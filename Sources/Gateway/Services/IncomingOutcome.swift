import Operations

/// What one received SMS (or group of parts) did, for logs and counters.
enum IncomingOutcome: Sendable, Equatable {
    /// Its fingerprint was recorded before: processed already, only the SIM copy is left.
    case alreadyProcessed
    /// A status report that matched an outbox row (or matched nothing).
    case statusReport
    /// A status report whose SMS is still being recorded as sent: keep it and try again.
    case deferred
    /// A verified and decrypted text.
    case decrypted(contact: String, message: Int64)
    /// A resync handshake; `completed` when new chains are in force.
    case resync(contact: String, completed: Bool, message: Int64)
    /// A replay or second copy of a message already accepted.
    case duplicate(contact: String, message: Int64)
    /// Failed verification; `failures` consecutive ones so far.
    case rejected(contact: String, failures: Int, message: Int64)
    /// This side's own SMS, sent back from the contact's number (forwarded, or replayed): logged
    /// as rejected, but neither counted against the contact nor kept for after a resync.
    case reflected(contact: String, message: Int64)
    /// A contact's message from a number no contact has, which the contact's keys opened (a new
    /// SIM): what it became, applied as from the contact, with the number noted in its log row.
    indirect case otherNumber(IncomingOutcome, number: String)
    /// Not encrypted, or from a number that is no contact; `untriedContacts` counts the contacts
    /// whose keys the search for the SMS's sender left untried, beyond its limit.
    case plain(message: Int64, untriedContacts: Int = 0)

    /// The contact the SMS was from, when it was a contact's.
    var contact: String? {
        switch self {
        case .decrypted(let contact, _), .resync(let contact, _, _), .duplicate(let contact, _), .rejected(let contact, _, _),
            .reflected(let contact, _):
            contact
        case .otherNumber(let outcome, _): outcome.contact
        case .alreadyProcessed, .statusReport, .deferred, .plain: nil
        }
    }

    /// The id of the log row the SMS became: the message id every front end and log line uses.
    var message: Int64? {
        switch self {
        case .alreadyProcessed, .statusReport, .deferred: nil
        case .otherNumber(let outcome, _): outcome.message
        case .decrypted(_, let message), .resync(_, _, let message), .duplicate(_, let message),
            .rejected(_, _, let message), .reflected(_, let message), .plain(let message, _):
            message
        }
    }
}

extension IncomingOutcome {
    /// The outcome of a message that opened, as ``Operations/IncomingMessage`` applied it.
    init(_ applied: AppliedMessage) {
        switch applied.content {
        case .text, .typed, .part, .acknowledgement: self = .decrypted(contact: applied.contact, message: applied.logID)
        case .resync(let resync): self = .resync(contact: applied.contact, completed: resync.completed, message: applied.logID)
        }
    }
}
