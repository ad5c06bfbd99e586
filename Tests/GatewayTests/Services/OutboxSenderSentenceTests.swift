import Foundation
import Modem
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// What a failed send leaves on its SMS: every reader of the message sees it (a console viewer, a
/// read token), so it names the modem by its configured name and never its device or the host.
@Suite("Outbox sender: the error an SMS keeps")
struct OutboxSenderSentenceTests {
    static let failures = [
        ModemError(
            .deviceGone, "Sending failed: the device /dev/ttyUSB7 stopped working (Error writing to device). Reopen it once it is back.",
            gammuError: "DEVICEWRITEERROR"),
        ModemError(.modemFailure, "Unexpected failure while sending: Input/output error (errno 5) on /dev/ttyUSB7."),
        ModemError(.noSIM, "Sending failed: the SIM in /dev/ttyUSB7 is missing. Check the SIM card.", cmsError: 310),
    ]

    @Test(arguments: failures)
    func theErrorNamesTheModemNotItsDevice(failure: ModemError) async throws {
        let rig = try await MemoryRig.make()
        rig.modem.fail(.send, with: failure, times: 5)
        let (item, met) = try await OutboxSenderTests.send("through a troubled modem", rig: rig) { $0.attempts >= 1 && $0.lastError != nil }
        #expect(met)
        let sentence = try #require(item.lastError)
        #expect(!sentence.contains("/dev/") && !sentence.contains("errno"), "\(sentence)")
        #expect(sentence.contains("(modem \"m1\""), "\(sentence)")
        for cause in [failure.gammuError.map { "libgammu \($0)" }, failure.cmsError.map { "+CMS ERROR \($0)" }].compactMap({ $0 }) {
            #expect(sentence.contains(cause), "\(sentence)")
        }
    }

    @Test func aRefusalKeepsItsAdvice() {
        let refusal = ModemError(.sendRejected, "The SMS was refused. This is temporary: retry the same text later.", cmsError: 38)
        #expect(
            refusal.sentence(forSMSThrough: "sim-a")
                == "The SMS was refused. This is temporary: retry the same text later. (modem \"sim-a\"; +CMS ERROR 38: network out of order)"
        )
    }
}
