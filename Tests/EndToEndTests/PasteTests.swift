import Foundation
import TestSupport
import Testing

/// A paste at a prompt, as a terminal delivers it: all its lines at once. The prompt reads what it
/// needs; nothing of the paste is left for the shell to run once smsgw exits.
@Suite("Pasting at a prompt", .blockingOffPool)
struct PasteTests {
    /// Runs `smsgw arguments…` on a terminal inside bash, pastes `paste` at `prompt`, then lets the
    /// shell read one more line: what a paste left behind would reach it there.
    static func paste(
        _ paste: String, at prompt: String, running arguments: [String], as peer: Peer
    ) async throws -> (status: Int32, screen: String) {
        let binary = try SMSGWBinary.require().path
        let environment = peer.environment.merging([
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "SMSGW": binary,
        ]) { $1 }
        let words = arguments.map { "'\($0)'" }.joined(separator: " ")
        let script = peer.dataDir.deletingLastPathComponent().appendingPathComponent("paste-\(UUID().uuidString).sh")
        try "\"$SMSGW\" \(words); echo \"status=$?\"; read -r -t 2 left; echo \"leftover=[$left]\"\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let session = try TerminalSession(bash: script.path, environment: environment)
        try await session.waitFor(prompt)
        session.type(paste)
        try await session.waitFor("leftover=[")
        return try await session.finish()
    }

    @Test("decrypt joins an SMS pasted over several lines, reads the first of two, and leaves nothing for the shell")
    func decryptPaste() async throws {
        guard TerminalSession.isAvailable else { return }
        try await withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let sms = try alice.encrypt(["broken over lines", "second of two", "third"], for: bob)
            let prompt = "Paste the SMS from alice: "
            let split = try await Self.paste(
                String(sms[0].prefix(70)) + "\n" + String(sms[0].dropFirst(70)) + "\n", at: prompt,
                running: ["decrypt", "alice"], as: bob)
            #expect(split.screen.contains("broken over lines") && split.screen.contains("status=0"), "\(split.screen)")
            #expect(split.screen.contains("leftover=[]"), "\(split.screen)")

            let two = try await Self.paste(sms[1] + "\n" + sms[2] + "\n", at: prompt, running: ["decrypt", "alice"], as: bob)
            #expect(two.screen.contains("second of two") && two.screen.contains("status=0"), "\(two.screen)")
            #expect(two.screen.contains("smsgw: warning: more than one SMS was pasted"), "\(two.screen)")
            #expect(two.screen.contains("leftover=[]"), "the second SMS reached the shell: \(two.screen)")
            // The discarded one is still in the person's hands and decrypts when pasted alone.
            #expect(try bob.decrypt([sms[2]], from: alice).lines == ["third"])

            // Copied with the empty line above it: the SMS is read, not discarded as a second one.
            let spaced = try alice.encrypt(["after a blank line"], for: bob)
            let blank = try await Self.paste("\n" + spaced[0] + "\n", at: prompt, running: ["decrypt", "alice"], as: bob)
            #expect(blank.screen.contains("after a blank line") && blank.screen.contains("status=0"), "\(blank.screen)")
            #expect(!blank.screen.contains("more than one SMS"), "\(blank.screen)")
            #expect(blank.screen.contains("leftover=[]"), "\(blank.screen)")
        }
    }

    @Test("encrypt refuses a text pasted as several lines before any key is used, and leaves nothing for the shell")
    func encryptPaste() async throws {
        guard TerminalSession.isAvailable else { return }
        try await withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let refused = try await Self.paste(
                "first line of a report\nsecond line, private\n", at: "Text for bob: ", running: ["encrypt", "bob"], as: alice)
            #expect(refused.screen.contains("status=65"), "\(refused.screen)")
            #expect(refused.screen.contains("smsgw: The pasted text has several lines"), "\(refused.screen)")
            #expect(refused.screen.contains("leftover=[]"), "the second line reached the shell: \(refused.screen)")
            let shown = try alice.expect(["contact", "show", "bob", "--json"]).stdout
            #expect(shown.contains("\"sendPosition\":0"), "a key step was used: \(shown)")

            let one = try await Self.paste("one line\n", at: "Text for bob: ", running: ["encrypt", "bob"], as: alice)
            let sms = try #require(one.screen.components(separatedBy: "\r\n").first { $0.count == 160 }, "\(one.screen)")
            #expect(try bob.decrypt([sms], from: alice).lines == ["one line"])
        }
    }

    @Test("decrypt says so when nothing was pasted, two SMS were pasted together or quotes were made typographic; nothing changes")
    func emptyAndDoublePastes() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let sms = try alice.encrypt(["first", "second"], for: bob)
            for input in ["", "\n", "  \n"] {
                let empty = try bob.run(["decrypt", "alice"], input: input)
                #expect(empty.status == 65 && empty.stderr.contains("smsgw: Nothing was given to decrypt"), "\(empty.stderr)")
            }
            for input in [sms[0] + sms[1] + "\n", sms[0] + "\n" + sms[1] + "\n"] {
                let double = try bob.run(["decrypt", "alice"], input: input)
                #expect(double.status == 65, "\(double.stderr)")
                #expect(double.stderr.contains("as many as 2 SMS pasted together") && double.stderr.contains("--lines"), "\(double.stderr)")
            }
            #expect(try bob.decrypt(sms, from: alice).lines == ["first", "second"])

            // An app's smart punctuation turns ' into ’ and " into ”: the hint says so.
            let candidates = try alice.encrypt((0..<40).map { "quoted \($0)" }, for: bob)
            let quoted = try #require(candidates.first { $0.contains("'") || $0.contains("\"") })
            let smart = quoted.replacingOccurrences(of: "'", with: "’").replacingOccurrences(of: "\"", with: "”")
            let refused = try bob.run(["decrypt", "alice"], input: smart + "\n")
            #expect(refused.status == 65 && refused.stderr.contains("smart punctuation"), "\(refused.stderr)")
            #expect(try bob.run(["decrypt", "alice"], input: quoted + "\n").status == 0)
        }
    }
}
