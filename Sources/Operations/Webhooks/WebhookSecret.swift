import Crypto
import Foundation

/// A webhook signing secret in the Standard Webhooks form: `whsec_` and the key in base64
/// (24 to 64 bytes). Its description never shows the key.
public struct WebhookSecret: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The prefix every secret starts with.
    public static let prefix = "whsec_"

    let key: Data

    /// Parses `whsec_<base64>`.
    ///
    /// - Throws: ``WebhookError/invalidSecret(_:)`` naming what is wrong, never the secret.
    public init(_ text: String) throws(WebhookError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix(Self.prefix) else {
            throw .invalidSecret("does not start with \(Self.prefix)")
        }
        guard let key = Data(base64Encoded: String(trimmed.dropFirst(Self.prefix.count))) else {
            throw .invalidSecret("is not base64 after \(Self.prefix)")
        }
        guard (24...64).contains(key.count) else {
            throw .invalidSecret("holds \(key.count) bytes; it needs 24 to 64")
        }
        self.key = key
    }

    /// A new random secret of 32 bytes (for the docs' `openssl rand -base64 32` equivalent).
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return prefix + Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
    }

    /// `v1,<base64 HMAC-SHA256 of content>` with this secret's key.
    func signature(of content: Data) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: content, using: SymmetricKey(data: key))
        return "v1," + Data(code).base64EncodedString()
    }

    public var description: String { "whsec_…" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
