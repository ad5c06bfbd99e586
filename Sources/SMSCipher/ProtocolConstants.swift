/// The fixed numbers of the smsgw protocol (version 2 adds none to version 1; the typed payloads
/// keep theirs beside their types).
///
/// docs/PROTOCOL.md is normative; every value here is stated there, with the reasoning behind it.
public enum ProtocolConstants {
    /// Characters in every encrypted SMS.
    public static let wireLength = 160
    /// Most septets of GSM-7 text one message carries (extension characters count 2).
    public static let textCapacity = 141
    /// Bits of fresh sender randomness in every message.
    public static let freshBits = 64
    /// Bits of the keyed message identifier.
    public static let identifierBits = 16
    /// Bits of the encrypted reference to the peer's fresh value.
    public static let referenceBits = 6
    /// Positions ahead of the next expected one that the receiver tries.
    public static let window = 64
    /// Most message keys kept for skipped positions (late arrivals).
    public static let maxSkippedKeys = 64
    /// Oldest a skipped key may grow before it is deleted, in seconds (7 days).
    public static let maxSkippedKeyAge: Int64 = 7 * 24 * 3600
    /// References resolved from the 6 reference bits: the receiver looks at this many consecutive
    /// references from the peer's last one, and at its own newest this-many.
    public static let referenceSpan = 64
    /// Most fresh values a sender keeps for the peer's references (the initial value aside).
    public static let freshRetention = 1024
    /// Digests of recently accepted messages kept to report duplicates.
    public static let recentDigests = 64
    /// How long a retired receive chain still opens late messages after a resync, in seconds (7 days).
    public static let retiredChainGrace: Int64 = 7 * 24 * 3600
    /// How far past the window a failed message is looked for, only to explain the failure.
    public static let diagnosticReach = 2048

    /// Bits of the payload: the text slot (7 × capacity + 1) and the fresh value.
    static let textSlotBits = 7 * textCapacity + 1
    static let payloadBits = textSlotBits + freshBits
    /// Bits below the tag field: identifier, reference and payload.
    static let lowBits = identifierBits + referenceBits + payloadBits
    /// Size of the tag field: ⌊122^160 / 2^1074⌋, about 2^34.92.
    public static let tagModulus: UInt64 = 32_460_676_373
}
