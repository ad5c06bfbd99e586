/// What a resynchronisation message did (docs/PROTOCOL.md §6).
public struct ResyncEvent: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// New chains are in force from this message on.
        case completed
        /// A repeat of a handshake already completed (a retry or a replay); nothing changed.
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

extension Session {
    /// Starts a resynchronisation over SMS, or repeats the one already pending.
    ///
    /// - Returns: The state to persist (it remembers the pending handshake) and the SMS to send.
    ///   Calling it again while the handshake is pending returns the same SMS, for retries.
    public func startingResync(using rng: inout some RandomNumberGenerator) -> (session: Session, message: String) {
        if let pending = resync.pending {
            return (self, Handshake(epoch: pending.epoch, nonce: pending.nonce, echo: Handshake.zeroNonce).sealed(with: handshakeKey(role)))
        }
        var next = self
        let pending = ResyncState.Pending(epoch: epoch &+ 1, nonce: Self.nonce(using: &rng))
        next.resync.pending = pending
        let message = Handshake(epoch: pending.epoch, nonce: pending.nonce, echo: Handshake.zeroNonce).sealed(with: handshakeKey(role))
        return (next, message)
    }

    /// The handshake SMS to send again while a resync is pending.
    public var pendingResyncMessage: String? {
        resync.pending.map {
            Handshake(epoch: $0.epoch, nonce: $0.nonce, echo: Handshake.zeroNonce).sealed(with: handshakeKey(role))
        }
    }

    func handshakeKey(_ role: Role) -> KeyBytes {
        KDF.key(pairingSecret, role == .a ? .handshakeA : .handshakeB)
    }

    func openHandshake(_ envelope: Envelope, bodyDigest: [UInt8]) -> Handshake? {
        Handshake.open(envelope, bodyDigest: bodyDigest, with: handshakeKey(role.peer))
    }

    func handleHandshake(
        _ message: Handshake, now: Int64, using rng: inout some RandomNumberGenerator
    ) throws(CipherError) -> OpenResult {
        let answersNothing = KeyBytes.constantTimeEqual(message.echo, Handshake.zeroNonce)
        if message.epoch < epoch { throw .replayedHandshake }
        if message.epoch == epoch {
            // The peer repeats a handshake this side completed: answer again if it still needs our nonce.
            guard let last = resync.last, last.epoch == epoch, KeyBytes.constantTimeEqual(last.peer, message.nonce) else {
                throw .replayedHandshake
            }
            let needsAnswer = answersNothing || !KeyBytes.constantTimeEqual(message.echo, last.mine)
            let reply = needsAnswer ? Handshake(epoch: epoch, nonce: last.mine, echo: last.peer).sealed(with: handshakeKey(role)) : nil
            return OpenResult(session: self, opened: .resync(ResyncEvent(epoch: epoch, outcome: .repeated, reply: reply)))
        }
        if let pending = resync.pending, pending.epoch > message.epoch {
            return OpenResult(session: self, opened: .resync(ResyncEvent(epoch: message.epoch, outcome: .superseded, reply: nil)))
        }
        if let pending = resync.pending, pending.epoch == message.epoch {
            // Crossing handshakes, or the answer to ours: both nonces are known, no reply is needed.
            guard answersNothing || KeyBytes.constantTimeEqual(message.echo, pending.nonce) else { throw .replayedHandshake }
            let next = completingResync(epoch: pending.epoch, mine: pending.nonce, peer: message.nonce, now: now)
            return OpenResult(session: next, opened: .resync(ResyncEvent(epoch: pending.epoch, outcome: .completed, reply: nil)))
        }
        // An answer to a handshake this side does not have pending cannot be genuine and current.
        guard answersNothing else { throw .replayedHandshake }
        let mine = Self.nonce(using: &rng)
        let next = completingResync(epoch: message.epoch, mine: mine, peer: message.nonce, now: now)
        let reply = Handshake(epoch: message.epoch, nonce: mine, echo: message.nonce).sealed(with: handshakeKey(role))
        return OpenResult(session: next, opened: .resync(ResyncEvent(epoch: message.epoch, outcome: .completed, reply: reply)))
    }

    private func completingResync(epoch: UInt32, mine: [UInt8], peer: [UInt8], now: Int64) -> Session {
        let (nonceA, nonceB) = role == .a ? (mine, peer) : (peer, mine)
        let root = KDF.key(pairingSecret, .resyncRoot, epoch.bigEndianBytes, nonceA, nonceB)
        var next = rekeyed(epoch: epoch, root: root, now: now)
        next.resync = ResyncState(pending: nil, last: .init(epoch: epoch, mine: mine, peer: peer))
        return next
    }

    static func nonce(using rng: inout some RandomNumberGenerator) -> [UInt8] {
        (rng.next() as UInt64).bigEndianBytes + (rng.next() as UInt64).bigEndianBytes
    }
}
