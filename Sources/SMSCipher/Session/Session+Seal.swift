import GSM7

/// What sealing a message produced: the next state and the SMS to send.
public struct Sealed: Sendable {
    /// The state to persist before the ciphertext leaves the process.
    public let session: Session
    /// Exactly 160 characters of the ciphertext alphabet.
    public let ciphertext: String
    /// The chain position this message took.
    public let position: UInt32
}

extension Session {
    /// Encrypts a GSM-7 text into one 160-character SMS.
    ///
    /// - Parameters:
    ///   - text: Any GSM 03.38 text of at most ``ProtocolConstants/textCapacity`` septets.
    ///   - rng: Source of the message's 64 fresh bits; pass `SystemRandomNumberGenerator` outside tests.
    /// - Returns: The new state and the ciphertext. Persist the state before sending.
    public func sealing(_ text: String, using rng: inout some RandomNumberGenerator) throws(CipherError) -> Sealed {
        try sealing(.text(text), using: &rng)
    }

    /// Encrypts a text or a typed payload into one 160-character SMS.
    ///
    /// A typed payload is sealed exactly as a text is (docs/PROTOCOL.md §3.4): the same envelope,
    /// padding and tag, so nobody without the keys can tell the two apart.
    /// - Parameters:
    ///   - plaintext: A text of at most ``ProtocolConstants/textCapacity`` septets, or a typed payload.
    ///   - rng: Source of the message's 64 fresh bits; pass `SystemRandomNumberGenerator` outside tests.
    /// - Returns: The new state and the ciphertext. Persist the state before sending.
    public func sealing(_ plaintext: Plaintext, using rng: inout some RandomNumberGenerator) throws(CipherError) -> Sealed {
        let septets: [UInt8]
        switch plaintext {
        case .text(let text):
            do {
                septets = try GSM7.septets(for: text)
            } catch {
                throw .unsupportedText(error)
            }
            guard septets.count <= ProtocolConstants.textCapacity else {
                throw .textTooLong(septets: septets.count, capacity: ProtocolConstants.textCapacity)
            }
        case .typed(let payload):
            septets = payload.septets
        }
        let position = send.position
        guard position < UInt32.max else { throw .chainExhausted }

        let (messageKey, nextChainKey) = ReceiveChain.step(send.chainKey)
        let keys = MessageKeys(messageKey: messageKey)
        let fresh = rng.next() as UInt64
        let payloadKey = keys.payloadKey(reference: peerReference, fresh: peerFresh)
        let payload = Payload(septets: septets, fresh: fresh)
        let digest = Self.tagDigest(payloadKey, position: position, reference: peerReference, payload: payload)
        let tag = MessageKeys.tag(fromDigest: digest)
        let padding = MessageKeys.padding(tagDigest: digest, bits: Payload.paddingBits(forSeptets: septets.count))
        let body = MessageKeys.xor(payload.encoded(padding: padding), MessageKeys.pad(payloadKey: payloadKey, tag: tag))
        let reference = UInt8(truncatingIfNeeded: peerReference) & 0x3F ^ keys.referencePad(tag: tag)
        var envelope = Envelope(tag: tag, identifier: 0, reference: reference, body: body)
        envelope.identifier = keys.identifier(bodyDigest: envelope.bodyDigest)

        var next = self
        next.send.chainKey = nextChainKey
        next.send.fresh.record(fresh)
        return Sealed(session: next, ciphertext: envelope.text, position: position)
    }

    /// HMAC over everything the tag authenticates (docs/PROTOCOL.md §4.4).
    static func tagDigest(_ payloadKey: [UInt8], position: UInt32, reference: UInt32, payload: Payload) -> [UInt8] {
        KDF.mac(
            payloadKey, .tag, position.bigEndianBytes, reference.bigEndianBytes,
            [UInt8(payload.septets.count)], payload.septets, payload.fresh.bigEndianBytes
        )
    }
}
