/// What a resynchronisation message did (docs/PROTOCOL.md §6).
public struct ResyncEvent: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// New chains are in force from this message on.
        case completed
        /// The peer asks for a resync; it is kept, nothing else changed, until this side's operator
        /// accepts it (``Session/acceptingResync(now:using:)``) or rejects it.
        case requested
        /// A copy of the peer's handshake arriving after it completed (a retry or a replay):
        /// nothing changed, and it is answered once (``reply``), since the first answer may be lost.
        case repeated
        /// The peer's handshake lost to this side's own, newer one; nothing changed.
        case superseded
    }
    public let epoch: UInt32
    public let outcome: Outcome
    /// The SMS to send back, if any: the answer the peer needs to complete.
    public let reply: String?
}

/// The fields of a handshake message.
struct Handshake: Equatable {
    static let kind: UInt8 = 0x01
    static let nonceSize = 16
    static let fieldBytes = 1 + 4 + 2 * nonceSize
    static let zeroNonce = [UInt8](repeating: 0, count: nonceSize)

    var epoch: UInt32
    var nonce: [UInt8]
    /// The peer's nonce this message answers, or zeros when it answers nothing.
    var echo: [UInt8]

    var fields: [UInt8] { [Self.kind] + epoch.bigEndianBytes + nonce + echo }

    /// Seals the handshake under a handshake key. Deterministic: a retry is the same SMS.
    func sealed(with handshakeKey: KeyBytes) -> String {
        let keys = MessageKeys(messageKey: handshakeKey)
        let payloadKey = keys.payloadKey(reference: 0, fresh: 0)
        let digest = KDF.mac(payloadKey, .tag, fields)
        let tag = MessageKeys.tag(fromDigest: digest)
        let fillerBits = (Payload.byteCount - 1 - Self.fieldBytes) * 8
        let plain = [0] + fields + MessageKeys.padding(tagDigest: digest, bits: fillerBits)
        let body = MessageKeys.xor(plain, MessageKeys.pad(payloadKey: payloadKey, tag: tag))
        var envelope = Envelope(tag: tag, identifier: 0, reference: keys.referencePad(tag: tag), body: body)
        envelope.identifier = keys.identifier(bodyDigest: envelope.bodyDigest)
        return envelope.text
    }

    /// Opens a handshake under the peer's handshake key; nil unless every check passes.
    static func open(_ envelope: Envelope, bodyDigest: [UInt8], with handshakeKey: KeyBytes) -> Handshake? {
        let keys = MessageKeys(messageKey: handshakeKey)
        guard keys.identifier(bodyDigest: bodyDigest) == envelope.identifier,
            envelope.reference == keys.referencePad(tag: envelope.tag)
        else { return nil }
        let payloadKey = keys.payloadKey(reference: 0, fresh: 0)
        let plain = MessageKeys.xor(envelope.body, MessageKeys.pad(payloadKey: payloadKey, tag: envelope.tag))
        let fields = Array(plain[1...Self.fieldBytes])
        let digest = KDF.mac(payloadKey, .tag, fields)
        let fillerBits = (Payload.byteCount - 1 - Self.fieldBytes) * 8
        let tagMatches = MessageKeys.tag(fromDigest: digest) ^ envelope.tag == 0
        let fillerMatches = KeyBytes.constantTimeEqual(
            Array(plain[(1 + Self.fieldBytes)...]), MessageKeys.padding(tagDigest: digest, bits: fillerBits))
        guard tagMatches && fillerMatches && plain[0] == 0 && fields[0] == kind else { return nil }
        let epoch = UInt32(Session.uint64([0, 0, 0, 0] + fields[1...4]))
        return Handshake(epoch: epoch, nonce: Array(fields[5..<21]), echo: Array(fields[21..<37]))
    }
}
