import OTP
import Testing

/// RFC 4226 Appendix D: the secret is the ASCII string "12345678901234567890".
struct HOTPTests {
    /// One row of RFC 4226 Appendix D.
    struct Vector: Sendable, CustomTestStringConvertible {
        let counter: UInt64
        let truncatedHex: UInt32
        let truncatedDecimal: UInt32
        let code: String
        var testDescription: String { "counter \(counter) -> \(code)" }
    }

    static let secret = try! OTPSecret(bytes: Array("12345678901234567890".utf8))

    static let appendixD: [Vector] = [
        Vector(counter: 0, truncatedHex: 0x4c93_cf18, truncatedDecimal: 1_284_755_224, code: "755224"),
        Vector(counter: 1, truncatedHex: 0x4139_7eea, truncatedDecimal: 1_094_287_082, code: "287082"),
        Vector(counter: 2, truncatedHex: 0x082f_ef30, truncatedDecimal: 137_359_152, code: "359152"),
        Vector(counter: 3, truncatedHex: 0x66ef_7655, truncatedDecimal: 1_726_969_429, code: "969429"),
        Vector(counter: 4, truncatedHex: 0x61c5_938a, truncatedDecimal: 1_640_338_314, code: "338314"),
        Vector(counter: 5, truncatedHex: 0x33c0_83d4, truncatedDecimal: 868_254_676, code: "254676"),
        Vector(counter: 6, truncatedHex: 0x7256_c032, truncatedDecimal: 1_918_287_922, code: "287922"),
        Vector(counter: 7, truncatedHex: 0x04e5_b397, truncatedDecimal: 82_162_583, code: "162583"),
        Vector(counter: 8, truncatedHex: 0x2823_443f, truncatedDecimal: 673_399_871, code: "399871"),
        Vector(counter: 9, truncatedHex: 0x2679_dc69, truncatedDecimal: 645_520_489, code: "520489"),
    ]

    @Test("RFC 4226 Appendix D codes", arguments: appendixD)
    func appendixDCode(_ vector: Vector) throws {
        let hotp = try HOTP(secret: Self.secret)
        #expect(hotp.code(counter: vector.counter) == vector.code)
    }

    @Test("RFC 4226 Appendix D truncated values", arguments: appendixD)
    func appendixDTruncation(_ vector: Vector) throws {
        let hotp = try HOTP(secret: Self.secret)
        let value = hotp.truncatedValue(counter: vector.counter)
        #expect(value == vector.truncatedHex)
        #expect(value == vector.truncatedDecimal)
    }

    @Test("Longer codes are the low digits of the same truncated value", arguments: appendixD, [7, 8])
    func longerCodes(_ vector: Vector, digits: Int) throws {
        let hotp = try HOTP(secret: Self.secret, digits: digits)
        let expected = String(String(vector.truncatedDecimal).suffix(digits))
        let padded = String(repeating: "0", count: digits - expected.count) + expected
        #expect(hotp.code(counter: vector.counter) == padded)
    }

    @Test("Leading zeros are kept")
    func leadingZeros() throws {
        // About one code in ten has a leading zero: find them and check none lost its zero.
        let six = try HOTP(secret: Self.secret)
        var found = 0
        for counter in UInt64(0)..<5_000 where six.truncatedValue(counter: counter) % 1_000_000 < 100_000 {
            let code = six.code(counter: counter)
            #expect(code.count == 6)
            #expect(code.first == "0")
            found += 1
        }
        #expect(found > 0, "expected some codes with a leading zero among 5000 counters")
    }

    @Test("Every 64-bit counter works, including the largest")
    func fullCounterRange() throws {
        let hotp = try HOTP(secret: Self.secret)
        for counter: UInt64 in [.max, .max - 1, 1 << 63, UInt64(UInt32.max) + 1] {
            let code = hotp.code(counter: counter)
            #expect(code.count == 6)
            #expect(code.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        }
    }

    @Test("Digit counts outside 6...8 are refused", arguments: [-1, 0, 1, 5, 9, 10])
    func invalidDigits(_ digits: Int) throws {
        let error = #expect(throws: OTPError.self) { try HOTP(secret: Self.secret, digits: digits) }
        #expect(error?.code == .invalidDigits)
        #expect(error?.description.contains("\(digits) digits") == true)
    }

    @Test("An empty secret is refused")
    func emptySecret() {
        let error = #expect(throws: OTPError.self) { try OTPSecret(bytes: []) }
        #expect(error?.code == .emptySecret)
    }
}
