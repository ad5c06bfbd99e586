import Testing

@testable import GSM7

@Suite("Transliteration")
struct TransliterationTests {
    @Test func gsmTextIsUntouched() {
        let text = "Hello, World! €[]{} àéüñÇç\r\n"
        let result = GSM7.transliterate(text)
        #expect(result.text == text)
        #expect(result.replacements.isEmpty)
    }

    @Test func typographyBecomesPlain() throws {
        let result = GSM7.transliterate("“Quote” ‘x’ ‚y‛ „z‟ «a» ‹b› 1–2—3‐4‑5‒6―7 wait…")
        #expect(result.text == "\"Quote\" 'x' 'y' \"z\" \"a\" 'b' 1-2-3-4-5-6-7 wait...")
        #expect(try GSM7.septetCount(of: result.text) == result.text.unicodeScalars.count)
    }

    @Test func spacesTabsAndBullets() {
        #expect(GSM7.transliterate("a\tb\u{A0}c\u{2009}d\u{202F}e\u{3000}f").text == "a b c d e f")
        #expect(GSM7.transliterate("• one\n• two").text == "- one\n- two")
        #expect(GSM7.transliterate("soft\u{AD}hyphen zero\u{200B}width").text == "softhyphen zerowidth")
    }

    @Test func accentedLatinLetters() {
        #expect(GSM7.transliterate("áâãçêíîóôõúûýşğłőűčřšž").text == "aaaçeiiooouuysgloucrsz")
        #expect(GSM7.transliterate("ÁÂÃÊÍÎÓÔÕÚÛÝŞĞŁŐŰČŘŠŽ").text == "AAAEIIOOOUUYSGLOUCRSZ")
        #expect(GSM7.transliterate("Kraków, Łódź, São Paulo, İstanbul").text == "Krakow, Lodz, Sao Paulo, Istanbul")
        #expect(GSM7.transliterate("Crème brûlée").text == "Crème brulée")
    }

    @Test func ligaturesAndSpecialLetters() {
        #expect(GSM7.transliterate("œuvre Œ ﬁne ĳs þorn ẞ æ").text == "oeuvre OE fine ijs thorn SS æ")
    }

    @Test func decomposedGSMLettersAreComposed() throws {
        let result = GSM7.transliterate("Cafe\u{301} A\u{30A}\u{212B}")
        #expect(result.text == "Caf\u{E9} \u{C5}\u{C5}")
        #expect(try GSM7.septets(for: result.text) == [0x43, 0x61, 0x66, 0x05, 0x20, 0x0E, 0x0E])
        #expect(
            result.replacements == [
                Transliteration(original: "e\u{301}", replacement: "\u{E9}", position: 4),
                Transliteration(original: "A\u{30A}", replacement: "\u{C5}", position: 6),
                Transliteration(original: "\u{212B}", replacement: "\u{C5}", position: 7),
            ])
    }

    @Test func otherCombiningMarksAreStripped() {
        #expect(GSM7.transliterate("a\u{301}\u{323}x\u{308}").text == "ax")
        #expect(GSM7.transliterate("s\u{327}").text == "s")
    }

    @Test func greekFollowsGreekHandsets() {
        #expect(GSM7.transliterate("αβγδ ΑΒΓΔ λόγος").text.hasPrefix("ABΓΔ ABΓΔ Λ"))
    }

    @Test func replacementsRecordOriginalsAndPositions() {
        let result = GSM7.transliterate("“Hi” — ok…")
        #expect(result.text == "\"Hi\" - ok...")
        #expect(
            result.replacements == [
                Transliteration(original: "“", replacement: "\"", position: 1),
                Transliteration(original: "”", replacement: "\"", position: 4),
                Transliteration(original: "—", replacement: "-", position: 6),
                Transliteration(original: "…", replacement: "...", position: 10),
            ])
    }

    @Test func unmappedCharactersStaySoEncodingStillReportsThem() {
        let result = GSM7.transliterate("ok 😀 “x” 漢")
        #expect(result.text == "ok 😀 \"x\" 漢")
        #expect(
            throws: GSM7Error.unsupportedCharacters([
                .init(character: "😀", position: 4),
                .init(character: "漢", position: 10),
            ])
        ) { try GSM7.septets(for: result.text) }
    }

    @Test func crLfSurvives() {
        #expect(GSM7.transliterate("a\r\n“b”").text == "a\r\n\"b\"")
    }

    @Test func everyTableEntryIsNeededAndProducesGSM7() throws {
        for (character, replacement) in GSM7.transliterationTable {
            #expect(!character.unicodeScalars.allSatisfy(GSM7.canEncode), "\(character) is already GSM-7")
            #expect(throws: Never.self, "\(character) -> \(replacement)") { try GSM7.septets(for: replacement) }
        }
    }
}
