import SplitMix
import Testing

@testable import SMSCipher

@Suite struct PairingTests {
    @Test func codesRoundTripAndForgiveTyping() throws {
        var rng = SplitMix64.replayable()
        for _ in 0..<200 {
            let code = PairingCode.generate(using: &rng)
            let shown = code.grouped
            #expect(shown.count == 24 && shown.split(separator: "-").count == 5)
            #expect(try PairingCode(parsing: shown) == code)
            let typed = shown.lowercased().replacingOccurrences(of: "-", with: " ")
                .replacingOccurrences(of: "0", with: "o").replacingOccurrences(of: "1", with: "l")
            #expect(try PairingCode(parsing: typed) == code)
        }
    }

    @Test func typingMistakesAreCaught() throws {
        var rng = SplitMix64.replayable()
        let symbols = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        var caught = 0
        for _ in 0..<200 {
            var characters = Array(PairingCode.generate(using: &rng).grouped.replacingOccurrences(of: "-", with: ""))
            let position = Int(rng.next() % 20)
            let original = characters[position]
            characters[position] = symbols.filter { $0 != original }.randomElement(using: &rng)!
            if (try? PairingCode(parsing: String(characters))) == nil { caught += 1 }
        }
        #expect(caught == 200)
        #expect(throws: CipherError.self) { try PairingCode(parsing: "ABCD-EFGH") }
        #expect(throws: CipherError.self) { try PairingCode(parsing: "ABCD-EFGH-JKMN-PQRS-TVWU") }
    }

    @Test func bothSidesDeriveTheSameSessionAndSafetyCode() throws {
        var rng = SplitMix64(seed: 1)
        let mine = PairingCode.generate(using: &rng)
        let theirs = PairingCode.generate(using: &rng)
        let alice = try Session.paired(mine: mine, peer: theirs)
        let bob = try Session.paired(mine: theirs, peer: mine)
        #expect(alice.role != bob.role)
        #expect(alice.safetyCode == bob.safetyCode)
        #expect(alice.safetyCode.count == 7)
        #expect(throws: CipherError.self) { try Session.paired(mine: mine, peer: mine) }
        #expect(!String(describing: mine).contains(mine.grouped))
    }
}
