/// A QR Code (ISO/IEC 18004) holding bytes, as a square matrix of dark and light modules.
///
/// The encoder covers what enrolment needs: byte mode, the four error correction levels,
/// versions 1 to 40, all eight masks chosen by the standard penalty score, and every function
/// pattern. It has no dependencies and does no I/O; ``terminalString(invert:)`` draws it.
///
/// ```swift
/// let code = try QRCode(Array(uri.string.utf8))
/// print(code.terminalString())
/// ```
///
/// The smallest version that holds the bytes at the requested level is used; the level is never
/// raised on its own, so the same input always gives the same symbol.
public struct QRCode: Sendable, Hashable {
    /// How much of the symbol may be damaged and still read back.
    public enum Correction: Sendable, Hashable, CaseIterable {
        /// Recovers about 7% of the codewords.
        case low
        /// Recovers about 15% of the codewords; the usual choice for screens.
        case medium
        /// Recovers about 25% of the codewords.
        case quartile
        /// Recovers about 30% of the codewords.
        case high

        /// The two bits the format information carries for this level (ISO/IEC 18004 Table 12).
        var formatBits: Int {
            switch self {
            case .low: 1
            case .medium: 0
            case .quartile: 3
            case .high: 2
            }
        }

        /// The row of this level in the capacity tables.
        var tableIndex: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .quartile: 2
            case .high: 3
            }
        }
    }

    /// The versions this encoder can produce.
    public static let versions = 1...40

    /// The symbol version, 1 to 40: the size is `17 + 4 * version`.
    public let version: Int
    /// The error correction level.
    public let correction: Correction
    /// The data mask applied, 0 to 7.
    public let mask: Int
    /// The number of modules along each side.
    public let size: Int
    /// The modules row by row, `true` for dark.
    private let modules: [Bool]

    /// Encodes bytes in byte mode.
    /// - Parameters:
    ///   - bytes: The payload, for example the UTF-8 of an `otpauth://` URI.
    ///   - correction: The error correction level.
    ///   - version: A version to use instead of the smallest that fits; it must hold the bytes.
    ///   - mask: A mask to use instead of the one with the lowest penalty score, 0 to 7.
    /// - Throws: ``QRCodeError`` if the bytes do not fit in version 40 (or in `version`), or if
    ///   `version` or `mask` is out of range.
    public init(_ bytes: [UInt8], correction: Correction = .medium, version: Int? = nil, mask: Int? = nil) throws(QRCodeError) {
        if let mask, !(0...7).contains(mask) { throw QRCodeError.invalidMask(mask) }
        let chosen: Int
        if let version {
            guard Self.versions.contains(version) else { throw QRCodeError.invalidVersion(version) }
            guard Self.fits(bytes.count, version: version, correction: correction) else {
                throw QRCodeError.dataTooLong(bytes.count, version: version, correction: correction)
            }
            chosen = version
        } else {
            guard let smallest = Self.versions.first(where: { Self.fits(bytes.count, version: $0, correction: correction) }) else {
                throw QRCodeError.dataTooLong(bytes.count, version: nil, correction: correction)
            }
            chosen = smallest
        }

        let codewords = Self.codewords(for: bytes, version: chosen, correction: correction)
        var matrix = QRMatrix(version: chosen)
        matrix.drawFunctionPatterns()
        matrix.place(codewords)
        let applied = mask ?? matrix.bestMask(correction: correction)
        matrix.apply(mask: applied)
        matrix.drawFormatBits(correction: correction, mask: applied)

        self.version = chosen
        self.correction = correction
        self.mask = applied
        self.size = matrix.size
        self.modules = matrix.modules
    }

    /// Whether the module at a column and row is dark; coordinates outside the symbol are light.
    /// - Parameters:
    ///   - x: The column, 0 at the left.
    ///   - y: The row, 0 at the top.
    /// - Returns: `true` for a dark module.
    public func isDark(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return modules[y * size + x]
    }

    /// The number of payload bytes a version holds in byte mode at a level.
    /// - Parameters:
    ///   - version: The version, 1 to 40.
    ///   - correction: The error correction level.
    /// - Returns: The byte capacity.
    public static func byteCapacity(version: Int, correction: Correction) -> Int {
        let bits = dataCodewordCount(version: version, correction: correction) * 8 - 4 - characterCountBits(version: version)
        return min(bits / 8, (1 << characterCountBits(version: version)) - 1)
    }

    /// Whether `count` bytes fit in a version at a level.
    static func fits(_ count: Int, version: Int, correction: Correction) -> Bool {
        count <= byteCapacity(version: version, correction: correction)
    }

    /// The width of the byte-mode character count field (Table 3).
    static func characterCountBits(version: Int) -> Int {
        version <= 9 ? 8 : 16
    }

    /// The data codewords for the bytes, padded to capacity, then split into blocks, given
    /// their Reed-Solomon codewords and interleaved (ISO/IEC 18004 §7.4 to §7.6).
    static func codewords(for bytes: [UInt8], version: Int, correction: Correction) -> [UInt8] {
        let capacity = dataCodewordCount(version: version, correction: correction)
        var bits = QRBitBuffer()
        bits.append(0b0100, count: 4)  // byte mode
        bits.append(bytes.count, count: characterCountBits(version: version))
        for byte in bytes { bits.append(Int(byte), count: 8) }
        // Terminator of up to four zeros, then zeros to a byte boundary.
        bits.append(0, count: min(4, capacity * 8 - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count < capacity {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return interleave(data, version: version, correction: correction)
    }
}
