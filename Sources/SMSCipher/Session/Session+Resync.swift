public import struct Foundation.Date

extension Session {
    /// Starts a resynchronisation over SMS, or repeats the one already pending.
    ///
    /// A request from the peer waiting for the operator (``resyncRequest``) stays as it is: front
    /// ends ask the operator to accept or reject it instead of starting their own.
    /// - Parameter restart: Abandon a pending handshake and start a new one at the next epoch, for
    ///   a handshake whose answers were lost (the peer answers each handshake at most twice).
    /// - Parameter floor: An epoch the new handshake must be above besides this session's own (a
    ///   local choice §6.3 allows: any epoch above the peer's is accepted), for a store restored
    ///   from a backup whose replaced store went further (``highestEpoch``).
    /// - Returns: The state to persist (it remembers the pending handshake) and the SMS to send.
    ///   Calling it again while the handshake is pending returns the same SMS, for retries.
    public func startingResync(
        restart: Bool = false, above floor: UInt32 = 0, using rng: inout some RandomNumberGenerator
    ) -> (session: Session, message: String) {
        if let pending = resync.pending, !restart {
            return (self, Handshake(epoch: pending.epoch, nonce: pending.nonce, echo: Handshake.zeroNonce).sealed(with: handshakeKey(role)))
        }
        var next = self
        let after = max(epoch, resync.pending?.epoch ?? 0, floor)
        let pending = ResyncState.Pending(epoch: after &+ 1, nonce: Self.nonce(using: &rng))
        next.resync.pending = pending
        let message = Handshake(epoch: pending.epoch, nonce: pending.nonce, echo: Handshake.zeroNonce).sealed(with: handshakeKey(role))
        return (next, message)
    }

    /// The highest epoch this session knows of: its own, its pending handshake's and the peer's
    /// request's. A handshake above it is new to the peer whatever this side did since.
    public var highestEpoch: UInt32 {
        max(epoch, resync.pending?.epoch ?? 0, resync.requested?.epoch ?? 0)
    }

    /// The handshake SMS to send again while a resync is pending.
    public var pendingResyncMessage: String? {
        resync.pending.map {
            Handshake(epoch: $0.epoch, nonce: $0.nonce, echo: Handshake.zeroNonce).sealed(with: handshakeKey(role))
        }
    }

    /// The confirmation code of the pending handshake: the peer's operator sees the same six digits
    /// with the request (``ResyncRequest/code``).
    public var pendingResyncCode: String? {
        resync.pending.map { resyncCode(epoch: $0.epoch, initiatorNonce: $0.nonce) }
    }

    /// Completes the resync the peer asked for: new chains from both nonces, and the answer the
    /// peer needs to complete too.
    ///
    /// - Returns: The state to persist and the event (``ResyncEvent/Outcome/completed``) whose
    ///   ``ResyncEvent/reply`` is the SMS to send back.
    /// - Throws: ``CipherError/noResyncRequest`` when no request waits.
    public func acceptingResync(now: Date, using rng: inout some RandomNumberGenerator) throws(CipherError) -> OpenResult {
        guard let requested = resync.requested else { throw .noResyncRequest }
        let mine = Self.nonce(using: &rng)
        let next = completingResync(epoch: requested.epoch, mine: mine, peer: requested.nonce, now: Self.unixTime(now))
        let reply = Handshake(epoch: requested.epoch, nonce: mine, echo: requested.nonce).sealed(with: handshakeKey(role))
        return OpenResult(session: next, opened: .resync(ResyncEvent(epoch: requested.epoch, outcome: .completed, reply: reply)))
    }

    /// Drops the peer's resync request unanswered; nothing else changes.
    /// - Throws: ``CipherError/noResyncRequest`` when no request waits.
    public func rejectingResync() throws(CipherError) -> Session {
        guard resync.requested != nil else { throw .noResyncRequest }
        var next = self
        next.resync.requested = nil
        return next
    }

    func handshakeKey(_ role: Role) -> KeyBytes {
        KDF.key(pairingSecret, role == .a ? .handshakeA : .handshakeB)
    }

    func openHandshake(_ envelope: Envelope, bodyDigest: [UInt8]) -> Handshake? {
        Handshake.open(envelope, bodyDigest: bodyDigest, with: handshakeKey(role.peer))
    }

    /// Six digits as "123 456" that name one resync request on both sides (§6.3).
    func resyncCode(epoch: UInt32, initiatorNonce: [UInt8]) -> String {
        Self.sixDigits(KDF.mac(pairingSecret.bytes, .resyncCode, epoch.bigEndianBytes, initiatorNonce))
    }

    /// The receive rules of §6.3. A peer's new handshake is only kept: completing it is the
    /// operator's decision (``acceptingResync(now:using:)``).
    func handleHandshake(
        _ message: Handshake, now: Int64, using rng: inout some RandomNumberGenerator
    ) throws(CipherError) -> OpenResult {
        let answersNothing = KeyBytes.constantTimeEqual(message.echo, Handshake.zeroNonce)
        if message.epoch < epoch { throw .replayedHandshake }
        if message.epoch == epoch { return try handleRepeat(message, answersNothing: answersNothing) }
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
        if let requested = resync.requested {
            if requested.epoch > message.epoch {
                return OpenResult(session: self, opened: .resync(ResyncEvent(epoch: message.epoch, outcome: .superseded, reply: nil)))
            }
            if requested.epoch == message.epoch && KeyBytes.constantTimeEqual(requested.nonce, message.nonce) {
                throw .duplicate
            }
        }
        var next = self
        next.resync.requested = .init(epoch: message.epoch, nonce: message.nonce)
        return OpenResult(session: next, opened: .resync(ResyncEvent(epoch: message.epoch, outcome: .requested, reply: nil)))
    }

    /// A handshake of the current epoch: a copy of the one that completed it, or a conflicting one.
    private func handleRepeat(_ message: Handshake, answersNothing: Bool) throws(CipherError) -> OpenResult {
        guard let last = resync.last, last.epoch == epoch else { throw .replayedHandshake }
        let answersUs = KeyBytes.constantTimeEqual(message.echo, last.mine)
        guard KeyBytes.constantTimeEqual(last.peer, message.nonce) else {
            // An answer to our handshake that is not the one we completed with: two parties hold
            // the pairing secret (one of them with a copied state).
            if answersUs { throw .conflictingHandshake }
            throw .replayedHandshake
        }
        // The peer still lacks our nonce (its copy answers nothing of ours): answer once more, since
        // our answer may be lost; every later copy is a duplicate, so replays cost at most one SMS.
        guard !answersUs, !last.repeatAnswered else { throw .duplicate }
        var next = self
        next.resync.last?.repeatAnswered = true
        let reply = Handshake(epoch: epoch, nonce: last.mine, echo: last.peer).sealed(with: handshakeKey(role))
        return OpenResult(session: next, opened: .resync(ResyncEvent(epoch: epoch, outcome: .repeated, reply: reply)))
    }

    private func completingResync(epoch: UInt32, mine: [UInt8], peer: [UInt8], now: Int64) -> Session {
        let (nonceA, nonceB) = role == .a ? (mine, peer) : (peer, mine)
        let root = KDF.key(pairingSecret, .resyncRoot, epoch.bigEndianBytes, nonceA, nonceB)
        var next = rekeyed(epoch: epoch, root: root, now: now)
        // A request for this epoch or an older one is settled by the new chains.
        let requested = resync.requested.flatMap { $0.epoch > epoch ? $0 : nil }
        next.resync = ResyncState(
            pending: nil, requested: requested,
            last: .init(epoch: epoch, mine: mine, peer: peer, completedAt: now, repeatAnswered: false))
        return next
    }

    static func nonce(using rng: inout some RandomNumberGenerator) -> [UInt8] {
        (rng.next() as UInt64).bigEndianBytes + (rng.next() as UInt64).bigEndianBytes
    }
}
