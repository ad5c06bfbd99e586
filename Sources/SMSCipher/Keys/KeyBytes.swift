/// 32 bytes of key material: a chain key, a message key or a pairing secret.
///
/// Its description never shows the bytes, so a key that reaches a log by mistake reveals nothing.
/// The session's stored form holds its 32 raw bytes (the JSON of earlier versions, base64); the
/// Store encrypts either at rest.
public struct KeyBytes: Sendable, Hashable, Codable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        precondition(bytes.count == 32, "keys are 32 bytes")
        self.bytes = bytes
    }

    init<D: Sequence>(digest: D) where D.Element == UInt8 {
        self.init(Array(digest))
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let bytes = Base64.decode(text), bytes.count == 32 else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a key must be 32 bytes of base64")
        }
        self.bytes = bytes
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Base64.encode(bytes))
    }

    /// Compares in time independent of where the keys differ.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}

extension KeyBytes: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "KeyBytes(redacted)" }
    public var debugDescription: String { description }
}
