import TerminalIO
import Testing

/// What an SMS could do to the operator's terminal, written as visible escapes instead.
struct TerminalTextTests {
    @Test func plainTextAndGSM7PunctuationStayAsTheyAre() {
        let text = "Meet at 6 — café ÄÖÜ €[]{}~^| ok?"
        #expect(TerminalText.escaped(text) == text)
    }

    @Test func controlsBecomeVisibleEscapes() {
        #expect(TerminalText.escaped("a\u{1B}[2K\rdecrypted from bob") == "a\\x1B[2K\\rdecrypted from bob")
        #expect(TerminalText.escaped("x\ty\nz") == "x\\ty\\nz")
        #expect(TerminalText.escaped("\u{7F}\u{00}\u{9B}31m") == "\\x7F\\x00\\x9B31m")
    }

    @Test func backslashIsDoubledSoNoEscapeCanBeForged() {
        #expect(TerminalText.escaped("\\x1B") == "\\\\x1B")
        #expect(TerminalText.escaped("\\n") == "\\\\n")
    }

    @Test func bidirectionalOverridesAndIsolatesAreShown() {
        #expect(TerminalText.escaped("bob\u{202E}gnp.exe") == "bob\\u{202E}gnp.exe")
        for value: UInt32 in [0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x2066, 0x2067, 0x2068, 0x2069] {
            let escaped = TerminalText.escaped(String(Character(Unicode.Scalar(value)!)))
            #expect(escaped.hasPrefix("\\u{"), "U+\(String(value, radix: 16)) was not escaped")
        }
    }

    @Test func everyScalarOfTheOutputIsPrintable() {
        var all = ""
        for value in 0..<0x3000 where !(0xD800..<0xE000).contains(value) {
            all.unicodeScalars.append(Unicode.Scalar(UInt32(value))!)
        }
        for scalar in TerminalText.escaped(all).unicodeScalars {
            #expect(scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value))
            #expect(!TerminalText.isLayoutControl(scalar.value))
        }
    }
}
