public import Foundation

/// What a person should do about a contact's sync state, as a value each front end renders in
/// its own words (the CLI names its commands, the HTTP API its routes).
///
/// ``sentence`` is the neutral form every front end may show as it is; it names no command.
public enum SyncAdvice: Sendable, Hashable {
    /// The contact is not paired: enter the peer's pairing code.
    case pair
    /// The peer's gateway asks for a resync: confirm `code` with the peer by phone, then accept
    /// it, or reject it if the peer did not ask.
    case decideResyncRequest(code: String)
    /// This side's handshake (`code`) went unanswered every time: check that the peer's gateway
    /// runs and its operator accepted it, then restart the resync.
    case restartUnansweredResync(code: String)
    /// This side's handshake (`code`) waits for the peer's answer; nothing to do but wait.
    case awaitResyncAnswer(code: String)
    /// `failures` messages in a row failed verification: start a resync.
    case resync(failures: Int)
    /// This side's keys for the contact were restored from a backup at `restoredAt`: start a
    /// resync before sending anything (the action is ``Action/resync`` too).
    case resyncAfterRestore(restoredAt: Date)
    /// A restore at `restoredAt` put back a backup taken before this side's pairing with the
    /// contact completed, and the contact holds keys this side no longer has: pair again from new
    /// codes on both sides (a manual re-pairing; the action is ``Action/pair``).
    case pairAgainAfterRestore(restoredAt: Date)

    /// The kind of advice, for a program: its raw value is the JSON `action`.
    public enum Action: String, Sendable, Hashable, Codable, CaseIterable {
        case pair
        case acceptOrRejectResync
        case restartResync
        case wait
        case resync
    }

    /// The kind of advice, without its values.
    public var action: Action {
        switch self {
        case .pair, .pairAgainAfterRestore: .pair
        case .decideResyncRequest: .acceptOrRejectResync
        case .restartUnansweredResync: .restartResync
        case .awaitResyncAnswer: .wait
        case .resync, .resyncAfterRestore: .resync
        }
    }

    /// The handshake's code to confirm with the peer, when the advice is about one.
    public var resyncCode: String? {
        switch self {
        case .decideResyncRequest(let code), .restartUnansweredResync(let code), .awaitResyncAnswer(let code): code
        case .pair, .resync, .resyncAfterRestore, .pairAgainAfterRestore: nil
        }
    }

    /// The advice again from its JSON form (`action`, `resyncCode`, and the state's failures and
    /// time the keys were restored); nil when an action about a handshake comes without its code.
    public init?(_ action: Action, resyncCode: String?, failures: Int, keysRestoredAt: Date? = nil) {
        switch (action, resyncCode) {
        case (.pair, _): self = keysRestoredAt.map { .pairAgainAfterRestore(restoredAt: $0) } ?? .pair
        case (.resync, _): self = keysRestoredAt.map { .resyncAfterRestore(restoredAt: $0) } ?? .resync(failures: failures)
        case (.acceptOrRejectResync, let code?): self = .decideResyncRequest(code: code)
        case (.restartResync, let code?): self = .restartUnansweredResync(code: code)
        case (.wait, let code?): self = .awaitResyncAnswer(code: code)
        default: return nil
        }
    }

    /// What to do in words no front end owns.
    public var sentence: String {
        switch self {
        case .pair:
            "Pair with the contact's pairing code."
        case .decideResyncRequest(let code):
            "The contact's gateway asks for a resync (code \(code)): confirm the code with the contact by phone, then accept the resync, or reject it if the contact did not ask."
        case .restartUnansweredResync(let code):
            "The handshake (code \(code)) went unanswered every time it was sent: check with the contact that their gateway runs and their operator accepted it, then restart the resync."
        case .awaitResyncAnswer(let code):
            "Waiting for the contact's gateway to answer the handshake (code \(code), which the contact's operator confirms before accepting); it is sent again with growing pauses."
        case .resync(let failures):
            "\(failures) messages in a row failed verification; start a resync with the contact."
        case .resyncAfterRestore(let restoredAt):
            "This side's keys were restored from a backup on \(InternetTime.string(restoredAt)); resync with the contact before sending anything."
        case .pairAgainAfterRestore(let restoredAt):
            "A backup restored on \(InternetTime.string(restoredAt)) was taken before the pairing with the contact completed, so the contact holds keys this side no longer has: start a manual re-pairing on both sides and pair from the new codes."
        }
    }
}
