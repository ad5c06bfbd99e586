import Foundation
import SplitMix
import Testing

@testable import SMSCipher

/// Known-answer vectors of version 2 (docs/PROTOCOL.md §12): typed messages, a three-part text with
/// one part lost and re-sent, and batched acknowledgements. Replayed like the version-1 vectors;
/// regenerate with SMSGW_WRITE_VECTORS_V2=path swift test --filter TypedVectorTests.
struct TypedVectorFile: Codable {
    var description: String
    var aliceCode: String
    var bobCode: String
    var steps: [Step]

    struct Step: Codable, Equatable {
        /// "seal" (a text), "sealTyped" (`kind`, `body`), "sealPart" (part `part` of `text` split
        /// as §8.1 says), "acknowledge" (`positions` of epoch 0), "open".
        var op: String
        var side: String
        var text: String?
        var kind: Int?
        /// Septets of a typed body, as hexadecimal bytes.
        var body: String?
        var part: Int?
        var positions: [UInt32]?
        var random: [String]
        var ciphertext: String?
        /// "text", "typed", "duplicate" or "notAuthentic".
        var outcome: String?
        /// The position the message opened at.
        var position: UInt32?
        /// For a part: "waiting 1 of 3", "complete", "duplicate" (the receiver's reassembly, §8.2).
        var assembly: String?
        var note: String?
    }
}

@Suite struct TypedVectorTests {
    static let url = Bundle.module.url(forResource: "protocol-v2", withExtension: "json", subdirectory: "Vectors")
    static let longText =
        String(repeating: "Long texts travel in parts. ", count: 4) + String(repeating: "x", count: 23) + "€"
        + String(repeating: "Part two begins after the euro sign, which stays whole. ", count: 3)

    static func script() -> [TypedVectorFile.Step] {
        func step(_ op: String, _ side: String, note: String? = nil) -> TypedVectorFile.Step {
            .init(op: op, side: side, random: [], note: note)
        }
        func open(_ side: String, _ index: Int, _ note: String? = nil) -> TypedVectorFile.Step {
            var open = step("open", side, note: note)
            open.ciphertext = "#\(index)"
            return open
        }
        var steps: [TypedVectorFile.Step] = []
        var unknown = step("sealTyped", "alice", note: "a kind this version does not define, as a newer version might send")
        unknown.kind = 100
        unknown.body = "000102037f"
        steps.append(unknown)  // 0, position 0
        steps.append(open("bob", 0, "kept and reported as typed, never as text"))
        for part in 1...3 {  // 2-4, positions 1-3
            var seal = step(
                "sealPart", "alice", note: part == 1 ? "a text of three parts; the euro sign would straddle parts 1 and 2" : nil)
            seal.text = longText
            seal.part = part
            steps.append(seal)
        }
        steps.append(open("bob", 2))
        steps.append(open("bob", 4, "part 2 was lost"))
        var acknowledge = step("acknowledge", "bob", note: "one acknowledgement covers positions 0, 1 and 3")
        acknowledge.positions = [0, 1, 3]
        steps.append(acknowledge)  // 7
        steps.append(open("alice", 7))
        steps.append(open("bob", 3, "alice re-sends part 2's stored ciphertext; the text is whole"))
        steps.append(open("bob", 3, "a second copy of part 2 is a duplicate"))
        var second = step("acknowledge", "bob")
        second.positions = [2]
        steps.append(second)  // 11
        steps.append(open("alice", 11))
        var full = step("seal", "alice", note: "a text of 141 septets is still one message")
        full.text = String(repeating: "0123456789", count: 14) + "!"
        steps.append(full)  // 13
        steps.append(open("bob", 13))
        return steps
    }

    static func run(expected: TypedVectorFile?, seed: UInt64) throws -> TypedVectorFile {
        var generator = ScriptedGenerator()
        if expected == nil { generator.recorder = SplitMix64(seed: seed) }
        let aliceCode = try expected.map { try PairingCode(parsing: $0.aliceCode) } ?? PairingCode.generate(using: &generator)
        let bobCode = try expected.map { try PairingCode(parsing: $0.bobCode) } ?? PairingCode.generate(using: &generator)
        var alice = try Session.paired(mine: aliceCode, peer: bobCode)
        var bob = try Session.paired(mine: bobCode, peer: aliceCode)
        var assembly = Reassembly()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var steps = expected?.steps ?? script()
        for index in steps.indices {
            var step = steps[index]
            generator.begin(replaying: expected == nil ? nil : step.random)
            if expected == nil, let reference = step.ciphertext, reference.hasPrefix("#") {
                step.ciphertext = steps[Int(reference.dropFirst())!].ciphertext
            }
            var session = step.side == "alice" ? alice : bob
            var plaintext: Plaintext?
            switch step.op {
            case "seal": plaintext = .text(step.text!)
            case "sealTyped":
                plaintext = .typed(TypedPayload(kind: .init(rawValue: UInt8(step.kind!)), body: Self.bytes(step.body!)))
            case "sealPart": plaintext = try LongText(step.text!, maxParts: 8).plaintexts[step.part! - 1]
            case "acknowledge": plaintext = .typed(Acknowledgement(epoch: 0, positions: step.positions!)!.payload)
            case "open":
                do {
                    let result = try session.opening(step.ciphertext!, now: now, using: &generator)
                    session = result.session
                    switch result.opened {
                    case .message(let message):
                        (step.outcome, step.text, step.position) = ("text", message.text, message.position)
                    case .typed(let typed):
                        (step.outcome, step.position) = ("typed", typed.position)
                        (step.kind, step.body) = (Int(typed.payload.kind.rawValue), Self.hex(typed.payload.body))
                        if let part = TextPart(typed.payload) {
                            (step.assembly, step.text) = Self.describe(
                                assembly.add(part, position: typed.position, epoch: typed.epoch, now: now).outcome)
                        }
                        if let acknowledgement = Acknowledgement(typed.payload) { step.positions = acknowledgement.positions }
                    case .resync:
                        throw TestFailure("no resync in this script")
                    }
                } catch {
                    guard case .duplicate = error as? CipherError else { throw error }
                    step.outcome = "duplicate"
                }
            default:
                throw TestFailure("unknown op \(step.op)")
            }
            if let plaintext {
                let sealed = try session.sealing(plaintext, using: &generator)
                (session, step.ciphertext, step.position) = (sealed.session, sealed.ciphertext, sealed.position)
            }
            step.random = generator.drawnWords
            if step.side == "alice" { alice = session } else { bob = session }
            if let expected { #expect(step == expected.steps[index], "step \(index) differs") }
            steps[index] = step
        }
        return TypedVectorFile(
            description: "smsgw protocol v2 known-answer vectors (typed messages, parts, acknowledgements); see docs/PROTOCOL.md §12",
            aliceCode: aliceCode.grouped, bobCode: bobCode.grouped, steps: steps)
    }

    static func describe(_ outcome: Reassembly.Outcome) -> (String, String?) {
        switch outcome {
        case .waiting(let received, let count): ("waiting \(received) of \(count)", nil)
        case .complete(let text): ("complete", text.text())
        case .late(let part, _): ("late part \(part.index)", part.text)
        case .duplicate: ("duplicate", nil)
        case .rejected(let reason): ("rejected \(reason)", nil)
        }
    }

    static func bytes(_ hex: String) -> [UInt8] {
        stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func vectorsMatchTheImplementation() throws {
        if let path = ProcessInfo.processInfo.environment["SMSGW_WRITE_VECTORS_V2"] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(try Self.run(expected: nil, seed: 20_261_123)).write(to: URL(fileURLWithPath: path))
            return
        }
        let url = try #require(Self.url, "Tests/SMSCipherTests/Vectors/protocol-v2.json is missing")
        let expected = try JSONDecoder().decode(TypedVectorFile.self, from: Data(contentsOf: url))
        _ = try Self.run(expected: expected, seed: 0)
        let assemblies = expected.steps.compactMap(\.assembly)
        #expect(assemblies == ["waiting 1 of 3", "waiting 2 of 3", "complete"])
        #expect(expected.steps.contains { $0.outcome == "duplicate" })
        #expect(expected.steps.contains { $0.text == Self.longText && $0.assembly == "complete" })
        #expect(expected.steps.filter { $0.op == "open" && $0.kind == 2 }.compactMap(\.positions) == [[0, 1, 3], [2]])
    }
}
