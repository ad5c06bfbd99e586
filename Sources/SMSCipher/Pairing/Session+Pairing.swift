public import struct Foundation.Date

extension Session {
    /// The session two people share once each entered the other's code.
    ///
    /// The smaller code's side takes role A. Both sides compute the same secret and safety code.
    /// - Parameters:
    ///   - mine: The code this side showed.
    ///   - peer: The code the other person read out.
    public static func paired(mine: PairingCode, peer: PairingCode) throws(CipherError) -> Session {
        guard mine != peer else {
            throw .invalidPairing("That is this side's own pairing code; enter the code your contact reads to you.")
        }
        let role: Role = mine < peer ? .a : .b
        let (codeA, codeB) = role == .a ? (mine, peer) : (peer, mine)
        let secret = KeyBytes(KDF.mac(codeA.bytes + codeB.bytes, .pairing))
        return Session(role: role, pairingSecret: secret, epoch: 0, root: KDF.key(secret, .root))
    }

    /// A new pairing (manual resync) that keeps this session's receive chain for the grace period.
    public func repaired(mine: PairingCode, peer: PairingCode, now: Date) throws(CipherError) -> Session {
        let fresh = try Session.paired(mine: mine, peer: peer)
        var next = fresh
        next.retired = RetiredChain(
            receive: receive, fresh: send.fresh, epoch: epoch,
            expiresAt: Self.unixTime(now) + ProtocolConstants.retiredChainGrace)
        next.recentDigests = recentDigests
        return next
    }

    /// Six digits both people read to each other to confirm the pairing matches, as "123 456".
    public var safetyCode: String {
        Self.sixDigits(KDF.mac(pairingSecret.bytes, .safety))
    }

    /// u32(first 4 bytes of `mac`) mod 10^6, zero-padded and grouped as "123 456".
    static func sixDigits(_ mac: [UInt8]) -> String {
        let value = Self.uint64(mac.prefix(4)) % 1_000_000
        let digits = String(value)
        let padded = String(repeating: "0", count: 6 - digits.count) + digits
        return padded.prefix(3) + " " + padded.suffix(3)
    }
}
