import Testing

@testable import GSM7

@Suite("Alphabet tables")
struct AlphabetTests {
    @Test func defaultAlphabetHas128DistinctCharacters() {
        #expect(GSM7.defaultAlphabet.count == 128)
        #expect(Set(GSM7.defaultAlphabet).count == 128)
        #expect(GSM7.defaultAlphabet[0x1B] == "\u{1B}")
        #expect(GSM7.escape == 0x1B)
    }

    @Test func defaultAlphabetSpotChecks() {
        let expected: [UInt8: Unicode.Scalar] = [
            0x00: "@", 0x01: "£", 0x02: "$", 0x03: "¥", 0x09: "Ç", 0x0A: "\n", 0x0D: "\r",
            0x10: "Δ", 0x11: "_", 0x1F: "É", 0x20: " ", 0x24: "¤", 0x40: "¡", 0x41: "A",
            0x5F: "§", 0x60: "¿", 0x61: "a", 0x7F: "à",
        ]
        for (septet, scalar) in expected {
            #expect(GSM7.defaultAlphabet[Int(septet)] == scalar, "septet \(septet)")
        }
    }

    @Test func extensionTableIsExactlyTheTenCharacters() {
        let expected: [UInt8: Unicode.Scalar] = [
            0x0A: "\u{0C}", 0x14: "^", 0x28: "{", 0x29: "}", 0x2F: "\\",
            0x3C: "[", 0x3D: "~", 0x3E: "]", 0x40: "|", 0x65: "€",
        ]
        #expect(GSM7.extensionTable == expected)
        #expect(GSM7.extensionCharacters == ["\u{0C}", "^", "{", "}", "\\", "[", "~", "]", "|", "€"])
    }

    @Test func extensionCharactersAreNotInTheDefaultAlphabet() {
        for scalar in GSM7.extensionTable.values {
            #expect(!GSM7.defaultAlphabet.contains(scalar))
        }
    }

    @Test func defaultAlphabetCharacterClassification() {
        #expect(GSM7.isDefaultAlphabetCharacter("A"))
        #expect(GSM7.isDefaultAlphabetCharacter("@"))
        #expect(!GSM7.isDefaultAlphabetCharacter("€"))
        #expect(!GSM7.isDefaultAlphabetCharacter("\u{1B}"))
        #expect(GSM7.canEncode("€"))
        #expect(!GSM7.canEncode("\u{1B}"))
        #expect(!GSM7.canEncode("á"))
    }
}
