extension GSM7 {
    /// Replaces common characters that GSM-7 cannot carry by GSM-7 ones, for `--transliterate`.
    ///
    /// What it maps, per user-perceived character:
    /// - a decomposed form of a GSM-7 letter (`"e\u{301}"`, `"A\u{30A}"`, U+212B Å) to the letter itself;
    /// - typographic quotes to `'` and `"` (« » to `"`, ‹ › to `'`), dashes and the minus sign to `-`,
    ///   `…` to `...`, bullets to `-`;
    /// - tabs, no-break and other Unicode spaces to a space; line and paragraph separators to `\n`;
    ///   zero-width spaces, joiners, the BOM and the soft hyphen are removed;
    /// - accented Latin letters outside GSM-7 to their base letter (`á` → `a`, `ł` → `l`, `Ő` → `O`),
    ///   keeping GSM-7's own accented letters (`é`, `ü`, `ñ` … stay);
    /// - ligatures (`œ` → `oe`, `ﬁ` → `fi`, `ĳ` → `ij`), `þ` → `th`, `ẞ` → `SS`;
    /// - Greek letters that look Latin to the Latin letter and the others to GSM-7's Greek capitals
    ///   (`α` → `A`, `δ` → `Δ`), as Greek handsets do;
    /// - any other letter with combining marks to the letter without them.
    ///
    /// `ç` is left alone: ``septets(for:)`` accepts it as 0x09, which the receiver shows as `Ç` or `ç`
    /// depending on the handset, so the sender's spelling is the best guess. Characters with no mapping
    /// (emoji, CJK …) are left in place so that ``septets(for:)`` still reports them.
    /// - Parameter text: Any text.
    /// - Returns: The new text and every replacement made, in order.
    public static func transliterate(_ text: String) -> (text: String, replacements: [Transliteration]) {
        // Fast path: nothing to do, and no grapheme breaking needed to find out.
        if text.unicodeScalars.allSatisfy(canEncode) {
            return (text, [])
        }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var replacements: [Transliteration] = []
        for (offset, character) in text.enumerated() {
            if character.unicodeScalars.allSatisfy(canEncode) {
                result.append(character)
            } else if let replacement = replacement(for: character) {
                result += replacement
                replacements.append(
                    Transliteration(original: character, replacement: replacement, position: offset + 1)
                )
            } else {
                result.append(character)
            }
        }
        return (result, replacements)
    }

    /// The GSM-7 replacement for one character that GSM-7 cannot carry as it is, if there is one.
    static func replacement(for character: Character) -> String? {
        // Character equality and hashing follow canonical equivalence, so these lookups also
        // match decomposed and compatibility-singleton spellings of the keys.
        if let scalar = gsmCharacters[character] {
            return String(scalar)
        }
        if let replacement = transliterationTable[character] {
            return replacement
        }
        let base = character.unicodeScalars.filter { !isCombiningMark($0) }
        guard !base.isEmpty, base.count < character.unicodeScalars.count else { return nil }
        let baseText = String(String.UnicodeScalarView(base))
        if baseText.unicodeScalars.allSatisfy(canEncode) {
            return baseText
        }
        if baseText.count == 1, let replacement = transliterationTable[Character(baseText)] {
            return replacement
        }
        return nil
    }

    private static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return false
        }
    }

    /// Every GSM-7 character as a `Character`, to recognise canonically equivalent spellings.
    static let gsmCharacters: [Character: Unicode.Scalar] = {
        var table: [Character: Unicode.Scalar] = [:]
        for (septet, scalar) in defaultAlphabet.enumerated() where septet != Int(escape) {
            table[Character(scalar)] = scalar
        }
        for scalar in extensionTable.values {
            table[Character(scalar)] = scalar
        }
        table["\u{E7}"] = "\u{E7}"
        return table
    }()

    /// Character -> replacement, built once from ``transliterationGroups``.
    static let transliterationTable: [Character: String] = {
        var table: [Character: String] = [:]
        for (sources, replacement) in transliterationGroups {
            for character in sources {
                table[character] = replacement
            }
        }
        return table
    }()

    /// Groups of characters and the GSM-7 text each of them becomes.
    static let transliterationGroups: [(String, String)] = [
        // Punctuation
        ("\u{2018}\u{2019}\u{201A}\u{201B}\u{2039}\u{203A}\u{2032}\u{00B4}\u{0060}", "'"),
        ("\u{201C}\u{201D}\u{201E}\u{201F}\u{00AB}\u{00BB}\u{2033}", "\""),
        ("\u{2010}\u{2011}\u{2012}\u{2013}\u{2014}\u{2015}\u{2212}\u{2043}", "-"),
        ("\u{2026}", "..."),
        ("\u{2022}\u{2023}\u{25E6}\u{2219}", "-"),
        ("\u{00B7}", "."),
        ("\u{00D7}", "x"),
        ("\u{00A9}", "(C)"),
        ("\u{00AE}", "(R)"),
        ("\u{2122}", "TM"),
        // Spaces and invisible characters
        (
            "\u{0009}\u{00A0}\u{1680}\u{2000}\u{2001}\u{2002}\u{2003}\u{2004}\u{2005}\u{2006}\u{2007}\u{2008}\u{2009}\u{200A}\u{202F}\u{205F}\u{3000}",
            " "
        ),
        ("\u{000B}\u{0085}\u{2028}\u{2029}", "\n"),
        ("\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}\u{00AD}", ""),
        // Latin letters with diacritics outside GSM-7 (GSM-7's own à ä å é è ì ò ö ø ù ü ñ ç stay)
        ("áâãāăąǎạảấầẩẫậắằẳẵặ", "a"),
        ("ÁÀÂÃĀĂĄǍẠẢẤẦẨẪẬẮẰẲẴẶ", "A"),
        ("ćĉċč", "c"), ("ĆĈĊČ", "C"),
        ("ďđð", "d"), ("ĎĐÐ", "D"),
        ("êëēĕėęěẹẻẽếềểễệ", "e"), ("ÈÊËĒĔĖĘĚẸẺẼẾỀỂỄỆ", "E"),
        ("ĝğġģ", "g"), ("ĜĞĠĢ", "G"),
        ("ĥħ", "h"), ("ĤĦ", "H"),
        ("íîïĩīĭįıǐịỉ", "i"), ("ÌÍÎÏĨĪĬĮİǏỊỈ", "I"),
        ("ĵ", "j"), ("Ĵ", "J"),
        ("ķ", "k"), ("Ķ", "K"),
        ("ĺļľŀł", "l"), ("ĹĻĽĿŁ", "L"),
        ("ńņňŉ", "n"), ("ŃŅŇ", "N"),
        ("óôõōŏőơǒọỏốồổỗộớờởỡợ", "o"), ("ÒÓÔÕŌŎŐƠǑỌỎỐỒỔỖỘỚỜỞỠỢ", "O"),
        ("ŕŗř", "r"), ("ŔŖŘ", "R"),
        ("śŝşšș", "s"), ("ŚŜŞŠȘ", "S"),
        ("ţťŧț", "t"), ("ŢŤŦȚ", "T"),
        ("úûũūŭůűųưǔụủứừửữự", "u"), ("ÙÚÛŨŪŬŮŰŲƯǓỤỦỨỪỬỮỰ", "U"),
        ("ŵ", "w"), ("Ŵ", "W"),
        ("ýÿŷỳỹ", "y"), ("ÝŸŶỲỸ", "Y"),
        ("źżž", "z"), ("ŹŻŽ", "Z"),
        // Ligatures and letters with no single GSM-7 equivalent
        ("œ", "oe"), ("Œ", "OE"),
        ("ĳ", "ij"), ("Ĳ", "IJ"),
        ("\u{FB00}", "ff"), ("\u{FB01}", "fi"), ("\u{FB02}", "fl"), ("\u{FB03}", "ffi"), ("\u{FB04}", "ffl"),
        ("þ", "th"), ("Þ", "TH"),
        ("ẞ", "SS"),
        // Greek: Latin look-alikes to Latin capitals, the rest to GSM-7's Greek capitals
        ("Αα", "A"), ("Ββ", "B"), ("Εε", "E"), ("Ζζ", "Z"), ("Ηη", "H"), ("Ιι", "I"), ("Κκ", "K"),
        ("Μμ", "M"), ("Νν", "N"), ("Οο", "O"), ("Ρρ", "P"), ("Ττ", "T"), ("Υυ", "Y"), ("Χχ", "X"),
        ("γ", "\u{0393}"), ("δ", "\u{0394}"), ("θ", "\u{0398}"), ("λ", "\u{039B}"), ("ξ", "\u{039E}"),
        ("π", "\u{03A0}"), ("σς", "\u{03A3}"), ("φ", "\u{03A6}"), ("ψ", "\u{03A8}"), ("ω", "\u{03A9}"),
    ]
}
