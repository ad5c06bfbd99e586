import Foundation
import TestSupport
import Testing

/// `contact add/edit` with several numbers and a modem pin, as a user types them.
@Suite("Contact numbers and modem pins on the command line", .blockingOffPool)
struct ContactRoutingTests {
    private struct Shown: Decodable {
        var number: String?
        var numbers: [String]
        var modem: String?
    }

    private func show(_ peer: Peer, _ name: String) throws -> Shown {
        try JSONDecoder().decode(Shown.self, from: Data(peer.expect(["contact", "show", name, "--json"]).stdout.utf8))
    }

    @Test("Several numbers and a pin are stored, shown, replaced and removed; conflicts are refused")
    func numbersAndPin() throws {
        try withTemporaryDirectory { root in
            let base = try Peer.create("base", in: root)
            try base.expect(["contact", "add", "field", "--number", "+44 7700 900101", "--number", "+447700900102", "--modem", "north"])
            var shown = try show(base, "field")
            #expect(shown.number == "+447700900101")
            #expect(shown.numbers == ["+447700900101", "+447700900102"])
            #expect(shown.modem == "north")
            let text = try base.expect(["contact", "show", "field"]).stdout
            #expect(text.contains("+447700900101 +447700900102") && text.contains("modem:            north"))

            // A number that belongs to "field" (its second one) cannot go to another contact.
            let taken = try base.run(["contact", "add", "other", "--number", "+447700900102"])
            #expect(taken.status != 0)
            #expect(taken.stderr.contains("+447700900102") && taken.stderr.contains("field"))
            #expect(try base.run(["contact", "edit", "field", "--modem", "north", "--any-modem"]).status == 64)

            let saved = try base.expect(["contact", "edit", "field", "--number", "+447700900103", "--any-modem"]).stdout
            #expect(saved.contains("+447700900103") && saved.contains("any modem"))
            shown = try show(base, "field")
            #expect(shown.numbers == ["+447700900103"] && shown.modem == nil)
            // The numbers left out are free again.
            try base.expect(["contact", "add", "other", "--number", "+447700900102"])

            try base.expect(["contact", "edit", "field", "--clear-number"])
            shown = try show(base, "field")
            #expect(shown.number == nil && shown.numbers.isEmpty)
        }
    }
}
