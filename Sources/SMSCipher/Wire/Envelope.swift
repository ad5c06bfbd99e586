/// The four fields of every encrypted SMS, data or handshake alike (docs/PROTOCOL.md §3.1).
///
/// X = tag × 2^1074 + identifier × 2^1058 + reference × 2^1052 + body, written as 160 base-122 digits.
struct Envelope: Equatable {
    /// Synthetic IV and first part of the authentication, in [0, tagModulus).
    var tag: UInt64
    /// Keyed identifier of the message's key, bound to the rest of the envelope.
    var identifier: UInt16
    /// Reference to the fresh value used, encrypted; 6 bits.
    var reference: UInt8
    /// Encrypted payload, 132 bytes with the top 4 bits zero.
    var body: [UInt8]

    /// The 160 ciphertext characters.
    var text: String {
        let header = UInt32(identifier) << 10 | UInt32(reference & 0x3F) << 4 | UInt32(body[0] & 0x0F)
        var low = header.bigEndianBytes
        low.append(contentsOf: body[1...])
        let number = WireNumber(tag: tag, low: low)
        return WireAlphabet.string(from: number.digits)
    }

    /// Parses 160 characters of the ciphertext alphabet.
    init(text: String) throws(CipherError) {
        try self.init(digits: WireAlphabet.digits(from: text))
    }

    /// Parses 160 base-122 digits.
    init(digits: [UInt8]) throws(CipherError) {
        let number = WireNumber(digits: digits)
        let tag = number.tag
        guard tag < ProtocolConstants.tagModulus else { throw .malformed(.outOfRange) }
        let low = number.low
        let header = UInt32(low[0]) << 24 | UInt32(low[1]) << 16 | UInt32(low[2]) << 8 | UInt32(low[3])
        self.tag = tag
        self.identifier = UInt16(truncatingIfNeeded: header >> 10)
        self.reference = UInt8(header >> 4 & 0x3F)
        self.body = [UInt8(header & 0x0F)] + low[4...]
    }

    init(tag: UInt64, identifier: UInt16, reference: UInt8, body: [UInt8]) {
        precondition(tag < ProtocolConstants.tagModulus && reference < 64 && body.count == Payload.byteCount)
        self.tag = tag
        self.identifier = identifier
        self.reference = reference
        self.body = body
    }

    /// SHA-256 of tag, reference and body: what the identifier authenticates.
    var bodyDigest: [UInt8] {
        var bytes = tag.bigEndianBytes
        bytes.append(reference)
        bytes.append(contentsOf: body)
        return KDF.sha256(bytes)
    }
}
