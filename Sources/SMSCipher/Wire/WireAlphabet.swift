import GSM7

/// The 122 characters an encrypted message is written in.
///
/// The GSM 03.38 default alphabet in septet order, without the six characters that public evidence
/// shows are lost or changed in transit or when copied: '@' (0x00, read as NUL by C code and SMPP
/// gateways), 'Ç' (0x09, shown as 'ç' by many handsets), LF (0x0A), CR (0x0D), ESC (0x1B) and
/// space (0x20, trimmed by apps). See docs/PROTOCOL.md §2.
public enum WireAlphabet {
    /// Septet values excluded from the ciphertext alphabet.
    public static let excludedSeptets: Set<UInt8> = [0x00, 0x09, 0x0A, 0x0D, 0x1B, 0x20]

    /// Septet value of each digit 0...121.
    public static let septets: [UInt8] = (0..<128).map(UInt8.init).filter { !excludedSeptets.contains($0) }

    /// The characters, digit order.
    public static let characters: [Unicode.Scalar] = septets.map { GSM7.defaultAlphabet[Int($0)] }

    public static var size: Int { characters.count }

    /// Digit of each scalar, -1 where the scalar is not in the alphabet. Indexed by scalar value below 0x400.
    private static let digitByScalar: [Int16] = {
        var table = [Int16](repeating: -1, count: 0x400)
        for (digit, scalar) in characters.enumerated() {
            precondition(scalar.value < 0x400)
            table[Int(scalar.value)] = Int16(digit)
        }
        return table
    }()

    /// UTF-8 of each digit's character.
    private static let utf8: [[UInt8]] = characters.map { Array(String($0).utf8) }

    /// The ciphertext as the sender wrote it: `text` read as ``digits(from:)`` reads it (whitespace
    /// and invisible characters dropped, decomposed characters composed), written out again.
    ///
    /// - Throws: ``CipherError/malformed(_:)`` as ``digits(from:)`` does.
    public static func normalized(_ text: String) throws(CipherError) -> String {
        string(from: try digits(from: text))
    }

    static func string(from digits: [UInt8]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count * 2)
        for digit in digits { bytes.append(contentsOf: utf8[Int(digit)]) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Digit of each character, for a character written with more than one scalar (decomposed,
    /// `n` and U+0303 for `ñ`): `Character` compares and hashes under canonical equivalence.
    private static let digitByCharacter: [Character: UInt8] = Dictionary(
        uniqueKeysWithValues: characters.enumerated().map { (Character($1), UInt8($0)) })

    /// Whether a scalar is dropped wherever it stands (docs/PROTOCOL.md §2): whitespace, and the
    /// invisible formatting characters (category Cf: zero-width spaces and joiners, direction marks
    /// and embeddings, the byte order mark, the soft hyphen) that copying adds, an app in a
    /// right-to-left language above all. None of them is in the alphabet.
    static func isIgnored(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar.properties.generalCategory == .format
    }

    /// `text` without the scalars a receiver ignores (``isIgnored(_:)``).
    private static func read(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isIgnored(scalar) { kept.append(scalar) }
        return String(kept)
    }

    /// How many characters of `text` a receiver reads: all but whitespace and invisible
    /// formatting characters, a decomposed character counted once. For a front end that joins a
    /// paste broken over lines until it holds one ciphertext.
    public static func characterCount(_ text: String) -> Int {
        read(text).count
    }

    /// Digits of a ciphertext. Whitespace and invisible formatting characters anywhere are
    /// dropped (``isIgnored(_:)``), and characters compare under canonical equivalence, so a
    /// character pasted decomposed reads as the alphabet's. Positions in errors count the
    /// characters read from 1, those dropped not counted.
    static func digits(from text: String) throws(CipherError) -> [UInt8] {
        var digits: [UInt8] = []
        digits.reserveCapacity(ProtocolConstants.wireLength)
        var position = 0
        for character in read(text) {
            position += 1
            let scalars = character.unicodeScalars
            if scalars.count == 1, let scalar = scalars.first, Int(scalar.value) < digitByScalar.count,
                digitByScalar[Int(scalar.value)] >= 0
            {
                digits.append(UInt8(digitByScalar[Int(scalar.value)]))
            } else if let digit = digitByCharacter[character] {
                digits.append(digit)
            } else {
                throw .malformed(.invalidCharacter(character, position: position))
            }
        }
        guard digits.count == ProtocolConstants.wireLength else {
            throw .malformed(.wrongLength(digits.count))
        }
        return digits
    }
}
