import Foundation
import TestSupport
import Testing

/// The documented exit statuses, and sentences that say what to do.
@Suite("Exit codes", .serialized, .blockingOffPool)
struct ExitCodeTests {
    @Test("usage 64, not found 66, tampered 65, unavailable 69, wrong passphrase and lockout 77")
    func exitCodes() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)

            #expect(try alice.run(["encrypt"]).status == 64)
            #expect(try alice.run(["contact", "edit", "bob", "--number", "+447700900123", "--clear-number"]).status == 64)
            #expect(try alice.run(["init", "--username", "x", "--kdf-memory", "8"]).status == 64)
            #expect(try alice.run(["contact", "pair", "bob", "NOT-A-CODE"]).status == 64)

            let unknown = try alice.run(["encrypt", "nobody", "hello"])
            #expect(unknown.status == 66)
            #expect(unknown.stderr.contains("contact list"))
            #expect(try alice.run(["contact", "show", "nobody"]).status == 66)

            let unavailable = try alice.run(["resync", "bob"])
            #expect(unavailable.status == 69)
            #expect(unavailable.stderr.contains("--manual"))

            let ciphertext = try #require(try alice.encrypt(["meet at the bridge"], for: bob).first)
            var characters = Array(ciphertext)
            characters[80] = characters[80] == "A" ? "B" : "A"
            let tampered = try bob.run(["decrypt", "alice", "--", String(characters)])  // a ciphertext may start with "-"
            #expect(tampered.status == 65)
            #expect(tampered.stderr.contains("Nothing was changed") || tampered.stderr.contains("altered"))
            let genuine = try bob.expect(["decrypt", "alice", "--", ciphertext])
            #expect(genuine.stdout == "meet at the bridge\n", "the failed attempt changed nothing")
            let duplicate = try bob.run(["decrypt", "alice", "--", ciphertext])
            #expect(duplicate.status == 65)
            #expect(duplicate.stderr.contains("duplicate"))

            let fromStdin = try bob.run(["decrypt", "alice"], input: "short\n")
            #expect(fromStdin.status == 65)

            // No passphrase and no terminal: 77 and a pointer to SMSGW_PASSPHRASE_FILE.
            if FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid") {
                let binary = try SMSGWBinary.require().path
                let process = try SMSGWBinary.makeProcess([], environment: ["SMSGW_DATA_DIR": alice.dataDir.path])
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
                process.arguments = ["--wait", binary, "contact", "list"]
                let errors = Pipe()
                process.standardError = errors
                process.standardOutput = FileHandle.nullDevice
                process.standardInput = FileHandle.nullDevice
                try process.run()
                let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                #expect(process.waitForExit() == ChildExit(reason: .exit, status: 77))
                #expect(message.contains("SMSGW_PASSPHRASE_FILE"))
            }

            let wrong = ["SMSGW_PASSPHRASE": "not the passphrase"]
            let first = try alice.run(["contact", "list"], environment: wrong)
            #expect(first.status == 77)
            #expect(first.stderr.contains("2 more attempts"))
            // One sentence, as every error of the command line: no log line before it.
            #expect(first.stderr.split(separator: "\n").count == 1 && first.stderr.hasPrefix("smsgw: "), "\(first.stderr)")
            // --verbose adds the store's own event (the account's failure count, no secret).
            let verbose = try alice.run(["contact", "list", "--verbose"], environment: wrong)
            #expect(verbose.status == 77 && verbose.stderr.contains("Wrong passphrase for the gateway account."), "\(verbose.stderr)")
            let third = try alice.run(["contact", "list"], environment: wrong)
            #expect(third.status == 77)
            // The attempt that locks says its passphrase was wrong too, not only that it is locked.
            #expect(third.stderr.contains("The passphrase is wrong, and that was one failure too many"), "\(third.stderr)")
            #expect(third.stderr.contains("try again after"))
            // Locked: even the right passphrase is refused until the time it names.
            let locked = try alice.run(["contact", "list"])
            #expect(locked.status == 77)
            #expect(locked.stderr.contains("try again after"))
        }
    }

    @Test("send --lines queues one message per line in order; a bad line prints an empty line, the rest still queue, exit 65")
    func sendLines() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+447700900123"])
            #expect(try alice.run(["send", "bob", "text", "--lines"]).status == 64)
            // No text: stdin is read, as encrypt does; an empty one is refused (65), not a usage error.
            let empty = try alice.run(["send", "bob"])
            #expect(empty.status == 65 && empty.stderr.contains("The text is empty"))

            let result = try alice.run(["send", "bob", "--lines"], input: "first\nsnow ☃ man\nthird\n")
            #expect(result.status == 65)
            #expect(result.lines.count == 3)
            #expect(result.lines[1].isEmpty)
            #expect(result.stderr.contains("line 2:") && result.stderr.contains("☃"))
            let ids = [result.lines[0], result.lines[2]].compactMap { Int64($0) }
            #expect(ids.count == 2 && ids[0] < ids[1])
            // Both good lines are queued, in order, each with its own key step.
            let log = try alice.expect(["log", "--json"]).lines.compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let queued = log.filter { $0["status"] as? String == "queued" }
            #expect(queued.compactMap { $0["text"] as? String } == ["first", "third"])
            #expect(Set(queued.compactMap { $0["ciphertext"] as? String }).count == 2)
        }
    }

    @Test("a contact without a number: send and resync refuse it alike, 69 (unavailable), each naming what helps")
    func noNumber() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            let send = try alice.run(["send", "bob"], input: "over SMS\n")
            let resync = try alice.run(["resync", "bob"])
            #expect(send.status == 69 && resync.status == 69, "send \(send.status), resync \(resync.status)")
            #expect(send.stderr.contains("no phone number") && send.stderr.contains("smsgw contact edit bob --number"), "\(send.stderr)")
            #expect(resync.stderr.contains("no phone number") && resync.stderr.contains("smsgw resync bob --manual"), "\(resync.stderr)")
            // Not paired either: both in one sentence, and both commands.
            try alice.expect(["contact", "add", "carol"])
            let neither = try alice.run(["send", "carol"], input: "over SMS\n")
            #expect(neither.status == 69 && neither.stderr.contains("no phone number and is not paired yet"), "\(neither.stderr)")
            #expect(
                neither.stderr.contains("smsgw contact edit carol --number") && neither.stderr.contains("smsgw contact pair carol"),
                "\(neither.stderr)")
            #expect(try alice.expect(["log", "--json"]).lines.isEmpty, "nothing was queued or logged")
        }
    }
}
