/// Minimal standard base64 (RFC 4648 §4), so the pure protocol module needs no Foundation.
enum Base64 {
    private static let symbols = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, symbol) in symbols.enumerated() { table[Int(symbol)] = Int8(index) }
        return table
    }()

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            out.append(symbols[Int(triple >> 18 & 63)])
            out.append(symbols[Int(triple >> 12 & 63)])
            out.append(index + 1 < bytes.count ? symbols[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? symbols[Int(triple & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(input.count / 4 * 3)
        var index = 0
        while index < input.count {
            var quad: UInt32 = 0
            var padding = 0
            for offset in 0..<4 {
                let symbol = input[index + offset]
                if symbol == UInt8(ascii: "=") {
                    guard index + 4 == input.count, offset >= 2 else { return nil }
                    padding += 1
                    quad <<= 6
                    continue
                }
                guard padding == 0 else { return nil }
                let value = values[Int(symbol)]
                guard value >= 0 else { return nil }
                quad = quad << 6 | UInt32(value)
            }
            out.append(UInt8(quad >> 16 & 0xFF))
            if padding < 2 { out.append(UInt8(quad >> 8 & 0xFF)) }
            if padding < 1 { out.append(UInt8(quad & 0xFF)) }
            index += 4
        }
        return out
    }
}
