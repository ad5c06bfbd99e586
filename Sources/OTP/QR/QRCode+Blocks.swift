/// Block structure and interleaving (ISO/IEC 18004 §7.5 and §7.6); the codewords come from
/// ``ReedSolomon``.
extension QRCode {
    /// Error correction codewords per block, by level (L, M, Q, H) then version (Table 9).
    static let eccCodewordsPerBlock: [[Int]] = [
        [
            -1, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30,
            30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            -1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
            28, 28, 28, 28, 28, 28, 28, 28, 28,
        ],
        [
            -1, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30,
            30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
        [
            -1, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30,
            30, 30, 30, 30, 30, 30, 30, 30, 30,
        ],
    ]

    /// Error correction blocks, by level (L, M, Q, H) then version (Table 9).
    static let blockCounts: [[Int]] = [
        [
            -1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21,
            22, 24, 25,
        ],
        [
            -1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37,
            38, 40, 43, 45, 47, 49,
        ],
        [
            -1, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51,
            53, 56, 59, 62, 65, 68,
        ],
        [
            -1, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57,
            60, 63, 66, 70, 74, 77, 81,
        ],
    ]

    /// The modules left for codewords once the function patterns and format and version
    /// information are drawn; some versions leave a few remainder bits.
    static func rawDataModuleCount(version: Int) -> Int {
        var count = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            count -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { count -= 36 }
        }
        return count
    }

    /// The data codewords (payload, headers and padding) a version holds at a level.
    static func dataCodewordCount(version: Int, correction: Correction) -> Int {
        let level = correction.tableIndex
        return rawDataModuleCount(version: version) / 8
            - eccCodewordsPerBlock[level][version] * blockCounts[level][version]
    }

    /// Splits the data codewords into blocks (short ones first), appends each block's
    /// Reed-Solomon codewords, and interleaves: the data codewords column by column, then the
    /// error correction codewords column by column.
    static func interleave(_ data: [UInt8], version: Int, correction: Correction) -> [UInt8] {
        let level = correction.tableIndex
        let blockCount = blockCounts[level][version]
        let eccLength = eccCodewordsPerBlock[level][version]
        let rawCodewords = rawDataModuleCount(version: version) / 8
        let shortBlockCount = blockCount - rawCodewords % blockCount
        let shortDataLength = rawCodewords / blockCount - eccLength
        let generator = ReedSolomon.generator(degree: eccLength)

        var dataBlocks: [ArraySlice<UInt8>] = []
        var eccBlocks: [[UInt8]] = []
        var start = data.startIndex
        for index in 0..<blockCount {
            let length = shortDataLength + (index < shortBlockCount ? 0 : 1)
            let block = data[start..<(start + length)]
            start += length
            dataBlocks.append(block)
            eccBlocks.append(ReedSolomon.remainder(of: block, generator: generator))
        }

        var result: [UInt8] = []
        result.reserveCapacity(rawCodewords)
        for column in 0...shortDataLength {
            for block in dataBlocks where column < block.count {
                result.append(block[block.startIndex + column])
            }
        }
        for column in 0..<eccLength {
            for block in eccBlocks {
                result.append(block[column])
            }
        }
        return result
    }
}
