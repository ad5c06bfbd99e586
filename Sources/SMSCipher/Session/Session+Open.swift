import GSM7

public import struct Foundation.Date

/// What opening a ciphertext produced.
public enum Opened: Sendable, Equatable {
    /// A text message from the peer.
    case message(ReceivedMessage)
    /// A resynchronisation message; see ``ResyncEvent``.
    case resync(ResyncEvent)
    /// A typed payload from the peer (docs/PROTOCOL.md §3.4), of a kind this version knows or not.
    case typed(ReceivedTyped)
}

/// A verified text and where it sat in the peer's chain.
public struct ReceivedMessage: Sendable, Equatable {
    public let text: String
    public let position: UInt32
    public let epoch: UInt32
    /// Whether the message arrived after a position that was already received (a late arrival).
    public let wasLate: Bool
}

/// A verified typed payload and where it sat in the peer's chain.
public struct ReceivedTyped: Sendable, Equatable {
    public let payload: TypedPayload
    public let position: UInt32
    public let epoch: UInt32
    /// Whether the message arrived after a position that was already received (a late arrival).
    public let wasLate: Bool
}

/// The result of opening: the state to persist and what the message was.
public struct OpenResult: Sendable {
    public let session: Session
    public let opened: Opened
}

extension Session {
    /// Verifies and decrypts one SMS.
    ///
    /// Tries the positions of the window, the skipped keys, the retired chain of the previous epoch and
    /// the peer's handshake key; nothing changes unless one of them verifies the whole message.
    /// - Parameters:
    ///   - ciphertext: The 160 characters as received; whitespace anywhere is ignored.
    ///   - now: The current time, used to age skipped keys and the retired chain.
    ///   - rng: Randomness for a resync answer, if the message is a handshake.
    public func opening(
        _ ciphertext: String, now: Date, using rng: inout some RandomNumberGenerator
    ) throws(CipherError) -> OpenResult {
        try opening(ReceivedCiphertext(ciphertext), now: now, using: &rng)
    }

    /// Verifies and decrypts one SMS read before (``ReceivedCiphertext``), as
    /// ``opening(_:now:using:)`` does with its text.
    ///
    /// - Parameter lookingAhead: Whether, when no key verifies it, to look 2,048 positions past
    ///   the window to report ``CipherError/beyondWindow(ahead:)`` instead of
    ///   ``CipherError/notAuthentic`` (§5.3, rule 6). That look accepts nothing and costs some 30
    ///   times the rest of a failed try; the key search, which asks only whose keys accept a
    ///   message, leaves it out.
    public func opening(
        _ received: ReceivedCiphertext, now: Date, lookingAhead: Bool = true, using rng: inout some RandomNumberGenerator
    ) throws(CipherError) -> OpenResult {
        let (envelope, digest, bodyDigest) = (received.envelope, received.digest, received.bodyDigest)
        guard !recentDigests.contains(digest) else { throw .duplicate }
        let time = Self.unixTime(now)

        if let result = openData(envelope, bodyDigest: bodyDigest, now: time) {
            var next = result
            next.recentDigests.append(digest)
            if next.recentDigests.count > ProtocolConstants.recentDigests { next.recentDigests.removeFirst() }
            return OpenResult(session: next.session, opened: next.opened)
        }
        if let payload = openHandshake(envelope, bodyDigest: bodyDigest) {
            return try handleHandshake(payload, now: time, using: &rng)
        }
        if lookingAhead, let ahead = lookBeyondWindow(envelope, bodyDigest: bodyDigest) {
            throw .beyondWindow(ahead: ahead)
        }
        throw .notAuthentic
    }

    private struct Accepted {
        var session: Session
        var opened: Opened
        var recentDigests: [UInt64] {
            get { session.recentDigests }
            set { session.recentDigests = newValue }
        }
    }

    private func openData(_ envelope: Envelope, bodyDigest: [UInt8], now: Int64) -> Accepted? {
        if let accepted = open(envelope, bodyDigest: bodyDigest, chain: receive, fresh: send.fresh, epoch: epoch, now: now) {
            var next = self
            next.receive = accepted.chain
            next.receive.prune(now: now)
            next.send.fresh.retain(from: next.receive.lowestReference)
            if accepted.position + 1 > peerReference {
                next.peerReference = accepted.position + 1
                next.peerFresh = accepted.payload.fresh
            }
            next.pruneRetired(now: now)
            return Accepted(session: next, opened: accepted.opened(epoch: epoch))
        }
        if let retired, retired.expiresAt >= now,
            let accepted = open(
                envelope, bodyDigest: bodyDigest, chain: retired.receive, fresh: retired.fresh, epoch: retired.epoch, now: now)
        {
            var next = self
            next.retired?.receive = accepted.chain
            next.retired?.receive.prune(now: now)
            if let lowest = next.retired?.receive.lowestReference { next.retired?.fresh.retain(from: lowest) }
            return Accepted(session: next, opened: accepted.opened(epoch: retired.epoch))
        }
        return nil
    }

    private mutating func pruneRetired(now: Int64) {
        if let retired, retired.expiresAt < now { self.retired = nil }
    }

    private struct ChainAcceptance {
        var chain: ReceiveChain
        var position: UInt32
        var payload: Payload
        var content: Plaintext
        var wasLate: Bool
        func opened(epoch: UInt32) -> Opened {
            switch content {
            case .text(let text):
                .message(ReceivedMessage(text: text, position: position, epoch: epoch, wasLate: wasLate))
            case .typed(let typed):
                .typed(ReceivedTyped(payload: typed, position: position, epoch: epoch, wasLate: wasLate))
            }
        }
    }

    /// Tries the window and the skipped keys of one receive chain.
    private func open(
        _ envelope: Envelope, bodyDigest: [UInt8], chain: ReceiveChain, fresh: FreshTable, epoch: UInt32, now: Int64
    ) -> ChainAcceptance? {
        var chainKey = chain.chainKey
        var passed: [KeyBytes] = []
        passed.reserveCapacity(ProtocolConstants.window)
        for offset in 0..<UInt32(ProtocolConstants.window) {
            let (position, overflow) = chain.position.addingReportingOverflow(offset)
            if overflow { break }
            let (messageKey, next) = ReceiveChain.step(chainKey)
            let keys = MessageKeys(messageKey: messageKey)
            if keys.identifier(bodyDigest: bodyDigest) == envelope.identifier,
                let (payload, content, reference) = Self.verify(
                    envelope, keys: keys, position: position, fresh: fresh, floor: chain.referenceFloor)
            {
                var accepted = chain
                for (index, key) in passed.enumerated() {
                    accepted.skipped.append(
                        SkippedKey(
                            position: chain.position + UInt32(index), key: key, storedAt: now, referenceFloor: chain.referenceFloor))
                }
                accepted.chainKey = next
                accepted.position = position + 1
                accepted.referenceFloor = max(chain.referenceFloor, reference)
                return ChainAcceptance(chain: accepted, position: position, payload: payload, content: content, wasLate: false)
            }
            passed.append(messageKey)
            chainKey = next
        }
        for (index, skipped) in chain.skipped.enumerated() {
            let keys = MessageKeys(messageKey: skipped.key)
            if keys.identifier(bodyDigest: bodyDigest) == envelope.identifier,
                let (payload, content, _) = Self.verify(
                    envelope, keys: keys, position: skipped.position, fresh: fresh, floor: skipped.referenceFloor)
            {
                var accepted = chain
                accepted.skipped.remove(at: index)
                return ChainAcceptance(chain: accepted, position: skipped.position, payload: payload, content: content, wasLate: true)
            }
        }
        return nil
    }

    /// Full verification of a data message under one message key, for each reference the 6 bits
    /// may stand for (at most two, §4.3); nil unless one passes every check.
    ///
    /// - Parameter floor: The lowest reference the message can carry.
    static func verify(
        _ envelope: Envelope, keys: MessageKeys, position: UInt32, fresh: FreshTable, floor: UInt32
    ) -> (Payload, Plaintext, reference: UInt32)? {
        let low = envelope.reference ^ keys.referencePad(tag: envelope.tag)
        for (reference, value) in fresh.candidates(low: low, floor: floor) {
            if let (payload, content) = verify(envelope, keys: keys, position: position, reference: reference, fresh: value) {
                return (payload, content, reference)
            }
        }
        return nil
    }

    /// Full verification under one message key and one resolved reference.
    private static func verify(
        _ envelope: Envelope, keys: MessageKeys, position: UInt32, reference: UInt32, fresh value: UInt64
    ) -> (Payload, Plaintext)? {
        let payloadKey = keys.payloadKey(reference: reference, fresh: value)
        let plain = MessageKeys.xor(envelope.body, MessageKeys.pad(payloadKey: payloadKey, tag: envelope.tag))
        guard let (payload, padding) = Payload.decode(plain) else { return nil }
        let digest = tagDigest(payloadKey, position: position, reference: reference, payload: payload)
        let expectedPadding = MessageKeys.padding(tagDigest: digest, bits: Payload.paddingBits(forSeptets: payload.septets.count))
        let tagMatches = MessageKeys.tag(fromDigest: digest) ^ envelope.tag == 0
        let paddingMatches = KeyBytes.constantTimeEqual(padding, expectedPadding)
        guard tagMatches && paddingMatches, let content = content(of: payload.septets) else { return nil }
        return (payload, content)
    }

    /// What an authentic text slot holds: a typed payload when it begins with the marker, else a
    /// text; nil when it is neither (a marker without a kind, septets that are not GSM-7), which
    /// fails verification as a version-1 receiver fails a typed payload.
    private static func content(of septets: [UInt8]) -> Plaintext? {
        if TypedPayload.isMarked(septets) { return TypedPayload.parse(septets: septets).map(Plaintext.typed) }
        return (try? GSM7.text(from: septets)).map(Plaintext.text)
    }

    /// Looks past the window, without accepting anything, to tell a far-ahead message from a forgery.
    private func lookBeyondWindow(_ envelope: Envelope, bodyDigest: [UInt8]) -> Int? {
        var chainKey = receive.chainKey
        for offset in 0..<(ProtocolConstants.window + ProtocolConstants.diagnosticReach) {
            let (messageKey, next) = ReceiveChain.step(chainKey)
            chainKey = next
            guard offset >= ProtocolConstants.window else { continue }
            let keys = MessageKeys(messageKey: messageKey)
            let (position, overflow) = receive.position.addingReportingOverflow(UInt32(offset))
            if overflow { return nil }
            if keys.identifier(bodyDigest: bodyDigest) == envelope.identifier,
                Self.verify(envelope, keys: keys, position: position, fresh: send.fresh, floor: receive.referenceFloor) != nil
            {
                return offset
            }
        }
        return nil
    }
}
