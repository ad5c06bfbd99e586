extension GSM7 {
    /// Encodes text to septets; an extension character becomes the two septets `[0x1B, code]`.
    ///
    /// Works on Unicode scalars: `"\r\n"` gives `[0x0D, 0x0A]`. U+00E7 'ç' is accepted as 0x09 (see
    /// ``defaultAlphabet``). A raw U+001B is rejected, since it would be read back as an escape.
    /// - Parameter text: The text to encode.
    /// - Returns: One septet (0...0x7F) per element.
    /// - Throws: ``GSM7Error/unsupportedCharacters(_:)`` listing every character GSM-7 cannot carry.
    public static func septets(for text: String) throws(GSM7Error) -> [UInt8] {
        var septets: [UInt8] = []
        septets.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            guard let code = encoding(of: scalar) else { throw unsupported(in: text) }
            if code > 0xFF {
                septets.append(escape)
                septets.append(UInt8(truncatingIfNeeded: code))
            } else {
                septets.append(UInt8(code))
            }
        }
        return septets
    }

    /// Counts the septets a handset would count: extension characters count 2, everything else 1.
    /// - Throws: ``GSM7Error/unsupportedCharacters(_:)`` like ``septets(for:)``.
    public static func septetCount(of text: String) throws(GSM7Error) -> Int {
        var count = 0
        for scalar in text.unicodeScalars {
            guard let code = encoding(of: scalar) else { throw unsupported(in: text) }
            count += code > 0xFF ? 2 : 1
        }
        return count
    }

    /// Decodes septets to text, strictly.
    /// - Parameter septets: One septet per element.
    /// - Throws: ``GSM7Error/invalidSeptets(position:)`` for a septet above 0x7F, a trailing ESC, or an
    ///   ESC followed by a code that is not in ``extensionTable``.
    public static func text(from septets: [UInt8]) throws(GSM7Error) -> String {
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < septets.count {
            let septet = septets[index]
            guard septet < 0x80 else { throw .invalidSeptets(position: index) }
            if septet == escape {
                guard index + 1 < septets.count, let scalar = extensionTable[septets[index + 1]] else {
                    throw .invalidSeptets(position: index)
                }
                scalars.append(scalar)
                index += 2
            } else {
                scalars.append(defaultAlphabet[Int(septet)])
                index += 1
            }
        }
        return String(scalars)
    }

    /// Every character of `text` that GSM-7 cannot carry, with its 1-based position.
    ///
    /// Only called once encoding has failed, so the fast path never pays for grapheme breaking.
    public static func offences(in text: String) -> [GSM7Error.Offence] {
        var offences: [GSM7Error.Offence] = []
        for (offset, character) in text.enumerated()
        where character.unicodeScalars.contains(where: { !canEncode($0) }) {
            offences.append(GSM7Error.Offence(character: character, position: offset + 1))
        }
        return offences
    }

    private static func unsupported(in text: String) -> GSM7Error {
        .unsupportedCharacters(offences(in: text))
    }
}
