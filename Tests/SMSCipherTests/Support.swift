import Foundation
import SMSCipher

/// SplitMix64: a seeded generator so every randomised test can be replayed from its printed seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator seeded from the clock, or from SMSGW_TEST_SEED to replay a failure; prints its seed.
    static func random(_ name: String = #function) -> SeededGenerator {
        let seed = ProcessInfo.processInfo.environment["SMSGW_TEST_SEED"].flatMap(UInt64.init)
            ?? UInt64(Date().timeIntervalSince1970 * 1_000_000)
        print("\(name): seed \(seed) (replay with SMSGW_TEST_SEED=\(seed))")
        return SeededGenerator(seed: seed)
    }
}

/// Two paired sessions, as alice and bob would hold them.
struct Pair {
    var alice: Session
    var bob: Session
    var rng: SeededGenerator
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init(seed: UInt64 = 42) {
        rng = SeededGenerator(seed: seed)
        let aliceCode = PairingCode.generate(using: &rng)
        let bobCode = PairingCode.generate(using: &rng)
        alice = try! Session.paired(mine: aliceCode, peer: bobCode)
        bob = try! Session.paired(mine: bobCode, peer: aliceCode)
    }

    mutating func aliceSeals(_ text: String) throws -> String {
        let sealed = try alice.sealing(text, using: &rng)
        alice = sealed.session
        return sealed.ciphertext
    }

    mutating func bobSeals(_ text: String) throws -> String {
        let sealed = try bob.sealing(text, using: &rng)
        bob = sealed.session
        return sealed.ciphertext
    }

    mutating func bobOpens(_ ciphertext: String) throws -> String {
        let result = try bob.opening(ciphertext, now: now, using: &rng)
        bob = result.session
        guard case .message(let message) = result.opened else { throw TestFailure("expected a text message") }
        return message.text
    }

    mutating func aliceOpens(_ ciphertext: String) throws -> String {
        let result = try alice.opening(ciphertext, now: now, using: &rng)
        alice = result.session
        guard case .message(let message) = result.opened else { throw TestFailure("expected a text message") }
        return message.text
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Random GSM-7 text of exactly `septets` septets, extension characters included.
func randomGSM7Text(septets: Int, using rng: inout some RandomNumberGenerator) -> String {
    let plain = Array("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà")
    let extended = Array("€[]{}\\~^|")
    var text = ""
    var remaining = septets
    while remaining > 0 {
        if remaining >= 2 && Int.random(in: 0..<8, using: &rng) == 0 {
            text.append(extended.randomElement(using: &rng)!)
            remaining -= 2
        } else {
            text.append(plain.randomElement(using: &rng)!)
            remaining -= 1
        }
    }
    return text
}
