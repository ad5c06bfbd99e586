import Console
import Foundation
import Operations
import Store
import TestSupport
import Testing

/// A failed SMS's error an earlier release stored (the modem's whole error, its device path
/// included) as the console shows it: a viewer gets the generic sentence on the message page and in
/// the status's queue alike; an operator the whole error.
@Suite("Console: an earlier release's SMS error")
struct ConsoleMessageErrorTests {
    static let device = "/dev/ttyUSB3"

    @Test("A viewer sees the generic sentence on the message page and in the status; an operator the device")
    func viewerSeesTheGenericSentenceEverywhere() throws {
        let rig = try ConsoleControllerTests.Rig()
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("A text that fails.", to: "bob", store: rig.store, now: Date(), using: &rng)
        try rig.store.write { tx in
            let item = try #require(try tx.claimNextOutbox(modem: "m1"))
            try tx.markOutboxFailed(
                item.id,
                error: "Sending failed: the device \(Self.device) stopped working (Input/output error). (libgammu DEVICEWRITEERROR)",
                permanent: true)
        }
        // The sentence's apostrophe is escaped in HTML; its words before it are not.
        let generic = "its error was recorded by an earlier release"
        #expect(SMSErrorText.earlier.contains(generic))
        for (name, seesPaths) in [("watch", false), ("ops", true)] {
            let session = try rig.signIn(name)
            for path in ["/log/\(queued.logID)", "/status"] {
                let page = rig.controller.respond(
                    to: ConsoleRequest(method: "GET", path: path, cookies: [ConsoleController.sessionCookie: session.cookie]))
                #expect(page.status == 200, "\(name) \(path)")
                #expect(page.body.contains(Self.device) == seesPaths, "\(name) \(path): \(page.body)")
                #expect(page.body.contains(generic) == !seesPaths, "\(name) \(path): \(page.body)")
            }
        }
    }
}
