import Foundation
import SplitMix
import TestSupport
import Testing

/// Two users pair, exchange messages over a lossy channel, re-pair manually, and keep talking.
@Suite("Exchange over a lossy channel", .serialized, .blockingOffPool)
struct ExchangeTests {
    /// Checks a `decrypt --lines` run against what the channel delivered.
    ///
    /// - Returns: The indices of the messages that arrived (at least once).
    @discardableResult
    static func check(_ result: RunResult, deliveries: [SimulatedChannel.Delivery], texts: [String]) -> Set<Int> {
        let lines = result.lines
        #expect(lines.count == deliveries.count, "one output line per input line; stderr: \(result.stderr)")
        let errors = result.stderr.components(separatedBy: "\n")
        var seen = Set<Int>()
        var duplicates = 0
        for (offset, delivery) in deliveries.enumerated() where offset < lines.count {
            if seen.insert(delivery.index).inserted {
                #expect(
                    lines[offset] == texts[delivery.index],
                    "line \(offset + 1) should be message \(delivery.index); stderr: \(result.stderr)")
            } else {
                duplicates += 1
                #expect(lines[offset] == "")
                let report = errors.first { $0.hasPrefix("smsgw: line \(offset + 1): ") }
                #expect(report?.contains("duplicate") == true, "line \(offset + 1) is a duplicate: \(report ?? "no report")")
            }
        }
        #expect(result.status == (duplicates > 0 ? 65 : 0), "exit status \(result.status): \(result.stderr)")
        return seen
    }

    static func texts(from sender: String, round: Int, count: Int) -> [String] {
        (0..<count).map { i in
            // GSM-7 default and extension characters; at most 141 septets.
            "\(sender) r\(round) #\(i): Grüße, ¿qué tal? {brackets} [x] €\(i * 7) ~ ^ | ÆØÅ ΔΦΓ end"
        }
    }

    @Test("200 messages each way with loss, duplicates and reordering, then a manual re-pairing")
    func exchange() throws {
        try withTemporaryDirectory { root in
            let seed = UInt64.random(in: 0...UInt64.max)
            print("ExchangeTests seed: \(seed) (simulated channel: 10% drop, 5% duplicate, reorder)")
            var channel = SimulatedChannel(rng: SplitMix64(seed: seed))
            let (alice, bob) = try Peer.pairedCouple(in: root)

            var delivered = 0
            for round in 0..<8 {
                let fromAlice = Self.texts(from: "alice", round: round, count: 25)
                let fromBob = Self.texts(from: "bob", round: round, count: 25)
                let aliceCiphertexts = try alice.encrypt(fromAlice, for: bob)
                let bobCiphertexts = try bob.encrypt(fromBob, for: alice)
                #expect(Set(aliceCiphertexts + bobCiphertexts).count == 50, "every ciphertext differs")
                let toBob = channel.transmit(aliceCiphertexts)
                let toAlice = channel.transmit(bobCiphertexts)
                delivered += Self.check(try bob.decrypt(toBob.map(\.ciphertext), from: alice), deliveries: toBob, texts: fromAlice).count
                delivered += Self.check(try alice.decrypt(toAlice.map(\.ciphertext), from: bob), deliveries: toAlice, texts: fromBob).count
            }
            #expect(delivered > 300, "about 90% of 400 messages arrive")

            // A message alice sends on the old chain that reaches bob only after the re-pairing.
            let late = try alice.encrypt(["late on the old chain"], for: bob)

            // Manual re-pairing: new codes on both sides; the old session keeps working meanwhile.
            let rePairing = try alice.expect(["resync", "bob", "--manual"])
            let aliceNew = try #require(rePairing.lines.first)
            // The codes are the new secret (docs/PROTOCOL.md §4.1): never advised over the phone.
            #expect(rePairing.stdout.contains("in person (not by phone call or SMS"), "\(rePairing.stdout)")
            #expect(!rePairing.stdout.contains("Read this new code"), "\(rePairing.stdout)")
            let bobNew = try #require(try bob.expect(["resync", "alice", "--manual"]).lines.first)
            let meanwhile = try alice.encrypt(["sent while re-pairing"], for: bob)
            #expect(try bob.decrypt(meanwhile, from: alice).lines == ["sent while re-pairing"])
            let pending = try bob.expect(["contact", "show", "alice", "--json"]).stdout
            #expect(pending.contains("\"pairing\":\"pending\"") && pending.contains("\"rePairing\":true"))

            let aliceSafety = try alice.pair(bob, code: bobNew)
            let bobSafety = try bob.pair(alice, code: aliceNew)
            #expect(aliceSafety == bobSafety)

            for round in 8..<10 {
                let fromAlice = Self.texts(from: "alice", round: round, count: 20)
                let fromBob = Self.texts(from: "bob", round: round, count: 20)
                let toBob = channel.transmit(try alice.encrypt(fromAlice, for: bob))
                let toAlice = channel.transmit(try bob.encrypt(fromBob, for: alice))
                Self.check(try bob.decrypt(toBob.map(\.ciphertext), from: alice), deliveries: toBob, texts: fromAlice)
                Self.check(try alice.decrypt(toAlice.map(\.ciphertext), from: bob), deliveries: toAlice, texts: fromBob)
            }
            let lateResult = try bob.decrypt(late, from: alice)
            #expect(lateResult.status == 0, "late old-chain message: \(lateResult.stderr)")
            #expect(lateResult.lines == ["late on the old chain"])

            let shown = try bob.expect(["contact", "show", "alice", "--json"]).stdout
            #expect(shown.contains("\"pairing\":\"paired\""))
            #expect(!shown.contains(aliceNew) && !shown.contains(bobNew), "show never prints codes")
            let log = try bob.expect(["log", "--json", "--contact", "alice", "--limit", "5"])
            #expect(log.lines.count == 5)
            #expect(log.lines.last?.contains("late on the old chain") == true)
        }
    }

    @Test("8 processes encrypting for one contact at once never share a position")
    func parallelEncrypt() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let texts = (0..<8).map { "parallel message \($0)" }
            let processes = try texts.map { text in
                let process = try SMSGWBinary.makeProcess(["encrypt", "bob", text], environment: alice.environment)
                let pipe = Pipe()
                process.standardOutput = pipe
                process.standardError = FileHandle.nullDevice
                process.standardInput = FileHandle.nullDevice
                return (process, pipe)
            }
            for (process, _) in processes { try process.run() }
            var ciphertexts: [String] = []
            for (process, pipe) in processes {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                #expect(process.waitForExit().succeeded)
                ciphertexts.append(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines))
            }
            #expect(Set(ciphertexts).count == 8)
            let first = try bob.decrypt(ciphertexts, from: alice)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.lines == texts, "each process's text decrypts, in the order given")
            let again = try bob.decrypt(ciphertexts, from: alice)
            #expect(again.status == 65)
            #expect(again.stderr.components(separatedBy: "\n").filter { $0.contains("duplicate") }.count == 8)
            let show = try alice.expect(["contact", "show", "bob", "--json"]).stdout
            #expect(show.contains("\"sendPosition\":8"))
        }
    }
}
