/// A payload other than a text: a kind and its body, carried in the text slot of an ordinary
/// message (docs/PROTOCOL.md §3.4).
///
/// The slot's septets begin with ESC ESC, which no GSM-7 text contains (ESC is only ever followed by
/// one of the ten extension codes, and ESC ESC is reserved by GSM 03.38 for a further table), then
/// the kind, then the body. So a text keeps its full capacity, a typed message is sealed, padded and
/// authenticated exactly like a text, and a version-1 receiver, whose GSM-7 decoding refuses ESC ESC,
/// rejects it as not authentic without changing its state.
public struct TypedPayload: Sendable, Hashable {
    /// The two septets that open every typed payload.
    public static let marker: [UInt8] = [0x1B, 0x1B]
    /// Septets the body of one typed message can hold: the text capacity less marker and kind.
    public static let bodyCapacity = ProtocolConstants.textCapacity - marker.count - 1

    /// What the body is.
    public var kind: Kind
    /// The body, one septet (0...0x7F) per element.
    public var body: [UInt8]

    /// A typed payload; the body must be septets and fit ``bodyCapacity``.
    public init(kind: Kind, body: [UInt8]) {
        precondition(body.count <= Self.bodyCapacity && body.allSatisfy { $0 < 0x80 }, "a typed body is at most 138 septets")
        self.kind = kind
        self.body = body
    }

    /// The septets the text slot carries.
    var septets: [UInt8] { Self.marker + [kind.rawValue] + body }

    /// The typed payload a text slot holds, or nil when the slot holds no typed payload.
    ///
    /// Returns nil for septets that do not begin with the marker (a text) and for a marker without
    /// a kind, which no honest sender produces.
    static func parse(septets: [UInt8]) -> TypedPayload? {
        guard septets.count > marker.count, septets.starts(with: marker) else { return nil }
        return TypedPayload(kind: Kind(rawValue: septets[marker.count]), body: Array(septets[(marker.count + 1)...]))
    }

    /// Whether a text slot begins with the marker (a typed payload, well formed or not).
    static func isMarked(_ septets: [UInt8]) -> Bool { septets.starts(with: marker) }
}

extension TypedPayload {
    /// The kind of a typed payload: one septet, 0...127 (docs/PROTOCOL.md §3.4).
    ///
    /// A receiver keeps and reports a kind it does not know; it never reads one as text.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: UInt8

        public init(rawValue: UInt8) {
            precondition(rawValue < 0x80, "a kind is one septet")
            self.rawValue = rawValue
        }

        /// One part of a text longer than one message (§8).
        public static let textPart = Kind(rawValue: 1)
        /// An acknowledgement of decrypted messages (§9).
        public static let acknowledgement = Kind(rawValue: 2)
        /// The first and last kind set aside for the credential vault.
        public static let vaultKinds: ClosedRange<UInt8> = 3...15

        /// Whether this version of the protocol defines the kind.
        public var isKnown: Bool { self == .textPart || self == .acknowledgement }

        public var description: String {
            switch self {
            case .textPart: "text part"
            case .acknowledgement: "acknowledgement"
            default: "kind \(rawValue)"
            }
        }
    }
}

/// What a message carries: a text, or a typed payload.
public enum Plaintext: Sendable, Hashable {
    case text(String)
    case typed(TypedPayload)
}
