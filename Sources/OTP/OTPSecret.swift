import Crypto

/// The shared secret key of an HOTP or TOTP generator.
///
/// The secret is the whole of the security of a one-time passcode, so this type never shows
/// it by accident: ``description`` prints only its length. Use ``base32`` to show it to a user
/// once during enrolment, and ``bytes`` to hand it to the store, which encrypts it at rest.
///
/// RFC 4226 §4 requires at least 128 bits and recommends 160; ``random(byteCount:)`` defaults
/// to 20 bytes (160 bits).
public struct OTPSecret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The raw key bytes.
    public let bytes: [UInt8]

    /// Wraps raw key bytes.
    /// - Parameter bytes: The key; must not be empty.
    /// - Throws: ``OTPError`` with code ``OTPError/Code/emptySecret`` if there are no bytes.
    public init(bytes: some Sequence<UInt8>) throws(OTPError) {
        let bytes = Array(bytes)
        guard !bytes.isEmpty else { throw OTPError.emptySecret }
        self.bytes = bytes
    }

    /// Decodes a secret from Base32, the form printed under enrolment QR codes.
    ///
    /// Case, spaces and `=` padding are ignored, so `jbsw y3dp ehpk 3pxp` works as typed.
    /// - Parameter base32: The Base32 text.
    /// - Throws: ``OTPError`` naming the bad character and its position, or
    ///   ``OTPError/Code/emptySecret`` if nothing is left after spaces and padding.
    public init(base32: String) throws(OTPError) {
        try self.init(bytes: Base32.decode(base32))
    }

    /// Generates a new secret from the system's cryptographically secure random source.
    /// - Parameter byteCount: The key length; 20 bytes matches SHA-1's block of output and the
    ///   RFC 4226 recommendation. Values below 16 are raised to 16 (RFC 4226's minimum).
    /// - Returns: A fresh secret.
    public static func random(byteCount: Int = 20) -> OTPSecret {
        let count = max(byteCount, 16)
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: count * 8))
        let bytes = key.withUnsafeBytes { Array($0) }
        // A non-empty array cannot fail the emptiness check.
        return try! OTPSecret(bytes: bytes)
    }

    /// The secret as upper-case Base32 without padding, as authenticator apps and `oathtool -b`
    /// accept it.
    public var base32: String { Base32.encode(bytes) }

    /// The number of bytes in the key.
    public var byteCount: Int { bytes.count }

    /// The key for the HMAC computations.
    var symmetricKey: SymmetricKey { SymmetricKey(data: bytes) }

    /// A redacted description: the length only, never the key.
    public var description: String { "OTPSecret(\(bytes.count) bytes, redacted)" }

    /// A redacted description, so that `debugPrint` and string interpolation in logs stay safe.
    public var debugDescription: String { description }

    /// Compares two secrets in time that depends only on their lengths.
    public static func == (lhs: OTPSecret, rhs: OTPSecret) -> Bool {
        constantTimeEquals(lhs.bytes, rhs.bytes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes)
    }
}

/// Compares two byte strings without an early exit on the first difference.
///
/// Only the lengths leak through timing; for passcodes the length is the public digit count.
/// - Returns: Whether the two are equal.
func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    var difference: UInt8 = 0
    for index in lhs.indices {
        difference |= lhs[index] ^ rhs[index]
    }
    return difference == 0
}
