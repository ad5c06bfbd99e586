import OTP
import Testing

/// Known answers for the QR encoder, and decoding by a real peer, ZBar's `zbarimg`.
@Suite("QR code")
struct QRCodeTests {
    /// A symbol computed by an independent encoder, Python `segno` 1.6.6 (byte mode, no level
    /// boost), with one correction: segno's `write_padding_bits` adds eight zero bits when the
    /// bit stream already ends on a codeword boundary, which ISO/IEC 18004 §7.4.10 does not
    /// (it pads only to the boundary), so the vectors were made with that function patched to
    /// `(8 - length % 8) % 8`. `#` is a dark module.
    struct KnownAnswer: Sendable, CustomTestStringConvertible {
        let text: String
        let correction: QRCode.Correction
        let version: Int
        let mask: Int
        let rows: [String]

        var testDescription: String { "v\(version) \(correction) \(text.prefix(24))" }
    }

    static let knownAnswers: [KnownAnswer] = [
        KnownAnswer(
            text: "HELLO WORLD",
            correction: .medium, version: 1, mask: 4,
            rows: [
                "#######.##..#.#######",
                "#.....#....#..#.....#",
                "#.###.#..#.#..#.###.#",
                "#.###.#.#..#..#.###.#",
                "#.###.#.###.#.#.###.#",
                "#.....#.#..#..#.....#",
                "#######.#.#.#.#######",
                "........#..##........",
                "#...#.######.#####..#",
                "...#....#.###....####",
                "..######..##.##.#..#.",
                "#####...##...#.......",
                "#####.#.#.#.#.##..##.",
                "........#.#.####.#.##",
                "#######.###.#.#.##.#.",
                "#.....#..#.###.##..##",
                "#.###.#.##.#.##...##.",
                "#.###.#..#..#...##.##",
                "#.###.#..###...###...",
                "#.....#....#.#.......",
                "#######.#########.#.#",
            ]
        ),
        KnownAnswer(
            text: "otpauth://totp/ACME%20Co:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=ACME%20Co&algorithm=SHA1&digits=6&period=30",
            correction: .medium, version: 7, mask: 4,
            rows: [
                "#######.####..###.#.#.##..#...###...#.#######",
                "#.....#..#..##......##..###....###.#..#.....#",
                "#.###.#..###....#..#.##.#.###..###.#..#.###.#",
                "#.###.#.#########...#...##..#......##.#.###.#",
                "#.###.#.####...###..#####.##.##.#####.#.###.#",
                "#.....#.#.#.##....###...##.##.........#.....#",
                "#######.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#######",
                "........###.####...##...##.#.#.....##........",
                "#...#.###..#....#.#######.#..#..####.#####..#",
                "##...#..##..#...####.###.###.##.#..##.##.##..",
                "##...##.....####.#...###.##.##...#..###.#..#.",
                ".#.#......#.####..###.#.#.##....####.......##",
                "...#####.#......####..#.##.#....###..##..#...",
                ".##.##..#......##.........#.#.#..#.##.##..#..",
                "...##.##..###....##.###....####..#.##.###.#..",
                ".##.......##.....#.#.##.......###.#.##.#...#.",
                "..#...###.###...####....#....#..##...#...##..",
                "#.##.#.#..##.##.#####.###.#.######..#.#..#...",
                "###..##..###.##.#....#....####.#.#.##.###....",
                "##.....#...#..#.##.#..#.###..#.##.###......##",
                "#.#.######.##.###########....#.####.########.",
                "#.#.#...#.###.#....##...#.#..##..#.##...####.",
                "##..#.#.###..#..#.#.#.#.#.#.#.#..#..#.#.##.#.",
                "#..##...##...#.####.#...#..##.#....##...#....",
                "#.#######.##..#.##.#######.#.##.###.######.##",
                "..#.....#....##.#.#...######.##.##....##...#.",
                "#.#####...#...#####..######..#.##..##...##.#.",
                "...#...#.##..#.#....#..........##...#.#....#.",
                ".##.###.####.###.##..#.#.#.#....###...###...#",
                "#..##..#.##.###.#.###...#.##.##..#.#####..##.",
                "#..##.#.##.##....##.#.#.##..#.####.#.#..##.#.",
                "##.#......##.##...#....#.##..#.##.#...###....",
                "#.....###.#.##...###.#.##....##.##.......###.",
                ".#.##..##..##.#..##...##.###.##..#...###..###",
                "....#.##..##...##.#.#..##.#.##.##..###.##.##.",
                ".####....#####.#.#.###...#...#.###....##.....",
                "#..##.###...#....##.########....##..#####.###",
                "........###...##....#...####.#####..#...#.###",
                "#######.###..#.#.##.#.#.###.####...##.#.##.#.",
                "#.....#....#..##...##...#..##..##.###...#..#.",
                "#.###.#.####.####..#########.####..######...#",
                "#.###.#...#.##..##.####...###.##.#...#.#..#..",
                "#.###.#...#....#.#.#.##....####..#...#..#..#.",
                "#.....#.....##.#....###....#.#.##..###.##....",
                "#######.###.#.......##.##..#..####.##...#...#",
            ]
        ),
        KnownAnswer(
            text: "Hello, world! 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            correction: .quartile, version: 7, mask: 5,
            rows: [
                "#######.#.#..#...###.###..##..#.....#.#######",
                "#.....#.#####..#..######.#...#.###.#..#.....#",
                "#.###.#...###.......#..#####.....#.#..#.###.#",
                "#.###.#....#.##..#..#..#...##.##.#.##.#.###.#",
                "#.###.#...####....#.#######.#.#.#.###.#.###.#",
                "#.....#...#.##.#...##...#....#.###....#.....#",
                "#######.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#.#######",
                "..........#..##...###...#..###....###........",
                ".#....####.#.##.##..#####.....##..#..#.....##",
                "...##..#.....##.##...#.#.###.##..######.#.#..",
                ".###..##..##.#....#....####.#..###..#.#.#..#.",
                ".......###.#....##.##.####..#.#.#.#....#.####",
                ".###..#.#.##.#.##....#.####.######...#..#..##",
                ".##.#...#.#.###...####.#.#.#.##.#...#..######",
                ".##.#.##.....#######.#.....#..#.##..###......",
                ".##..#.#...#.....#.####.#.#..#...#.####.###.#",
                ".#..###...##...####..#..####.#.#.#....#...#..",
                "...##...#.#.#....#.#...###...####...##...##..",
                "##########.......###.#....#.#.##.#...#.#..#.#",
                ".#..##....###.##..##...#...#..####.#.#.####.#",
                "#...#######.#.###...######.#.##....##########",
                "#.#.#...#.##.#.#...##...#.###.##..#.#...#..##",
                ".####.#.#.#.##.#.####.#.##.#.###..###.#.#.##.",
                ".####...#.###.......#...##.#..#.#.#.#...###..",
                ".#..#######...##....#######.##..#.#.######..#",
                ".####.....#.##..#.#....##..#.#####..##.#..#..",
                ".#.##.###..#..#..###..##...#...#.#####.#..##.",
                "...#...#.#.#.##..##.##...##.#..##....#.##.###",
                "##...##..#.#..##.#...####.#..##..#..#.####.#.",
                "###.##.#.#.#...##.......###.#.##.#.###.#.####",
                "..#...#.#.##.#.##..##..###.###.##.....#.###.#",
                "..#.....#......#######...##.##...###...#.###.",
                ".##.#.##...#.#.#.#...#....#..###.#..#.#.#....",
                ".#.###.###..##...#.#.##..##..#######..#.#.#..",
                "....#.##....#####.#..#.#.##.#..###..##...#.#.",
                ".####..##.#.....###.###..##.#.######.#...##.#",
                "#..##.#..#.##....########...#.#.##.######..##",
                "........##..##......#...##...###.####...###.#",
                "#######.#.#.#.##..#.#.#.##.#..#.##.##.#.##...",
                "#.....#....#.....#.##...###...#...###...#####",
                "#.###.#......#..#.#.#####.#...##.#..#####.#..",
                "#.###.#..#.#.#...#...#.#.....##.##.#.##.###..",
                "#.###.#..#####...#..##.#.##...##...####.##..#",
                "#.....#.#...####......###....#.###.#.#.#.##..",
                "#######...#......####.....#.#....##.#.#..###.",
            ]
        ),
    ]

    /// The mask is given: encoders legitimately choose different masks because the standard
    /// leaves details of the penalty evaluation open (segno scores before drawing the format
    /// information; this encoder scores the finished symbol, as Nayuki's and ZXing's do).
    @Test("matches an independent encoder module for module", arguments: knownAnswers)
    func knownAnswer(_ vector: KnownAnswer) throws {
        let code = try QRCode(Array(vector.text.utf8), correction: vector.correction, mask: vector.mask)
        #expect(code.version == vector.version)
        #expect(code.size == 17 + 4 * vector.version)
        #expect(code.mask == vector.mask)
        #expect(Self.rows(of: code) == vector.rows)
    }

    @Test("chooses the same mask every time and records it")
    func maskChoiceIsStable() throws {
        for vector in Self.knownAnswers {
            let first = try QRCode(Array(vector.text.utf8), correction: vector.correction)
            let second = try QRCode(Array(vector.text.utf8), correction: vector.correction)
            #expect(first == second)
            #expect(try QRCode(Array(vector.text.utf8), correction: vector.correction, mask: first.mask) == first)
        }
    }

    @Test(
        "picks the smallest version that holds the bytes",
        arguments: [
            (1, QRCode.Correction.medium, 1), (14, .medium, 1), (15, .medium, 2), (17, .low, 1), (18, .low, 2),
            (11, .quartile, 1), (7, .high, 1), (8, .high, 2), (180, .medium, 9), (181, .medium, 10),
            (213, .medium, 10), (214, .medium, 11), (2331, .medium, 40), (2953, .low, 40),
        ])
    func versionSelection(count: Int, correction: QRCode.Correction, version: Int) throws {
        let code = try QRCode(Array(repeating: 0x41, count: count), correction: correction)
        #expect(code.version == version)
        #expect(code.size == 17 + 4 * version)
    }

    @Test("refuses data beyond version 40 and bad versions and masks")
    func refusals() {
        #expect(throws: QRCodeError.self) { try QRCode(Array(repeating: 0, count: 2332)) }
        #expect(throws: QRCodeError.self) { try QRCode([1, 2, 3], version: 0) }
        #expect(throws: QRCodeError.self) { try QRCode([1, 2, 3], version: 41) }
        #expect(throws: QRCodeError.self) { try QRCode(Array(repeating: 0, count: 15), version: 1) }
        #expect(throws: QRCodeError.self) { try QRCode([1, 2, 3], mask: 8) }
        do {
            _ = try QRCode(Array(repeating: 0, count: 3000))
        } catch {
            #expect(error.code == .dataTooLong)
            #expect(error.message.contains("shorten"))
        }
    }

    /// Format information for mask 0 at each level (ISO/IEC 18004 Annex C, Table C.1).
    @Test(
        "draws the standard format bits in both copies",
        arguments: [
            (QRCode.Correction.low, 0b111_0111_1100_0100), (.medium, 0b101_0100_0001_0010),
            (.quartile, 0b011_0101_0101_1111), (.high, 0b001_0110_1000_1001),
        ])
    func formatBits(correction: QRCode.Correction, expected: Int) throws {
        let code = try QRCode(Array("otpauth".utf8), correction: correction, mask: 0)
        let (first, second) = Self.formatBits(of: code)
        #expect(first == expected)
        #expect(second == expected)
        #expect(code.isDark(x: 8, y: code.size - 8), "the dark module")
    }

    /// Version information (ISO/IEC 18004 Annex D, Table D.1).
    @Test(
        "draws the standard version bits in both copies",
        arguments: [
            (7, 0x07C94), (8, 0x085BC), (9, 0x09A99), (10, 0x0A4D3), (21, 0x15683), (40, 0x28C69),
        ])
    func versionBits(version: Int, expected: Int) throws {
        let code = try QRCode([0x42], correction: .low, version: version)
        var bottomLeft = 0
        var topRight = 0
        for index in 0..<18 {
            let a = code.size - 11 + index % 3
            let b = index / 3
            if code.isDark(x: b, y: a) { bottomLeft |= 1 << index }
            if code.isDark(x: a, y: b) { topRight |= 1 << index }
        }
        #expect(bottomLeft == expected)
        #expect(topRight == expected)
    }

    @Test("draws two module rows per line inside a two-module quiet zone")
    func terminalString() throws {
        let code = try QRCode(Array("HELLO WORLD".utf8))
        let width = code.size + 4
        for invert in [false, true] {
            let lines = code.terminalString(invert: invert).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == (width + 1) / 2)
            #expect(lines.allSatisfy { $0.count == width })
            #expect(lines.first == Substring(String(repeating: invert ? "█" : " ", count: width)))
            // Row 2 of the text is module rows 2 and 3 less the quiet zone: rows 0 and 1 of
            // the finder, dark over dark along the top edge.
            let second = Array(lines[1])
            #expect(second[2] == (invert ? " " : "█"))
        }
        #expect(code.terminalString().count(where: { $0 == "\n" }) == (width + 1) / 2)
    }

    // MARK: - Helpers

    static func rows(of code: QRCode) -> [String] {
        (0..<code.size).map { y in
            String((0..<code.size).map { x in code.isDark(x: x, y: y) ? "#" : "." })
        }
    }

    /// Reads both copies of the format information, bit 14 first as Table C.1 lists them.
    static func formatBits(of code: QRCode) -> (Int, Int) {
        var first = 0
        var second = 0
        func set(_ value: inout Int, _ index: Int, _ dark: Bool) { if dark { value |= 1 << index } }
        for index in 0...5 { set(&first, index, code.isDark(x: 8, y: index)) }
        set(&first, 6, code.isDark(x: 8, y: 7))
        set(&first, 7, code.isDark(x: 8, y: 8))
        set(&first, 8, code.isDark(x: 7, y: 8))
        for index in 9..<15 { set(&first, index, code.isDark(x: 14 - index, y: 8)) }
        for index in 0..<8 { set(&second, index, code.isDark(x: code.size - 1 - index, y: 8)) }
        for index in 8..<15 { set(&second, index, code.isDark(x: 8, y: code.size - 15 + index)) }
        return (first, second)
    }
}
