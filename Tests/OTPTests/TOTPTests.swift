import Foundation
import OTP
import Testing

/// RFC 6238 Appendix B, with the per-hash seeds of the reference implementation.
struct TOTPTests {
    /// One row of RFC 6238 Appendix B.
    struct Vector: Sendable, CustomTestStringConvertible {
        let time: Int64
        let utc: String
        let step: UInt64
        let code: String
        let algorithm: OTPAlgorithm
        var testDescription: String { "\(algorithm) at \(time) -> \(code)" }
    }

    /// The seeds: the ASCII digits repeated to the hash's output length.
    static func seed(for algorithm: OTPAlgorithm) -> OTPSecret {
        let digits = Array("1234567890".utf8)
        let bytes = (0..<algorithm.recommendedSecretByteCount).map { digits[$0 % digits.count] }
        return try! OTPSecret(bytes: bytes)
    }

    static let appendixB: [Vector] = [
        Vector(time: 59, utc: "1970-01-01T00:00:59Z", step: 0x1, code: "94287082", algorithm: .sha1),
        Vector(time: 59, utc: "1970-01-01T00:00:59Z", step: 0x1, code: "46119246", algorithm: .sha256),
        Vector(time: 59, utc: "1970-01-01T00:00:59Z", step: 0x1, code: "90693936", algorithm: .sha512),
        Vector(time: 1_111_111_109, utc: "2005-03-18T01:58:29Z", step: 0x2_3523EC, code: "07081804", algorithm: .sha1),
        Vector(time: 1_111_111_109, utc: "2005-03-18T01:58:29Z", step: 0x2_3523EC, code: "68084774", algorithm: .sha256),
        Vector(time: 1_111_111_109, utc: "2005-03-18T01:58:29Z", step: 0x2_3523EC, code: "25091201", algorithm: .sha512),
        Vector(time: 1_111_111_111, utc: "2005-03-18T01:58:31Z", step: 0x2_3523ED, code: "14050471", algorithm: .sha1),
        Vector(time: 1_111_111_111, utc: "2005-03-18T01:58:31Z", step: 0x2_3523ED, code: "67062674", algorithm: .sha256),
        Vector(time: 1_111_111_111, utc: "2005-03-18T01:58:31Z", step: 0x2_3523ED, code: "99943326", algorithm: .sha512),
        Vector(time: 1_234_567_890, utc: "2009-02-13T23:31:30Z", step: 0x2_73EF07, code: "89005924", algorithm: .sha1),
        Vector(time: 1_234_567_890, utc: "2009-02-13T23:31:30Z", step: 0x2_73EF07, code: "91819424", algorithm: .sha256),
        Vector(time: 1_234_567_890, utc: "2009-02-13T23:31:30Z", step: 0x2_73EF07, code: "93441116", algorithm: .sha512),
        Vector(time: 2_000_000_000, utc: "2033-05-18T03:33:20Z", step: 0x3_F940AA, code: "69279037", algorithm: .sha1),
        Vector(time: 2_000_000_000, utc: "2033-05-18T03:33:20Z", step: 0x3_F940AA, code: "90698825", algorithm: .sha256),
        Vector(time: 2_000_000_000, utc: "2033-05-18T03:33:20Z", step: 0x3_F940AA, code: "38618901", algorithm: .sha512),
        Vector(time: 20_000_000_000, utc: "2603-10-11T11:33:20Z", step: 0x27_BC86AA, code: "65353130", algorithm: .sha1),
        Vector(time: 20_000_000_000, utc: "2603-10-11T11:33:20Z", step: 0x27_BC86AA, code: "77737706", algorithm: .sha256),
        Vector(time: 20_000_000_000, utc: "2603-10-11T11:33:20Z", step: 0x27_BC86AA, code: "47863826", algorithm: .sha512),
    ]

    @Test("RFC 6238 Appendix B codes", arguments: appendixB)
    func appendixBCode(_ vector: Vector) throws {
        let totp = try TOTP(secret: Self.seed(for: vector.algorithm), algorithm: vector.algorithm, digits: 8)
        #expect(try totp.code(at: vector.time) == vector.code)
        #expect(totp.code(step: vector.step) == vector.code)
    }

    @Test("RFC 6238 Appendix B time steps (the T column)", arguments: appendixB)
    func appendixBStep(_ vector: Vector) throws {
        let totp = try TOTP(secret: Self.seed(for: vector.algorithm), algorithm: vector.algorithm, digits: 8)
        #expect(try totp.step(at: vector.time) == vector.step)
        #expect(totp.startOfStep(vector.step) == vector.time - vector.time % 30)
    }

    @Test("RFC 6238 Appendix B UTC times match the Unix times", arguments: appendixB)
    func appendixBDate(_ vector: Vector) throws {
        let date = try #require(ISO8601DateFormatter().date(from: vector.utc))
        #expect(TOTP.unixTime(date) == vector.time)
        let totp = try TOTP(secret: Self.seed(for: vector.algorithm), algorithm: vector.algorithm, digits: 8)
        #expect(try totp.code(at: date) == vector.code)
    }

    @Test("The seeds have the per-hash lengths of RFC 6238")
    func seedLengths() {
        #expect(Self.seed(for: .sha1).bytes == Array("12345678901234567890".utf8))
        #expect(Self.seed(for: .sha256).bytes == Array("12345678901234567890123456789012".utf8))
        #expect(
            Self.seed(for: .sha512).bytes
                == Array(
                    "1234567890123456789012345678901234567890123456789012345678901234".utf8
                ))
    }

    @Test("A code keeps its leading zero")
    func leadingZero() throws {
        let totp = try TOTP(secret: Self.seed(for: .sha1), digits: 8)
        #expect(try totp.code(at: 1_111_111_109) == "07081804")
    }

    @Test("Any positive period and a start time T0", arguments: [1, 7, 30, 60, 90, 86_400] as [Int64])
    func periodsAndStartTime(_ period: Int64) throws {
        let secret = Self.seed(for: .sha1)
        let startTime: Int64 = 1_000
        let totp = try TOTP(secret: secret, period: period, startTime: startTime)
        let hotp = try HOTP(secret: secret)
        for time: Int64 in [1_000, 1_001, 1_000 + period - 1, 1_000 + period, 2_000_000_000, 20_000_000_000] {
            let step = UInt64((time - startTime) / period)
            #expect(try totp.step(at: time) == step)
            #expect(try totp.code(at: time) == hotp.code(counter: step))
        }
    }

    @Test("The last second of a step and the first of the next differ")
    func stepBoundary() throws {
        let totp = try TOTP(secret: Self.seed(for: .sha1))
        #expect(try totp.step(at: 29) == 0)
        #expect(try totp.step(at: 30) == 1)
        #expect(try totp.code(at: 0) == totp.code(at: 29))
    }

    @Test("Times before T0 are refused", arguments: [Int64.min, -1, 999])
    func beforeStart(_ time: Int64) throws {
        let totp = try TOTP(secret: Self.seed(for: .sha1), startTime: 1_000)
        let error = #expect(throws: OTPError.self) { try totp.code(at: time) }
        #expect(error?.code == .timeOutOfRange)
        #expect(error?.description.contains("before the TOTP start time") == true)
    }

    @Test("Periods that are not positive are refused", arguments: [0, -1, -30] as [Int64])
    func invalidPeriod(_ period: Int64) {
        let error = #expect(throws: OTPError.self) { try TOTP(secret: Self.seed(for: .sha1), period: period) }
        #expect(error?.code == .invalidPeriod)
        #expect(error?.description.contains("positive number of seconds") == true)
    }

    @Test("Fractions of a second round down")
    func fractionalDates() {
        #expect(TOTP.unixTime(Date(timeIntervalSince1970: 59.999)) == 59)
        #expect(TOTP.unixTime(Date(timeIntervalSince1970: -0.5)) == -1)
    }
}
