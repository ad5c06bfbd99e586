/// The keys and checks derived from one position's message key (docs/PROTOCOL.md §4.3).
///
/// Shared by data messages (message key from the chain) and handshake messages (the pairing's
/// handshake key), so both produce envelopes of the same shape.
struct MessageKeys {
    private let hmac: HMACKey

    init(messageKey: KeyBytes) {
        hmac = HMACKey(messageKey)
    }

    /// The 16-bit identifier that binds the message key to the rest of the envelope.
    func identifier(bodyDigest: [UInt8]) -> UInt16 {
        let mac = hmac.mac(KDF.Label.identifier.bytes, bodyDigest)
        return UInt16(mac[0]) << 8 | UInt16(mac[1])
    }

    /// Six bits that hide the reference; they depend on the tag, as the pad does.
    func referencePad(tag: UInt64) -> UInt8 {
        hmac.mac(KDF.Label.reference.bytes, tag.bigEndianBytes)[0] & 0x3F
    }

    /// The payload key for a reference to the peer's fresh value.
    func payloadKey(reference: UInt32, fresh: UInt64) -> [UInt8] {
        hmac.mac(KDF.Label.payloadKey.bytes, reference.bigEndianBytes, fresh.bigEndianBytes)
    }

    /// Tag ∈ [0, tagModulus) from the first 16 bytes of the tag digest.
    static func tag(fromDigest digest: [UInt8]) -> UInt64 {
        var value: UInt128 = 0
        for byte in digest.prefix(16) { value = value << 8 | UInt128(byte) }
        return UInt64(value % UInt128(ProtocolConstants.tagModulus))
    }

    /// The keystream that encrypts the payload, 132 bytes with the top 4 bits zero.
    static func pad(payloadKey: [UInt8], tag: UInt64) -> [UInt8] {
        var pad = KDF.expand(payloadKey, .pad, context: tag.bigEndianBytes, count: Payload.byteCount)
        pad[0] &= 0x0F
        return pad
    }

    static func xor(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var out = a
        for index in out.indices { out[index] ^= b[index] }
        return out
    }

    /// Keyed padding that extends the tag for texts shorter than the capacity.
    static func padding(tagDigest: [UInt8], bits: Int) -> [UInt8] {
        guard bits > 0 else { return [] }
        var bytes = KDF.expand(tagDigest, .padding, context: [], count: (bits + 7) / 8)
        if bits % 8 != 0 { bytes[bytes.count - 1] &= 0xFF << UInt8(8 - bits % 8) }
        return bytes
    }
}
