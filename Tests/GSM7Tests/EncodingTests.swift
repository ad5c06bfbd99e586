import SplitMix
import Testing

@testable import GSM7

@Suite("Encoding and decoding")
struct EncodingTests {
    @Test(arguments: 0..<128)
    func everyDefaultCharacterRoundTrips(septet: Int) throws {
        guard septet != 0x1B else { return }
        let text = String(Character(GSM7.defaultAlphabet[septet]))
        #expect(try GSM7.septets(for: text) == [UInt8(septet)])
        #expect(try GSM7.text(from: [UInt8(septet)]) == text)
        #expect(try GSM7.septetCount(of: text) == 1)
    }

    @Test func everyExtensionCharacterRoundTrips() throws {
        for (code, scalar) in GSM7.extensionTable {
            let text = String(Character(scalar))
            #expect(try GSM7.septets(for: text) == [0x1B, code])
            #expect(try GSM7.text(from: [0x1B, code]) == text)
            #expect(try GSM7.septetCount(of: text) == 2)
        }
    }

    @Test func wholeAlphabetRoundTripsAsOneText() throws {
        let septets =
            (0..<128).map(UInt8.init).filter { $0 != GSM7.escape }
            + GSM7.extensionTable.keys.sorted().flatMap { [GSM7.escape, $0] }
        let text = try GSM7.text(from: septets)
        #expect(try GSM7.septets(for: text) == septets)
    }

    @Test func septetCountsMatchAHandset() throws {
        #expect(try GSM7.septetCount(of: "") == 0)
        #expect(try GSM7.septetCount(of: "€") == 2)
        #expect(try GSM7.septetCount(of: "[]") == 4)
        #expect(try GSM7.septetCount(of: "{a}|~^\\") == 13)
        #expect(try GSM7.septetCount(of: String(repeating: "x", count: 160)) == 160)
        #expect(try GSM7.septetCount(of: String(repeating: "€", count: 80)) == 160)
        #expect(try GSM7.septetCount(of: "Hello, World!") == 13)
    }

    @Test func crLfIsTwoSeptets() throws {
        let text = "a\r\nb"
        #expect(text.count == 3)
        #expect(try GSM7.septets(for: text) == [0x61, 0x0D, 0x0A, 0x62])
        #expect(try GSM7.septetCount(of: text) == 4)
        #expect(try GSM7.text(from: [0x61, 0x0D, 0x0A, 0x62]) == text)
    }

    @Test func lowerCaseCCedillaIsAcceptedAs0x09OnInputOnly() throws {
        #expect(try GSM7.septets(for: "ç") == [0x09])
        #expect(try GSM7.septets(for: "Ç") == [0x09])
        #expect(try GSM7.text(from: [0x09]) == "Ç")
    }

    @Test func rawEscapeIsRejected() {
        #expect(throws: GSM7Error.unsupportedCharacters([.init(character: "\u{1B}", position: 2)])) {
            try GSM7.septets(for: "a\u{1B}b")
        }
    }

    @Test func errorsNameEveryOffenderWithItsPosition() {
        let text = "Hi “you” 😀 ok"
        let expected = GSM7Error.unsupportedCharacters([
            .init(character: "“", position: 4),
            .init(character: "”", position: 8),
            .init(character: "😀", position: 10),
        ])
        #expect(throws: expected) { try GSM7.septets(for: text) }
        #expect(throws: expected) { try GSM7.septetCount(of: text) }
    }

    @Test func emojiSequencesCountAsOnePosition() {
        // A family emoji (ZWJ sequence) and a flag are one character each on screen.
        let text = "a👨‍👩‍👧b🇫🇷c✓"
        #expect(
            throws: GSM7Error.unsupportedCharacters([
                .init(character: "👨‍👩‍👧", position: 2),
                .init(character: "🇫🇷", position: 4),
                .init(character: "✓", position: 6),
            ])
        ) { try GSM7.septets(for: text) }
    }

    @Test func combiningSequencesAreReported() {
        let decomposed = "Cafe\u{301}!"
        #expect(throws: GSM7Error.unsupportedCharacters([.init(character: "e\u{301}", position: 4)])) {
            try GSM7.septets(for: decomposed)
        }
        // The precomposed é is in the alphabet.
        #expect(throws: Never.self) { try GSM7.septets(for: "Caf\u{E9}!") }
    }

    @Test func strictDecodeRejectsBadSequences() {
        #expect(throws: GSM7Error.invalidSeptets(position: 1)) { try GSM7.text(from: [0x41, 0x80]) }
        #expect(throws: GSM7Error.invalidSeptets(position: 0)) { try GSM7.text(from: [0xFF]) }
        #expect(throws: GSM7Error.invalidSeptets(position: 2)) { try GSM7.text(from: [0x41, 0x42, 0x1B]) }
        #expect(throws: GSM7Error.invalidSeptets(position: 1)) { try GSM7.text(from: [0x41, 0x1B, 0x41]) }
        #expect(throws: GSM7Error.invalidSeptets(position: 0)) { try GSM7.text(from: [0x1B, 0x1B, 0x65]) }
        #expect(throws: GSM7Error.invalidSeptets(position: 0)) { try GSM7.text(from: [0x1B, 0x80]) }
    }

    @Test func everyUnknownExtensionCodeIsRejected() {
        for code in UInt8(0)...0x7F where GSM7.extensionTable[code] == nil {
            #expect(throws: GSM7Error.invalidSeptets(position: 0)) { try GSM7.text(from: [0x1B, code]) }
        }
    }

    @Test func emptyInput() throws {
        #expect(try GSM7.septets(for: "") == [])
        #expect(try GSM7.text(from: []) == "")
    }

    @Test func randomSeptetStringsRoundTrip() throws {
        var generator = SplitMix64.replayable("randomSeptetStringsRoundTrip")
        let singles = (0..<128).map(UInt8.init).filter { $0 != GSM7.escape }
        let extensions = Array(GSM7.extensionTable.keys)
        for _ in 0..<500 {
            var septets: [UInt8] = []
            for _ in 0..<Int.random(in: 0...200, using: &generator) {
                if Int.random(in: 0..<8, using: &generator) == 0 {
                    septets += [GSM7.escape, extensions.randomElement(using: &generator)!]
                } else {
                    septets.append(singles.randomElement(using: &generator)!)
                }
            }
            let text = try GSM7.text(from: septets)
            #expect(try GSM7.septets(for: text) == septets)
            #expect(try GSM7.septetCount(of: text) == septets.count)
        }
    }
}
