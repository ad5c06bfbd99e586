import Foundation
import TestSupport
import Testing

/// `smsgw log retry ID`: what it refuses, with the documented exit statuses.
@Suite("log retry")
struct LogRetryTests {
    @Test("A message with nothing failed exits 65 and stays queued; an unknown id exits 66")
    func refusals() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+15550002"])
            let id = try alice.expect(["send", "bob"], input: "Hello there.\n").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let queued = try alice.run(["log", "retry", id])
            #expect(queued.status == 65 && queued.stderr.contains("no failed SMS"), "\(queued.stderr)")
            #expect(try alice.expect(["log", "show", id]).stdout.contains("\tqueued\t"))
            let unknown = try alice.run(["log", "retry", "424242"])
            #expect(unknown.status == 66, "\(unknown.stderr)")
            #expect(try alice.run(["log", "retry", "seven"]).status == 64)
        }
    }
}
