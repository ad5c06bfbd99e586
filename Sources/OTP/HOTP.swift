/// An HMAC-based one-time passcode generator (RFC 4226).
///
/// Each code is derived from the shared ``secret`` and a 64-bit moving counter: the HMAC of
/// the counter is reduced by *dynamic truncation* (RFC 4226 §5.3) to a 31-bit number, whose
/// last ``digits`` decimal digits are the passcode.
///
/// Codes are strings because their leading zeros matter: `"001234"` and `"1234"` are different
/// passcodes.
///
/// ```swift
/// let hotp = try HOTP(secret: OTPSecret(base32: "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"))
/// hotp.code(counter: 0)   // "755224"
/// ```
public struct HOTP: Sendable, Hashable {
    /// The digit counts RFC 4226 allows.
    public static let allowedDigits: ClosedRange<Int> = 6...8

    /// The shared secret key.
    public let secret: OTPSecret
    /// The hash under the HMAC.
    public let algorithm: OTPAlgorithm
    /// The number of decimal digits in each code, 6 to 8.
    public let digits: Int

    /// Creates a generator.
    /// - Parameters:
    ///   - secret: The shared secret key.
    ///   - algorithm: The HMAC hash; RFC 4226 uses SHA-1.
    ///   - digits: Code length, 6 to 8.
    /// - Throws: ``OTPError`` with code ``OTPError/Code/invalidDigits`` if `digits` is out of range.
    public init(secret: OTPSecret, algorithm: OTPAlgorithm = .sha1, digits: Int = 6) throws(OTPError) {
        guard Self.allowedDigits.contains(digits) else { throw OTPError.invalidDigits(digits) }
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
    }

    /// The passcode for one counter value.
    /// - Parameter counter: The moving factor; any 64-bit value.
    /// - Returns: A string of exactly ``digits`` decimal digits, leading zeros kept.
    public func code(counter: UInt64) -> String {
        Self.format(truncatedValue(counter: counter), digits: digits)
    }

    /// The 31-bit number that dynamic truncation extracts from the HMAC of the counter
    /// (RFC 4226 §5.3, `DT(HS)`); the passcode is this number modulo 10^digits.
    /// - Parameter counter: The moving factor.
    /// - Returns: A value in `0..<2^31`.
    public func truncatedValue(counter: UInt64) -> UInt32 {
        let message = withUnsafeBytes(of: counter.bigEndian) { Array($0) }
        let mac = algorithm.authenticationCode(for: message, key: secret.symmetricKey)
        return Self.dynamicTruncation(mac)
    }

    /// The candidate codes for a run of counters, computed once for the verifier.
    /// - Parameter counters: The counter values.
    /// - Returns: The code for each counter, in order.
    func codes(counters: some Sequence<UInt64>) -> [(counter: UInt64, code: [UInt8])] {
        let key = secret.symmetricKey
        return counters.map { counter in
            let message = withUnsafeBytes(of: counter.bigEndian) { Array($0) }
            let mac = algorithm.authenticationCode(for: message, key: key)
            let code = Self.format(Self.dynamicTruncation(mac), digits: digits)
            return (counter, Array(code.utf8))
        }
    }

    /// RFC 4226 §5.3 dynamic truncation: the low nibble of the last byte picks an offset, and
    /// the four bytes there, with the top bit cleared, are the result.
    static func dynamicTruncation(_ mac: [UInt8]) -> UInt32 {
        let offset = Int(mac[mac.count - 1] & 0x0F)
        // The top bit is masked so the value is the same whether a platform reads it signed or not.
        return (UInt32(mac[offset] & 0x7F) << 24)
            | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8)
            | UInt32(mac[offset + 3])
    }

    /// Reduces a truncated value to `digits` decimal digits, padding with leading zeros.
    static func format(_ value: UInt32, digits: Int) -> String {
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let text = String(value % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }
}
