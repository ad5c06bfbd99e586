/// The Base32 encoding of RFC 4648 §6, as used for OTP secrets in `otpauth://` URIs.
///
/// Decoding is forgiving where people are careless and strict where data would be lost: it
/// ignores case, spaces and the optional `=` padding, but rejects characters outside the
/// alphabet, data after the padding and lengths no encoder produces, with an ``OTPError`` that
/// names the character and its position.
///
/// Encoding writes upper case without padding, the form authenticator apps expect.
public enum Base32 {
    /// The RFC 4648 alphabet: A-Z then 2-7.
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// Encodes bytes as upper-case Base32 without `=` padding.
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The Base32 text, `ceil(8 * count / 5)` characters long.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bitCount = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bitCount += 8
            while bitCount >= 5 {
                bitCount -= 5
                output.append(alphabet[Int((buffer >> UInt32(bitCount)) & 0x1F)])
            }
        }
        if bitCount > 0 {
            output.append(alphabet[Int((buffer << UInt32(5 - bitCount)) & 0x1F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Encodes bytes as upper-case Base32 with `=` padding to a multiple of 8 characters, the
    /// canonical form of RFC 4648 §6.
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The padded Base32 text.
    public static func encodePadded(_ bytes: some Sequence<UInt8>) -> String {
        let unpadded = encode(bytes)
        let remainder = unpadded.utf8.count % 8
        return remainder == 0 ? unpadded : unpadded + String(repeating: "=", count: 8 - remainder)
    }

    /// Decodes Base32 text.
    ///
    /// Letters may be in either case; spaces anywhere are ignored; `=` padding is optional but,
    /// if present, must end the text and bring its length to a multiple of 8.
    /// - Parameter text: The Base32 text.
    /// - Returns: The decoded bytes; an empty string decodes to no bytes.
    /// - Throws: ``OTPError`` with code ``OTPError/Code/invalidBase32`` naming the first bad
    ///   character and its position (counted from 1, spaces included), or the bad length.
    public static func decode(_ text: String) throws(OTPError) -> [UInt8] {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var paddingCount = 0
        var position = 0
        for character in text {
            position += 1
            if character == " " {
                continue
            }
            if character == "=" {
                paddingCount += 1
                continue
            }
            guard let value = value(of: character) else {
                throw OTPError.invalidBase32Character(character, at: position)
            }
            if paddingCount > 0 {
                throw OTPError.base32DataAfterPadding(character, at: position)
            }
            values.append(value)
        }
        try validateLength(dataCharacters: values.count, paddingCharacters: paddingCount)

        var output: [UInt8] = []
        output.reserveCapacity(values.count * 5 / 8)
        var buffer: UInt32 = 0
        var bitCount = 0
        for value in values {
            buffer = (buffer << 5) | UInt32(value)
            bitCount += 5
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bitCount)))
            }
        }
        // Leftover bits (fewer than 8) are the encoder's zero fill; like most decoders we
        // drop them rather than insist they are zero.
        return output
    }

    /// The 5-bit value of one Base32 character, or `nil` if it is not in the alphabet.
    private static func value(of character: Character) -> UInt8? {
        guard let ascii = character.asciiValue else { return nil }
        switch ascii {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return ascii - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return ascii - UInt8(ascii: "a")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): return ascii - UInt8(ascii: "2") + 26
        default: return nil
        }
    }

    /// Checks that the length is one an RFC 4648 encoder can produce.
    private static func validateLength(dataCharacters: Int, paddingCharacters: Int) throws(OTPError) {
        // 1, 3 and 6 leftover characters would carry fewer bits than one more byte needs
        // yet more than zero-fill: no encoder writes them.
        switch dataCharacters % 8 {
        case 1, 3, 6:
            throw OTPError.base32Length(dataCharacters: dataCharacters, paddingCharacters: 0)
        default:
            break
        }
        if paddingCharacters > 0, (dataCharacters + paddingCharacters) % 8 != 0 || dataCharacters % 8 == 0 {
            throw OTPError.base32Length(dataCharacters: dataCharacters, paddingCharacters: paddingCharacters)
        }
    }
}
