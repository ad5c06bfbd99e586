/// libgammu's "unicode" strings: UCS-2/UTF-16 big-endian, ended by two zero bytes.
enum GammuText {
    /// Decodes a big-endian UTF-16 buffer up to its 0x0000 terminator.
    static func decodeUCS2(_ bytes: UnsafeRawBufferPointer) -> String {
        var units: [UInt16] = []
        var index = 0
        while index + 1 < bytes.count {
            let unit = UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
            if unit == 0 { break }
            units.append(unit)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// The raw bytes of a big-endian UTF-16 buffer up to its terminator (for fingerprints).
    static func rawUCS2(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var index = 0
        while index + 1 < bytes.count, bytes[index] != 0 || bytes[index + 1] != 0 { index += 2 }
        return Array(bytes[0..<index])
    }

    /// Writes `text` as big-endian UTF-16 plus terminator; returns `false` if it does not fit.
    static func encodeUCS2(_ text: String, into bytes: UnsafeMutableRawBufferPointer) -> Bool {
        let units = Array(text.utf16)
        guard units.count * 2 + 2 <= bytes.count else { return false }
        for (offset, unit) in units.enumerated() {
            bytes[offset * 2] = UInt8(unit >> 8)
            bytes[offset * 2 + 1] = UInt8(unit & 0xFF)
        }
        bytes[units.count * 2] = 0
        bytes[units.count * 2 + 1] = 0
        return true
    }

    /// Lowercase hex of bytes.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
