import Foundation
import Operations
import Store
import TestSupport
import Testing

@testable import HTTPAPI

/// The event stream (the API's and the console's live log) as a reader who does not see paths
/// gets it: a modem's events without its error, which names the device; a message's error an
/// earlier release stored in its generic form.
@Suite("The event stream without paths")
struct EventStreamPathsTests {
    @Test("A modem event carries its error for an admin token or an operator, not for a read token or a viewer")
    func modemErrorOnlyForThoseWhoSeePaths() async throws {
        let directory = TemporaryDirectory()
        let store = try directory.unlockedStore()
        let start = try EventStream.latest(store: store)
        try store.write { tx in
            try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .ready, connected: true))
            try tx.saveModemStatus(
                ModemStatusRecord(name: "m1", state: .recovering, connected: false, lastError: "The device /dev/ttyUSB7 went away."))
        }
        var events: [EventStream.Event] = []
        for try await event in EventStream.since(start, following: false, store: store) { events.append(event) }
        let down = try #require(events.last)
        for seeingPaths in [true, false] {
            let event = try APIHandlers.Event(down, seeingPaths: seeingPaths)
            #expect(event.type == "modem.down" && event.data.contains("\"name\":\"m1\""), "\(event.data)")
            #expect(event.data.contains("/dev/ttyUSB7") == seeingPaths, "\(seeingPaths): \(event.data)")
        }
        #expect(OperatorRole.operator.seesPaths && OperatorRole.admin.seesPaths && !OperatorRole.viewer.seesPaths)
    }

    @Test("A message event carries an earlier release's SMS error whole for whoever sees paths, generic for the others")
    func earlierSMSErrorOnlyForThoseWhoSeePaths() async throws {
        let directory = TemporaryDirectory()
        let store = try directory.unlockedStore()
        let start = try EventStream.latest(store: store)
        let earlier = "Sending failed: the device /dev/ttyUSB7 went away. Reopen it once it is back."
        try store.write { tx in
            let id = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: nil, remoteNumber: "+15550002", status: .queued))
            try tx.setLogStatus(id, status: .failed, error: earlier)
        }
        var events: [EventStream.Event] = []
        for try await event in EventStream.since(start, following: false, store: store) { events.append(event) }
        let failed = try #require(events.last)
        for seeingPaths in [true, false] {
            let event = try APIHandlers.Event(failed, seeingPaths: seeingPaths)
            #expect(event.type == "message" && event.data.contains("\"failed\""), "\(event.data)")
            #expect(event.data.contains("ttyUSB7") == seeingPaths, "\(seeingPaths): \(event.data)")
            #expect(event.data.contains("earlier release") == !seeingPaths, "\(seeingPaths): \(event.data)")
        }
    }
}
