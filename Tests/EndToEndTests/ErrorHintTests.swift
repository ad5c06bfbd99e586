import Foundation
import TestSupport
import Testing

/// The libraries' sentences name no command; the CLI adds its own, so a person at the terminal
/// still reads which `smsgw` command helps.
@Suite("The CLI adds its own hints")
struct ErrorHintTests {
    @Test("Not-found errors name the command that lists what exists")
    func notFoundHints() throws {
        try withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let cases: [([String], String)] = [
                (["contact", "show", "nobody"], "No contact is named \"nobody\"; see `smsgw contact list` for the names."),
                (["log", "show", "999"], "No message has id 999; see `smsgw log` for the ids."),
                (["otp", "code", "nothing"], "No OTP entry is named \"nothing\"; see `smsgw otp list` for the names."),
            ]
            for (arguments, sentence) in cases {
                let result = try alice.run(arguments)
                #expect(result.status == 66, "\(arguments) exited \(result.status): \(result.stderr)")
                #expect(result.stderr == "smsgw: \(sentence)\n", "\(arguments): \(result.stderr)")
            }
        }
    }
}
