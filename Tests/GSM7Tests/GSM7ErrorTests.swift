import Testing

@testable import GSM7

@Suite("Error descriptions")
struct GSM7ErrorTests {
    @Test func unsupportedCharactersDescriptionNamesThemAll() {
        let error = GSM7Error.unsupportedCharacters([
            .init(character: "“", position: 4),
            .init(character: "😀", position: 9),
        ])
        #expect(
            error.description
                == "The text contains characters that GSM-7 cannot carry: “ (U+201C) at position 4, 😀 (U+1F600) at position 9; remove them or replace them with characters GSM-7 has."
        )
    }

    @Test func invisibleAndCombiningCharactersShowOnlyTheirCodes() {
        let error = GSM7Error.unsupportedCharacters([
            .init(character: "\t", position: 1),
            .init(character: "e\u{301}", position: 2),
            .init(character: "\u{A0}", position: 3),
        ])
        #expect(
            error.description
                == "The text contains characters that GSM-7 cannot carry: U+0009 at position 1, e\u{301} (U+0065 U+0301) at position 2, U+00A0 at position 3; remove them or replace them with characters GSM-7 has."
        )
    }

    @Test func thrownErrorDescription() {
        do {
            _ = try GSM7.septets(for: "ok\tok")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("U+0009 at position 3"))
        }
    }

    @Test func invalidSeptetsDescriptionIsOneSentenceWithThePosition() {
        let text = GSM7Error.invalidSeptets(position: 7).description
        #expect(text.contains("septet 7"))
        #expect(text.hasSuffix("."))
        #expect(!text.contains("\n"))
    }
}
