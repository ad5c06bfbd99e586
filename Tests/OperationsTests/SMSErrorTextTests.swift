import Foundation
import Operations
import Store
import TestSupport
import Testing

/// A failed SMS's error as each reader is shown it (``SMSErrorText``): an error an earlier release
/// stored, which may name the modem's device, is shown to a reader who does not see paths in a
/// generic form, in the message, the log, its changes and the status's queue alike; an error in
/// the form the gateway writes now, and every error for an operator, whole.
@Suite("A failed SMS's error for each reader")
struct SMSErrorTextTests {
    /// An error as a release before the modem's name was kept wrote it: the modem's whole error.
    static let earlierError =
        "Sending failed: the device /dev/serial/by-id/usb-HUAWEI_Mobile-if00-port0 stopped working (Input/output error); it was probably unplugged. Reopen it once it is back. (libgammu DEVICEWRITEERROR)"
    /// The same failure as the daemon writes it now.
    static let currentError =
        "The modem could not be reached (unplugged, reset or held by another program). (modem \"m1\"; libgammu DEVICEWRITEERROR)"

    /// Queues a text to bob and fails its SMS with `error`, permanently; its message id.
    static func failed(with error: String, in store: UnlockedStore) throws -> Int64 {
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("A text that fails.", to: "bob", store: store, now: Date(), using: &rng)
        try store.write { tx in
            let item = try #require(try tx.claimNextOutbox(modem: "m1"))
            try tx.markOutboxFailed(item.id, error: error, permanent: true)
        }
        return queued.logID
    }

    @Test(
        "An earlier release's error is generic for a reader without paths in the message, the log, its changes and the status; whole for an operator",
        arguments: StoreBackendKind.allCases)
    func earlierErrorsAreGenericForReadersWithoutPaths(_ backend: StoreBackendKind) async throws {
        let couple = try Couple(on: backend)
        let earlier = try Self.failed(with: Self.earlierError, in: couple.alice)
        let current = try Self.failed(with: Self.currentError, in: couple.alice)
        let expected: [Int64: (viewer: String, operator: String)] = [
            earlier: (SMSErrorText.earlier, Self.earlierError), current: (Self.currentError, Self.currentError),
        ]
        let page = try MessageLog.page(MessagePage.Query(direction: .outgoing), store: couple.alice)
        var changes: [LogChange] = []
        for try await change in try MessageLog.changes(after: 0, following: false, store: couple.alice) {
            changes.append(change)
        }
        let status = try GatewayStatus.read(from: couple.alice, now: Date())
        for seeingPaths in [false, true] {
            for (id, errors) in expected {
                let shown = seeingPaths ? errors.operator : errors.viewer
                let detail = try MessageDetail.read(id: id, store: couple.alice).shown(seeingPaths: seeingPaths)
                #expect(detail.lastError == shown && detail.history.message.error == shown, "\(seeingPaths) \(id)")
                let listed = page.shown(seeingPaths: seeingPaths).messages.first { $0.id == id }
                #expect(listed?.error == shown, "\(seeingPaths) \(id)")
                let failure = changes.last { $0.message.id == id }?.shown(seeingPaths: seeingPaths)
                #expect(failure?.message.error == shown, "\(seeingPaths) \(id)")
            }
            // The status's queue shows each SMS's error as its message does.
            let queue = status.shown(seeingPaths: seeingPaths).queue.compactMap(\.lastError)
            #expect(Set(queue) == Set(expected.values.map { seeingPaths ? $0.operator : $0.viewer }), "\(queue)")
        }
    }

    @Test("Every error the gateway writes for an SMS is shown whole to every reader; an earlier give-up not")
    func currentFormsAreShownWhole() throws {
        let forms =
            [
                Self.currentError,
                "Gave up after 10 attempts that failed temporarily; the last error: The SMS was refused. (modem \"sim-a\"; +CMS ERROR 38: network out of order)",
                SMSErrorText.deliveryFailed(status: "permanent error 0x41"),
                "bob's gateway did not acknowledge this part after 5 sends; check with bob that their gateway runs and has acknowledgements on, then send the text again.",
            ] + OutboxKind.allCases.map(StoreRestore.heldReason)
        for form in forms {
            #expect(SMSErrorText.isForEveryReader(form), "\(form)")
            #expect(SMSErrorText.shown(form, seeingPaths: false) == form)
        }
        #expect(SMSErrorText.shown(nil, seeingPaths: false) == nil)
        #expect(
            SMSErrorText.shown(
                "Gave up after 10 attempts that failed temporarily; the last error: \(Self.earlierError)", seeingPaths: false)
                == SMSErrorText.earlier)
        #expect(!SMSErrorText.earlier.contains("/"))
    }

    @Test("An incoming message's note is shown as it is to every reader", arguments: StoreBackendKind.allCases)
    func incomingNotesAreKept(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let note = "A plain SMS from +15550002, who is not a contact."
        let id = try couple.alice.write { tx in
            try tx.appendLog(NewLogEntry(direction: .incoming, contact: nil, remoteNumber: "+15550002", status: .plain, error: note))
        }
        #expect(try MessageDetail.read(id: id, store: couple.alice).shown(seeingPaths: false).history.message.error == note)
    }
}
