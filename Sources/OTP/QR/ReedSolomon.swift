/// Reed-Solomon codes over GF(2^8) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D).
enum ReedSolomon {
    /// `exp[i]` is α^i, doubled in length so that products need no modulo.
    static let exp: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        var value = 1
        for index in 0..<255 {
            table[index] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for index in 255..<512 { table[index] = table[index - 255] }
        return table
    }()

    /// `log[x]` is i with α^i = x, for x ≠ 0.
    static let log: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for index in 0..<255 { table[Int(exp[index])] = index }
        return table
    }()

    /// The product of two field elements.
    static func multiply(_ lhs: UInt8, _ rhs: UInt8) -> UInt8 {
        guard lhs != 0, rhs != 0 else { return 0 }
        return exp[log[Int(lhs)] + log[Int(rhs)]]
    }

    /// The generator polynomial (x - α^0)(x - α^1)…(x - α^(degree-1)), its coefficients from
    /// the highest power down, the leading 1 left out.
    static func generator(degree: Int) -> [UInt8] {
        var coefficients = [UInt8](repeating: 0, count: degree)
        coefficients[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            // Multiply by (x - root); in GF(2^8) subtraction is addition, which is XOR.
            for index in 0..<degree {
                coefficients[index] = multiply(coefficients[index], root)
                if index + 1 < degree { coefficients[index] ^= coefficients[index + 1] }
            }
            root = multiply(root, 2)
        }
        return coefficients
    }

    /// The remainder of data(x)·x^degree divided by the generator: the error correction
    /// codewords.
    static func remainder(of data: some Collection<UInt8>, generator: [UInt8]) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in remainder.indices {
                remainder[index] ^= multiply(generator[index], factor)
            }
        }
        return remainder
    }
}
