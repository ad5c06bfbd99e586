public import Failures
public import Foundation
import SMSCipher

/// A text that cannot become a message, said before any key step is spent on it.
public enum MessageError: CategorizedError, Sendable, Equatable {
    /// Nothing, or only spaces and line breaks.
    case emptyText
    /// A text over one message for a contact whose peer speaks protocol version 1, which cannot
    /// read parts (docs/PROTOCOL.md §10).
    case peerReadsOneMessage(contact: String, septets: Int)
    /// A limit of parts outside 1…32.
    case partLimit(Int)
    /// A retry of a message none of whose SMS failed.
    case nothingToRetry(id: Int64)
    /// A mark of checked for a message none of whose SMS waits for a confirmation.
    case nothingUnconfirmed(id: Int64)
    /// A retry of a message to a contact whose keys this side restored from a backup and has not
    /// resynced since: its SMS were sealed with keys from before the restore.
    case keysRestored(id: Int64, contact: String)
    /// A new text for a contact whose keys this side restored from a backup and has not resynced
    /// since: sealed with the rewound keys, it would not open at the peer.
    case keysRestoredBeforeText(contact: String)
    /// A ciphertext to decrypt that holds no character at all (an empty paste or pipe).
    case nothingToDecrypt
    /// A ciphertext to decrypt as long as several SMS: two or more pasted at once.
    case severalMessages(characters: Int)
    /// A ciphertext to decrypt that this side sealed itself (message `id`, for `contact`): pasted
    /// back by mistake; only the contact's keys open it.
    case ownMessage(id: Int64, contact: String)
    /// A ciphertext pasted as one contact's (`pastedAs`) that another contact's keys open;
    /// `alreadyReceived` when that contact's message was decrypted before.
    case fromAnotherContact(named: String, pastedAs: String, alreadyReceived: Bool)
    /// Words to search the log for over ``MessageLog/searchLimits``.
    case searchTooLong(characters: Int, words: Int)
    /// A reader searched the log for words more often than its ``SearchThrottle`` allows; it may
    /// search again at `until`.
    case tooManySearches(until: Date)

    public var category: ErrorCategory {
        switch self {
        case .emptyText, .partLimit, .nothingToDecrypt, .severalMessages, .ownMessage, .fromAnotherContact, .searchTooLong: .invalidInput
        case .peerReadsOneMessage, .nothingToRetry, .nothingUnconfirmed, .keysRestored, .keysRestoredBeforeText: .conflict
        case .tooManySearches: .locked
        }
    }

    public var description: String {
        switch self {
        case .emptyText:
            "The text is empty; give a message (nothing was encrypted and no key was used)."
        case .peerReadsOneMessage(let contact, let septets):
            "The text needs \(septets) septets, more than one message, but \(contact)'s gateway speaks protocol version 1, which reads one message of at most 141 septets; shorten it, or set the contact to version 2 once its gateway is upgraded (nothing was encrypted)."
        case .partLimit(let limit):
            "A text may be split into 1 to 32 messages; \(limit) is outside that."
        case .nothingToRetry(let id):
            "Message \(id) has no failed SMS to send again; it is queued, on its way or delivered."
        case .nothingUnconfirmed(let id):
            "Message \(id) has no sent SMS waiting for a delivery report or an acknowledgement; it is queued, failed, confirmed or already checked."
        case .keysRestored(let id, let contact):
            "Message \(id) was sealed with keys from before a backup was restored, and the keys for \(contact) have not been resynced since; resync with \(contact), then send the text again as a new message (nothing was queued)."
        case .keysRestoredBeforeText(let contact):
            "The keys for \(contact) were restored from a backup and have not been resynced since, so a text sealed with them would not open at \(contact)'s gateway; resync with \(contact) first, then send it (nothing was encrypted or queued)."
        case .nothingToDecrypt:
            "Nothing was given to decrypt; paste the whole SMS, all 160 characters."
        case .severalMessages(let characters):
            "This holds \(characters) characters, as many as \(characters / ProtocolConstants.wireLength) SMS pasted together; decrypt them one at a time (nothing was changed)."
        case .ownMessage(let id, let contact):
            "This is message \(id), which this side encrypted for \(contact): only \(contact) can decrypt it, as each direction has keys of its own (nothing was changed)."
        case .fromAnotherContact(let name, let pastedAs, true):
            "This message is from \(name), not \(pastedAs), and was already decrypted as \(name)'s; see the log (nothing was changed)."
        case .fromAnotherContact(let name, let pastedAs, false):
            "This message is from \(name), not \(pastedAs): decrypt it as \(name)'s (nothing was changed)."
        case .searchTooLong(let characters, let words):
            "The search has \(characters) characters in \(words) words; a search takes at most \(MessageLog.searchLimits.words) words and \(MessageLog.searchLimits.characters) characters, so shorten it."
        case .tooManySearches(let until):
            "Too many searches of the log in a short time; search again after \(until.formatted(.iso8601)). The log without words to search for opens meanwhile."
        }
    }
}
