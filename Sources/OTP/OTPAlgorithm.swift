import Crypto

/// The hash function under the HMAC that derives each one-time passcode.
///
/// RFC 4226 defines HOTP with HMAC-SHA-1; RFC 6238 allows HMAC-SHA-256 and HMAC-SHA-512 for TOTP
/// as well. SHA-1 remains the default because it is what most authenticator apps support, and
/// HMAC-SHA-1 is not affected by the collision attacks on SHA-1.
///
/// The raw values are the spellings of the `algorithm` parameter of an `otpauth://` URI.
public enum OTPAlgorithm: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// HMAC-SHA-1, the RFC 4226 algorithm and the default for `otpauth://` URIs.
    case sha1 = "SHA1"
    /// HMAC-SHA-256 (RFC 6238).
    case sha256 = "SHA256"
    /// HMAC-SHA-512 (RFC 6238).
    case sha512 = "SHA512"

    /// Looks up an algorithm by the name used in `otpauth://` URIs and by `oathtool`.
    ///
    /// The match ignores case and an optional hyphen, so `SHA1`, `sha-256` and `Sha512` all work.
    /// - Parameter name: The algorithm name.
    /// - Returns: The algorithm, or `nil` if the name is not one of SHA1, SHA256 or SHA512.
    public init?(name: String) {
        let normalised = String(name.uppercased().filter { $0 != "-" })
        self.init(rawValue: normalised)
    }

    /// The name as written in an `otpauth://` URI, for example `SHA256`.
    public var name: String { rawValue }

    public var description: String { rawValue }

    /// The length of the HMAC output in bytes.
    public var macByteCount: Int {
        switch self {
        case .sha1: 20
        case .sha256: 32
        case .sha512: 64
        }
    }

    /// The secret length RFC 6238's reference implementation uses with this hash, which is
    /// the hash's own output length (20, 32 or 64 bytes).
    public var recommendedSecretByteCount: Int { macByteCount }

    /// Computes HMAC over a message with this algorithm.
    /// - Parameters:
    ///   - message: The bytes to authenticate (for OTPs, the 8-byte big-endian counter).
    ///   - key: The shared secret.
    /// - Returns: The full HMAC output, ``macByteCount`` bytes long.
    func authenticationCode(for message: [UInt8], key: SymmetricKey) -> [UInt8] {
        switch self {
        case .sha1:
            Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
        case .sha256:
            Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
        case .sha512:
            Array(HMAC<SHA512>.authenticationCode(for: message, using: key))
        }
    }
}
