import Console
import ConsoleViews
import Foundation
import Store
import Testing

/// The console's log page filters in the whole log: a failed message older than the newest 200
/// still shows under "failed", and a search that stopped at its depth says so.
@Suite("Console log filters")
struct ConsoleLogFilterTests {
    @Test("A filter finds a message older than the newest 200; an unknown contact shows none; a search names its depth")
    func filtersReachTheWholeLog() throws {
        let rig = try ConsoleControllerTests.Rig()
        let session = try rig.signIn("watch")
        try rig.store.write { tx in
            let bob = try tx.contact(named: "bob")
            _ = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: bob, status: .failed, text: "The lost report."))
            for index in 0..<250 {
                _ = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: bob, status: .queued, text: "Routine \(index)."))
            }
        }
        let get = { (query: [String: String]) in
            rig.controller.respond(
                to: ConsoleRequest(method: "GET", path: "/", query: query, cookies: [ConsoleController.sessionCookie: session.cookie]))
        }
        let all = get([:])
        #expect(all.status == 200 && all.body.contains("Routine 249.") && !all.body.contains("The lost report."))
        let failed = get(["status": "failed"])
        #expect(failed.status == 200 && failed.body.contains("The lost report.") && !failed.body.contains("Routine"), "\(failed.body)")
        let searched = get(["q": "lost report"])
        #expect(searched.body.contains("The lost report.") && !searched.body.contains("looked through the newest"))
        let gone = get(["contact": "nobody"])
        #expect(gone.status == 200 && gone.body.contains("No messages match."))
        let stopped = LogPage.render(
            [], filter: LogFilter(search: "lost"), contacts: [], viewer: ConsoleViewsTests.viewer, searchedAll: false)
        #expect(stopped.markup.contains("looked through the newest 5000 messages that pass the other filters"))
    }

    @Test("A search over 10 words or 100 characters (combining marks count) is refused with 422 before the log is read")
    func aSearchIsBounded() throws {
        let rig = try ConsoleControllerTests.Rig()
        let session = try rig.signIn("watch")
        let get = { (words: String) in
            rig.controller.respond(
                to: ConsoleRequest(
                    method: "GET", path: "/", query: ["q": words], cookies: [ConsoleController.sessionCookie: session.cookie]))
        }
        let heavy = "e" + String(repeating: "\u{301}", count: 100_000)
        for words in [String(repeating: "a ", count: 11), String(repeating: "x", count: 101), heavy] {
            let refused = get(words)
            #expect(
                refused.status == 422 && refused.body.contains("a search takes at most 10 words and 100 characters"), "\(refused.status)")
        }
        let longest = get(String(repeating: "word ", count: 9) + String(repeating: "y", count: 55))
        #expect(longest.status == 200 && longest.body.contains("No messages match."))
    }
}
