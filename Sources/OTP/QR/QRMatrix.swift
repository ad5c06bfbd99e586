/// The matrix under construction: modules plus which of them belong to function patterns,
/// which the codewords and the mask leave alone (ISO/IEC 18004 §6.3 and §7.7 to §7.9).
struct QRMatrix {
    let version: Int
    let size: Int
    /// Row by row, `true` for dark.
    var modules: [Bool]
    /// Row by row, `true` where a function pattern or format/version information lives.
    var isFunction: [Bool]

    init(version: Int) {
        self.version = version
        self.size = 17 + 4 * version
        self.modules = Array(repeating: false, count: size * size)
        self.isFunction = Array(repeating: false, count: size * size)
    }

    subscript(x: Int, y: Int) -> Bool {
        get { modules[y * size + x] }
        set { modules[y * size + x] = newValue }
    }

    /// Sets a function module.
    mutating func setFunction(x: Int, y: Int, dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    /// Draws finders, separators, timing, alignment patterns, the dark module and version
    /// information, and reserves the format information areas.
    mutating func drawFunctionPatterns() {
        for index in 0..<size {
            setFunction(x: 6, y: index, dark: index % 2 == 0)
            setFunction(x: index, y: 6, dark: index % 2 == 0)
        }
        // Finders with their separators: the ring at distance 4 is the light separator.
        drawFinder(centerX: 3, centerY: 3)
        drawFinder(centerX: size - 4, centerY: 3)
        drawFinder(centerX: 3, centerY: size - 4)

        let positions = Self.alignmentPositions(version: version)
        let last = positions.count - 1
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                // The three corners hold finders.
                if (i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0) { continue }
                drawAlignment(centerX: x, centerY: y)
            }
        }

        // Reserve the format areas (drawn for real once the mask is known) and set the dark module.
        drawFormatBits(correction: .medium, mask: 0)
        drawVersionBits()
    }

    private mutating func drawFinder(centerX: Int, centerY: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = centerX + dx
                let y = centerY + dy
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let distance = max(abs(dx), abs(dy))
                setFunction(x: x, y: y, dark: distance != 2 && distance != 4)
            }
        }
    }

    private mutating func drawAlignment(centerX: Int, centerY: Int) {
        for dy in -2...2 {
            for dx in -2...2 {
                setFunction(x: centerX + dx, y: centerY + dy, dark: max(abs(dx), abs(dy)) != 1)
            }
        }
    }

    /// The row and column coordinates of alignment pattern centres (Annex E): 6, then evenly
    /// spaced (by an even step) back from `size - 7`.
    static func alignmentPositions(version: Int) -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        let size = 17 + 4 * version
        var positions = [6]
        for index in stride(from: count - 2, through: 0, by: -1) {
            positions.append(size - 7 - index * step)
        }
        return positions
    }

    /// The 15 format bits: level and mask with a BCH(15,5) code, XORed with 101010000010010.
    static func formatBits(correction: QRCode.Correction, mask: Int) -> Int {
        let data = correction.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        return (data << 10 | remainder) ^ 0x5412
    }

    /// The 18 version bits: the version with a BCH(18,6) code; versions 7 and up only.
    static func versionBits(version: Int) -> Int {
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        return version << 12 | remainder
    }

    /// Draws both copies of the format information and the dark module.
    mutating func drawFormatBits(correction: QRCode.Correction, mask: Int) {
        let bits = Self.formatBits(correction: correction, mask: mask)
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        // Around the top-left finder, bit 0 at the bottom of column 8.
        for index in 0...5 { setFunction(x: 8, y: index, dark: bit(index)) }
        setFunction(x: 8, y: 7, dark: bit(6))
        setFunction(x: 8, y: 8, dark: bit(7))
        setFunction(x: 7, y: 8, dark: bit(8))
        for index in 9..<15 { setFunction(x: 14 - index, y: 8, dark: bit(index)) }
        // Split between the other two finders.
        for index in 0..<8 { setFunction(x: size - 1 - index, y: 8, dark: bit(index)) }
        for index in 8..<15 { setFunction(x: 8, y: size - 15 + index, dark: bit(index)) }
        setFunction(x: 8, y: size - 8, dark: true)
    }

    /// Draws both copies of the version information, for versions 7 and up.
    private mutating func drawVersionBits() {
        guard version >= 7 else { return }
        let bits = Self.versionBits(version: version)
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let a = size - 11 + index % 3
            let b = index / 3
            setFunction(x: a, y: b, dark: dark)
            setFunction(x: b, y: a, dark: dark)
        }
    }

    /// Places codewords in the two-module-wide columns, zigzagging up and down from the
    /// bottom right and skipping the vertical timing pattern; remainder bits stay light.
    mutating func place(_ codewords: [UInt8]) {
        let bitCount = codewords.count * 8
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for vertical in 0..<size {
                let y = upward ? size - 1 - vertical : vertical
                for offset in 0..<2 {
                    let x = right - offset
                    guard !isFunction[y * size + x], bitIndex < bitCount else { continue }
                    self[x, y] = (codewords[bitIndex >> 3] >> (7 - UInt8(bitIndex & 7))) & 1 == 1
                    bitIndex += 1
                }
            }
            right -= 2
        }
    }
}
