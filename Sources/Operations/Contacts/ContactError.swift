public import Failures

/// Why an operation on a contact cannot go ahead in the contact's present state. The sentences
/// say what happened and what to do in words of no front end; each front end adds its own hint
/// (the CLI names its commands).
public enum ContactError: CategorizedError, Sendable, Equatable {
    /// What a contact without a number was asked to do over SMS.
    public enum Purpose: Sendable, Equatable {
        /// Send a text message.
        case message
        /// Run a resynchronisation handshake.
        case resync
    }

    /// The contact has no session yet: its code was never entered.
    case notPaired(contact: String)
    /// Entering a code was asked for, but no pairing (or re-pairing) waits for one.
    case alreadyPaired(contact: String)
    /// The contact has no number (a copy-and-paste peer), so nothing reaches it over SMS. The
    /// same rule for a text and a resync, so they fail alike.
    case noNumber(contact: String, purpose: Purpose)
    /// A text to a contact that has no number and is not paired: both are said at once.
    case noNumberNorPairing(contact: String)
    /// Acknowledgements asked for a contact whose peer speaks protocol version 1, which cannot read them.
    case acknowledgementsNeedVersionTwo(contact: String)
    /// The pairing code stored for the contact came back with a backup taken before its pairing
    /// completed: keys made from it were used already, so pairing from it again would use them
    /// twice; new codes are needed on both sides.
    case codeFromBeforeRestore(contact: String)
    /// A new name that starts with a dash: a command line reads it as options, so no command
    /// naming the contact (nor any advice that names one) would work as typed.
    case nameStartsWithDash(name: String)

    public var category: ErrorCategory {
        switch self {
        case .notPaired, .alreadyPaired, .acknowledgementsNeedVersionTwo, .codeFromBeforeRestore: .conflict
        case .noNumber, .noNumberNorPairing: .unavailable
        case .nameStartsWithDash: .invalidInput
        }
    }

    public var description: String {
        switch self {
        case .notPaired(let contact):
            "\"\(contact)\" is not paired yet; enter the pairing code \(contact) gives you first."
        case .alreadyPaired(let contact):
            "\"\(contact)\" is already paired; start a manual re-pairing first to exchange new codes."
        case .noNumber(let contact, .message):
            "The contact \"\(contact)\" has no phone number, so no SMS can go to them; add their number, or exchange messages by copy and paste."
        case .noNumberNorPairing(let contact):
            "The contact \"\(contact)\" has no phone number and is not paired yet, so no SMS can go to them; add their number and enter the pairing code \(contact) gives you."
        case .acknowledgementsNeedVersionTwo(let contact):
            "\"\(contact)\" speaks protocol version 1, whose gateway cannot read acknowledgements; set the contact to version 2 once its gateway is upgraded, then turn them on."
        case .codeFromBeforeRestore(let contact):
            "The pairing code stored for \"\(contact)\" came back with a backup taken before the pairing with them completed; keys made from it were used already, and pairing from it again would use them a second time. Start a manual re-pairing on both sides and pair from the new codes."
        case .nameStartsWithDash(let name):
            "The contact name \"\(name)\" starts with \"-\", which a command line reads as an option; choose a name that starts otherwise."
        case .noNumber(let contact, .resync):
            "The contact \"\(contact)\" has no phone number, so a resync cannot go over SMS; re-pair by hand with new codes, or add their number."
        }
    }
}
