import Foundation
import TestSupport
import Testing

/// The libraries' sentences name no command; the CLI adds its own, so a person at the terminal
/// still reads which `smsgw` command helps.
@Suite("The CLI adds its own hints", .blockingOffPool)
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

    @Test("A paste of one's own SMS, or another contact's, says whose it is and the command that helps")
    func misdirectedPastes() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let carol = try Peer.create("carol", in: root)
            _ = try bob.add(carol)
            _ = try bob.pair(carol, code: try carol.add(bob))
            let sealed = try alice.encrypt(["Meet at noon"], for: bob)[0]

            let own = try alice.run(["decrypt", "bob"], input: sealed + "\n")
            #expect(own.status == 65, "exited \(own.status): \(own.stderr)")
            #expect(
                own.stderr
                    == "smsgw: This is message 1, which this side encrypted for bob: only bob can decrypt it, as each direction has keys of its own (nothing was changed). `smsgw log show 1` shows it.\n"
            )

            let other = try bob.run(["decrypt", "carol"], input: sealed + "\n")
            #expect(other.status == 65, "exited \(other.status): \(other.stderr)")
            #expect(
                other.stderr
                    == "smsgw: This message is from alice, not carol: decrypt it as alice's (nothing was changed). Run `smsgw decrypt alice`.\n"
            )
            #expect(try bob.expect(["decrypt", "alice"], input: sealed + "\n").stdout == "Meet at noon\n")
        }
    }
}

/// The simulator's errors have categories too, so `smsgw sim` exits with a documented status.
@Suite("smsgw sim exits by category", .blockingOffPool)
struct SimulatorExitTests {
    @Test("a number given twice is refused as data (65), naming the number")
    func duplicateNumber() throws {
        try withTemporaryDirectory { root in
            let result = try SMSGWBinary.run(
                ["sim", "--number", "+15550009", "--number", "+15550009", "--dir", root.appendingPathComponent("sim").path],
                environment: [:])
            #expect(result.status == 65, "sim exited \(result.status): \(result.stderr)")
            #expect(result.stderr.contains("+15550009") && result.stderr.contains("exists already"))
        }
    }

    @Test("An SMS that does not verify names the resync that helps: --manual for a contact without a number")
    func failedVerificationNamesTheResync() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let sealed = try alice.encrypt(["Meet at noon", "Meet at one"], for: bob)
            func altered(_ sms: String) -> String { (sms.first == "A" ? "B" : "A") + sms.dropFirst() }
            let pasted = try bob.run(["decrypt", "alice"], input: altered(sealed[0]) + "\n")
            #expect(pasted.status == 65, "\(pasted.stderr)")
            #expect(
                pasted.stderr.hasSuffix(
                    "run a resync. Here that is `smsgw resync alice --manual`: alice has no number, so new pairing codes.\n"),
                "\(pasted.stderr)")
            try bob.expect(["contact", "edit", "alice", "--number", "+15550001"])
            let bySMS = try bob.run(["decrypt", "alice"], input: altered(sealed[1]) + "\n")
            #expect(bySMS.status == 65 && bySMS.stderr.hasSuffix("run a resync. Here that is `smsgw resync alice`.\n"), "\(bySMS.stderr)")
        }
    }
}
