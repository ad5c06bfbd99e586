import Foundation
import SMSCipher
import SplitMix

/// Two paired sessions, as alice and bob would hold them.
struct Pair {
    var alice: Session
    var bob: Session
    var rng: SplitMix64
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init(seed: UInt64 = 42) {
        rng = SplitMix64(seed: seed)
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
    let plain = Array(
        "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
    )
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
