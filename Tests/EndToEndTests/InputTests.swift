import Foundation
import TestSupport
import Testing

/// Texts, codes and secrets come from stdin or a prompt, not the command line; what a shell would
/// mangle is pasted; empty texts are refused before a key is spent.
@Suite("Input: stdin, prompts and warnings", .blockingOffPool)
struct InputTests {
    static let argvWarning = "smsgw: warning: the"
    static let readable = "on the command line, where every local user can read it"

    @Test("encrypt, send, contact pair, otp add and 2fa --secret warn when given texts or secrets as arguments, not on stdin")
    func argumentsWarn() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+447700900123"])
            let warned = [
                try alice.expect(["encrypt", "bob", "on argv"]),
                try alice.expect(["send", "bob", "on argv"]),
                try alice.expect(["otp", "add", "mail", "--secret", "JBSWY3DPEHPK3PXP"]),
            ]
            for result in warned {
                #expect(result.stderr.contains(Self.argvWarning) && result.stderr.contains(Self.readable), "\(result.stderr)")
            }
            let quiet = [
                try alice.expect(["encrypt", "bob"], input: "on stdin\n"),
                try alice.expect(["send", "bob"], input: "on stdin\n"),
                try alice.expect(["otp", "add", "bank"], input: "JBSWY3DPEHPK3PXP\n"),
                try alice.expect(["otp", "add", "work"], input: "otpauth://totp/Work:alice?secret=JBSWY3DPEHPK3PXP&issuer=Work\n"),
                try bob.expect(["decrypt", "alice"], input: alice.encrypt(["x"], for: bob)[0] + "\n"),
            ]
            for result in quiet { #expect(!result.stderr.contains(Self.readable), "\(result.stderr)") }
            // The stdin forms did what the argument forms do.
            let otp = try alice.expect(["otp", "list", "--json"]).stdout
            #expect(otp.contains("\"bank\"") && otp.contains("\"Work\""))
        }
    }

    @Test("send reads stdin when the text is left out; empty texts are refused before a key is used")
    func stdinAndEmptyTexts() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+447700900123"])
            let sent = try alice.expect(["send", "bob"], input: "from stdin\n")
            #expect(Int64(sent.lines.first ?? "") != nil, "\(sent.stdout)")

            for input in ["", "\n", "   \n"] {
                let empty = try alice.run(["encrypt", "bob"], input: input)
                #expect(empty.status == 65)
                #expect(empty.stderr.contains("smsgw: The text is empty"), "\(empty.stderr)")
                #expect(try alice.run(["send", "bob"], input: input).status == 65)
            }
            let batch = try alice.run(["send", "bob", "--lines"], input: "one\n\ntwo\n")
            #expect(batch.status == 65)
            #expect(batch.lines.count == 3 && batch.lines[1].isEmpty && Int64(batch.lines[2]) != nil)
            #expect(batch.stderr.contains("smsgw: line 2: The text is empty"), "\(batch.stderr)")

            // Only the three real texts spent a key step: positions 0, 1, 2.
            let shown = try alice.expect(["contact", "show", "bob", "--json"]).stdout
            #expect(shown.contains("\"sendPosition\":3"), "\(shown)")
            let queued = try alice.expect(["log", "--json"]).lines.filter { $0.contains("\"queued\"") }
            #expect(queued.count == 3 && !queued.contains { $0.contains("\"text\":\"\"") })
        }
    }

    @Test("More than 1 MiB on stdin, or in one of its lines, is refused (exit 65) without a key step")
    func endlessStdin() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+447700900123"])
            let flood = String(repeating: "z", count: (1 << 20) + 1)
            for arguments in [["encrypt", "bob"], ["send", "bob"], ["decrypt", "bob"], ["decrypt", "bob", "-"]] {
                let refused = try alice.run(arguments, input: flood)
                #expect(refused.status == 65, "\(arguments)")
                #expect(refused.stderr.contains("More than 1 MiB came on stdin"), "\(refused.stderr)")
            }
            // A batch queues the lines before an endless one, fails it, and reads nothing after it.
            let batch = try alice.run(["send", "bob", "--lines"], input: "one\n" + flood + "\nthree\n")
            #expect(batch.status == 65)
            #expect(batch.lines.count == 2 && Int64(batch.lines[0]) != nil && batch.lines[1].isEmpty, "\(batch.stdout)")
            #expect(batch.stderr.contains("smsgw: line 2: More than 1 MiB came on stdin"), "\(batch.stderr)")
            let secret = try alice.run(["otp", "add", "mail"], input: flood)
            #expect(secret.status == 65 && secret.stderr.contains("More than 1 MiB came on stdin"), "\(secret.stderr)")
            let shown = try alice.expect(["contact", "show", "bob", "--json"]).stdout
            #expect(shown.contains("\"sendPosition\":1"), "\(shown)")
            // Just under the bound is read whole: refused for its length by the message rules instead.
            let long = try alice.run(["encrypt", "bob"], input: String(repeating: "z", count: 1 << 20))
            #expect(long.status != 0 && !long.stderr.contains("came on stdin"), "\(long.stderr)")
        }
    }

    @Test("On a terminal, decrypt asks to paste the SMS and encrypt asks for the text; a pasted ciphertext with quotes and $ works")
    func terminalPrompts() async throws {
        guard TerminalSession.isAvailable else { return }
        try await withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            // A ciphertext a shell would change in an argument: find one with ' " $ ! or `.
            var ciphertext = ""
            for attempt in 0..<40 {
                let candidate = try alice.encrypt(["paste \(attempt)"], for: bob)[0]
                if candidate.contains(where: { "'\"$!`".contains($0) }) {
                    ciphertext = candidate
                    break
                }
                _ = try bob.decrypt([candidate], from: alice)
            }
            try #require(!ciphertext.isEmpty)
            let decrypt = try TerminalSession(["decrypt", "alice"], environment: bob.environment)
            try await decrypt.waitFor("Paste the SMS from alice: ")
            decrypt.type(ciphertext + "\n")
            let decrypted = try await decrypt.finish()
            #expect(decrypted.status == 0, "\(decrypted.screen)")
            #expect(decrypted.screen.contains("paste "))

            let encrypt = try TerminalSession(["encrypt", "bob"], environment: alice.environment)
            try await encrypt.waitFor("Text for bob: ")
            encrypt.type("typed at the prompt\n")
            let encrypted = try await encrypt.finish()
            #expect(encrypted.status == 0, "\(encrypted.screen)")
            let sms = try #require(encrypted.screen.components(separatedBy: "\r\n").first { $0.count == 160 })
            #expect(try bob.decrypt([sms], from: alice).lines == ["typed at the prompt"])
        }
    }

    @Test("On a terminal, a pairing code is typed at a masked prompt; a passphrase confirmation that differs exits 64")
    func maskedPrompts() async throws {
        guard TerminalSession.isAvailable else { return }
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let bob = try Peer.create("bob", in: root)
            _ = try alice.add(bob)
            let bobCode = try bob.add(alice)
            let pair = try TerminalSession(["contact", "pair", "bob"], environment: alice.environment)
            try await pair.waitFor("bob's pairing code: ")
            pair.type(bobCode + "\n")
            let paired = try await pair.finish()
            #expect(paired.status == 0, "\(paired.screen)")
            #expect(!paired.screen.contains(bobCode), "the code was echoed: \(paired.screen)")
            #expect(!paired.screen.contains("warning"))

            let fresh = root.appendingPathComponent("fresh")
            let initialise = try TerminalSession(
                ["init", "--username", "carol", "--kdf-memory", "19", "--kdf-iterations", "2"],
                environment: ["SMSGW_DATA_DIR": fresh.path])
            try await initialise.waitFor("New passphrase for smsgw: ")
            initialise.type("one passphrase\n")
            try await initialise.waitFor("Repeat it: ")
            initialise.type("another passphrase\n")
            let mismatch = try await initialise.finish()
            #expect(mismatch.status == 64, "\(mismatch.screen)")
            #expect(mismatch.screen.contains("smsgw: The two passphrases differ"))
        }
    }
}
