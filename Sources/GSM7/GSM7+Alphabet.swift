extension GSM7 {
    /// The 128 characters of the GSM 03.38 default alphabet, indexed by septet value.
    ///
    /// Index 0x1B holds `"\u{1B}"` as a stand-in for ESC; ESC is never a character of its own
    /// (``septets(for:)`` rejects U+001B and ``text(from:)`` never produces it).
    public static let defaultAlphabet: [Unicode.Scalar] = [
        // 0x00
        "@", "\u{00A3}", "$", "\u{00A5}", "\u{00E8}", "\u{00E9}", "\u{00F9}", "\u{00EC}",
        "\u{00F2}", "\u{00C7}", "\n", "\u{00D8}", "\u{00F8}", "\r", "\u{00C5}", "\u{00E5}",
        // 0x10: Δ _ Φ Γ Λ Ω Π Ψ Σ Θ Ξ ESC Æ æ ß É
        "\u{0394}", "_", "\u{03A6}", "\u{0393}", "\u{039B}", "\u{03A9}", "\u{03A0}", "\u{03A8}",
        "\u{03A3}", "\u{0398}", "\u{039E}", "\u{1B}", "\u{00C6}", "\u{00E6}", "\u{00DF}", "\u{00C9}",
        // 0x20: 0x24 is the currency sign ¤, not $
        " ", "!", "\"", "#", "\u{00A4}", "%", "&", "'",
        "(", ")", "*", "+", ",", "-", ".", "/",
        // 0x30
        "0", "1", "2", "3", "4", "5", "6", "7",
        "8", "9", ":", ";", "<", "=", ">", "?",
        // 0x40: ¡ A-Z Ä Ö Ñ Ü §
        "\u{00A1}", "A", "B", "C", "D", "E", "F", "G",
        "H", "I", "J", "K", "L", "M", "N", "O",
        "P", "Q", "R", "S", "T", "U", "V", "W",
        "X", "Y", "Z", "\u{00C4}", "\u{00D6}", "\u{00D1}", "\u{00DC}", "\u{00A7}",
        // 0x60: ¿ a-z ä ö ñ ü à
        "\u{00BF}", "a", "b", "c", "d", "e", "f", "g",
        "h", "i", "j", "k", "l", "m", "n", "o",
        "p", "q", "r", "s", "t", "u", "v", "w",
        "x", "y", "z", "\u{00E4}", "\u{00F6}", "\u{00F1}", "\u{00FC}", "\u{00E0}",
    ]

    /// Extension table: the septet code that follows ESC, mapped to its character.
    ///
    /// Exactly the ten characters of the default extension table; every other code after ESC
    /// (including ESC ESC, reserved for a further table) is rejected by ``text(from:)``.
    public static let extensionTable: [UInt8: Unicode.Scalar] = [
        0x0A: "\u{000C}",  // form feed (page break)
        0x14: "^",
        0x28: "{",
        0x29: "}",
        0x2F: "\\",
        0x3C: "[",
        0x3D: "~",
        0x3E: "]",
        0x40: "|",
        0x65: "\u{20AC}",  // €
    ]

    /// The characters of ``extensionTable`` as they appear to a user, in table order.
    public static let extensionCharacters: [Unicode.Scalar] = extensionTable.keys.sorted().map { extensionTable[$0]! }

    /// Marks a scalar that has no GSM-7 encoding in ``latin1Encoding``.
    static let unencodable: UInt16 = 0xFFFF

    /// Encoding of U+0000...U+00FF: a septet, or `0x1B00 | code` for an extension character,
    /// or ``unencodable``. Built once from the public tables so the two can never disagree.
    static let latin1Encoding: [UInt16] = {
        var table = [UInt16](repeating: unencodable, count: 256)
        for (septet, scalar) in defaultAlphabet.enumerated() where septet != Int(escape) && scalar.value < 256 {
            table[Int(scalar.value)] = UInt16(septet)
        }
        for (code, scalar) in extensionTable where scalar.value < 256 {
            table[Int(scalar.value)] = 0x1B00 | UInt16(code)
        }
        // Input only: accept 'ç' (U+00E7) as 0x09. The standard table names 0x09 'Ç', yet many
        // handsets display it as 'ç', and text typed on them often carries the lower-case letter.
        // Decoding always yields 'Ç' (U+00C7), as 3GPP TS 23.038 specifies.
        table[0xE7] = 0x09
        return table
    }()

    /// Encodes one scalar: a septet, `0x1B00 | code` for an extension character, or nil.
    ///
    /// A table for Latin-1 plus a switch for the Greek capitals and €, so no hashing on the hot path.
    @inline(__always)
    static func encoding(of scalar: Unicode.Scalar) -> UInt16? {
        let value = scalar.value
        if value < 256 {
            let code = latin1Encoding[Int(value)]
            return code == unencodable ? nil : code
        }
        switch value {
        case 0x0394: return 0x10  // Δ
        case 0x03A6: return 0x12  // Φ
        case 0x0393: return 0x13  // Γ
        case 0x039B: return 0x14  // Λ
        case 0x03A9: return 0x15  // Ω
        case 0x03A0: return 0x16  // Π
        case 0x03A8: return 0x17  // Ψ
        case 0x03A3: return 0x18  // Σ
        case 0x0398: return 0x19  // Θ
        case 0x039E: return 0x1A  // Ξ
        case 0x20AC: return 0x1B65  // €
        default: return nil
        }
    }

    /// Whether a scalar can be carried by GSM-7 (default alphabet or extension table).
    public static func canEncode(_ scalar: Unicode.Scalar) -> Bool {
        encoding(of: scalar) != nil
    }

    /// Whether a scalar is a single-septet character of the default alphabet (not ESC, not an extension).
    public static func isDefaultAlphabetCharacter(_ scalar: Unicode.Scalar) -> Bool {
        guard let code = encoding(of: scalar) else { return false }
        return code < 0x80
    }
}
