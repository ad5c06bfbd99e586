public import Failures
public import GSM7

/// Everything that can go wrong when sealing or opening a message.
///
/// Every case describes itself in one sentence that says what to do; none of them carries key material
/// or plaintext.
public enum CipherError: Error, Sendable, Equatable {
    /// The text needs more septets than one message, or the parts allowed, carry.
    case textTooLong(septets: Int, capacity: Int)
    /// The text holds characters that GSM-7 cannot carry.
    case unsupportedText(GSM7Error)
    /// The ciphertext is not 160 characters of the ciphertext alphabet.
    case malformed(MalformedReason)
    /// The message was accepted before; it changes nothing.
    case duplicate
    /// No key of this contact verifies the message: tampered, for another contact, or too old.
    case notAuthentic
    /// The message is authentic but lies further ahead than the window allows.
    case beyondWindow(ahead: Int)
    /// A resynchronisation message older than the current epoch, or not matching it.
    case replayedHandshake
    /// A second, different answer to the resync this side started: someone besides the peer holds
    /// the pairing secret.
    case conflictingHandshake
    /// Accept or reject was asked for, but the peer has not asked for a resync.
    case noResyncRequest
    /// The session has used every position of its chain.
    case chainExhausted
    /// The stored state has a version this build cannot read.
    case unsupportedStateVersion(Int)
    /// The stored state is damaged: truncated, with trailing bytes, or with a field out of range.
    case corruptedState
    /// Pairing codes that cannot be combined (for example both sides entered the same code).
    case invalidPairing(String)

    /// Why a ciphertext was rejected before any key was tried.
    public enum MalformedReason: Sendable, Equatable {
        case wrongLength(Int)
        case invalidCharacter(Character, position: Int)
        case outOfRange
    }
}

extension CipherError: CategorizedError {
    /// What kind of failure this is, for every front end: bad input, a message that did not
    /// verify, a request the session state does not allow, or a stored state that cannot be read.
    public var category: ErrorCategory {
        switch self {
        case .textTooLong, .unsupportedText, .malformed, .invalidPairing: .invalidInput
        case .duplicate, .notAuthentic, .beyondWindow, .replayedHandshake, .conflictingHandshake: .verificationFailed
        case .noResyncRequest, .chainExhausted: .conflict
        case .unsupportedStateVersion, .corruptedState: .corrupted
        }
    }

    public var description: String {
        switch self {
        case .textTooLong(let septets, let capacity):
            if capacity <= ProtocolConstants.textCapacity {
                return
                    "The text needs \(septets) septets but one encrypted SMS carries at most \(capacity); shorten it by \(septets - capacity)."
            }
            return
                "The text needs \(septets) septets but the parts allowed carry at most \(capacity); shorten it by \(septets - capacity) or allow more parts."
        case .unsupportedText(let error):
            return error.description
        case .malformed(.wrongLength(let count)):
            return "An encrypted message is exactly 160 characters but this one has \(count); copy the whole message."
        case .malformed(.invalidCharacter(let character, let position)):
            let scalar = character.unicodeScalars.first.map { String($0.value, radix: 16, uppercase: true) } ?? "?"
            return
                "Character \(position) (U+\(scalar)) cannot appear in an encrypted message; the text was altered in transit or by copying."
        case .malformed(.outOfRange):
            return "The message is not a valid encrypted message; it was altered or is not from smsgw."
        case .duplicate:
            return "This message was already received; it is a duplicate and was ignored."
        case .notAuthentic:
            return
                "The message could not be verified: it was altered, is meant for another contact, or is too old. Nothing was changed; if every message from this contact fails, run a resync."
        case .beyondWindow(let ahead):
            return
                "The message is authentic but \(ahead) messages ahead of the last one received, beyond the window of \(ProtocolConstants.window); run a resync with this contact."
        case .replayedHandshake:
            return "A resynchronisation message was replayed or belongs to an earlier resync; it was ignored."
        case .conflictingHandshake:
            return
                "A second, different answer to this side's resync arrived: someone besides the contact holds the pairing secret (a copy of a key state). Nothing was changed; pair again with new codes exchanged in person (a manual re-pairing)."
        case .noResyncRequest:
            return
                "The contact has not asked for a resync (or its request was already accepted or rejected), so there is nothing to accept or reject."
        case .chainExhausted:
            return "This contact's key chain is used up; pair again with new codes."
        case .unsupportedStateVersion(let version):
            return "The stored key state has version \(version), which this version of smsgw cannot read; upgrade smsgw."
        case .corruptedState:
            return "The stored key state is damaged and cannot be read; pair this contact again with new codes."
        case .invalidPairing(let reason):
            return reason
        }
    }
}
