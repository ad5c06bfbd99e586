import Operations
import TerminalIO

extension SyncAdvice {
    /// The advice in the CLI's words, naming the `smsgw` commands that follow it (for `status`
    /// and `contact show`; the JSON keeps the neutral ``Operations/SyncAdvice/sentence``).
    func sentence(naming contact: String) -> String {
        let name = Shell.quote(contact)
        return switch self {
        case .pair:
            "Pair with `smsgw contact pair \(name)`, which asks for the code \(contact) gave you."
        case .decideResyncRequest(let code):
            "\(contact)'s gateway asks for a resync (code \(code)): confirm the code with \(contact) by phone, then run `smsgw resync \(name) --accept`, or `smsgw resync \(name) --reject` if \(contact) did not ask."
        case .restartUnansweredResync(let code):
            "The handshake (code \(code)) went unanswered every time it was sent: check with \(contact) that their gateway runs and their operator accepted it, then run `smsgw resync \(name) --restart`."
        case .awaitResyncAnswer(let code):
            "Waiting for \(contact)'s gateway to answer the handshake (code \(code), which \(contact)'s operator confirms before accepting); it is sent again with growing pauses."
        case .resync(let failures):
            "\(failures) messages in a row failed verification; run `smsgw resync \(name)`."
        case .resyncAfterRestore(let restoredAt):
            "This side's keys for \(contact) were restored from a backup on \(InternetTime.string(restoredAt)); run `smsgw resync \(name)` before sending anything."
        case .pairAgainAfterRestore(let restoredAt):
            "A backup restored on \(InternetTime.string(restoredAt)) was taken before the pairing with \(contact) completed, so \(contact) holds keys this side no longer has: run `smsgw resync \(name) --manual` here and ask \(contact)'s operator to run it too, then each enters the other's new code with `smsgw contact pair`."
        }
    }
}
