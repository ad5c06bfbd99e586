import struct Foundation.Date

/// The key state of one contact: a value the caller persists after each successful operation.
///
/// Every operation (``sealing(_:using:)``, ``opening(_:now:using:)``, ``startingResync(using:)``)
/// returns a new `Session` and leaves `self` untouched, so "verify, then commit" is the only order
/// a caller can write. The state has a version number and a compact stored form
/// (``storedForm()``, ``init(stored:)``); see docs/PROTOCOL.md §5.
public struct Session: Sendable, Equatable {
    /// Version 2 added the peer's resync request kept for the operator, and when and how the last
    /// resync completed (docs/PROTOCOL.md §6.3); version 1 states still load.
    public static let currentVersion = 2

    /// Which side of the pairing this is; decided by the pairing codes.
    public enum Role: String, Codable, Sendable {
        case a = "A"
        case b = "B"
        var peer: Role { self == .a ? .b : .a }
    }

    public let role: Role
    var pairingSecret: KeyBytes
    /// The resync epoch the chains belong to; 0 after pairing.
    public internal(set) var epoch: UInt32
    var send: SendChain
    var receive: ReceiveChain
    /// Highest position received from the peer plus one; 0 when nothing was received in this epoch.
    var peerReference: UInt32
    /// The peer's fresh value at ``peerReference``, which keys every message this side sends.
    var peerFresh: UInt64
    /// First 8 bytes of SHA-256 of recently accepted ciphertexts, oldest first.
    var recentDigests: [UInt64]
    var retired: RetiredChain?
    var resync: ResyncState

    /// Next position this side will send at.
    public var sendPosition: UInt32 { send.position }
    /// Next position expected from the peer.
    public var receivePosition: UInt32 { receive.position }
    /// Message keys held for skipped positions.
    public var skippedKeyCount: Int { receive.skipped.count + (retired?.receive.skipped.count ?? 0) }
    /// Whether this side started a resync that the peer has not answered yet.
    public var isResyncPending: Bool { resync.pending != nil }
    /// The peer's resync handshake waiting for this side's operator, if any.
    public var resyncRequest: ResyncRequest? {
        resync.requested.map { ResyncRequest(epoch: $0.epoch, code: resyncCode(epoch: $0.epoch, initiatorNonce: $0.nonce)) }
    }
    /// The last completed resync, if any since pairing.
    public var lastResync: CompletedResync? {
        resync.last.map { last in
            CompletedResync(epoch: last.epoch, completedAt: last.completedAt.map { Date(timeIntervalSince1970: Double($0)) })
        }
    }
    /// Whether a previous epoch's receive chain is still accepted.
    public var hasRetiredChain: Bool { retired != nil }

    /// The state right after pairing or a completed resync, from that epoch's root key.
    init(role: Role, pairingSecret: KeyBytes, epoch: UInt32, root: KeyBytes) {
        let chainAB = KDF.key(root, .chainAB)
        let chainBA = KDF.key(root, .chainBA)
        let freshA = Self.uint64(KDF.mac(root.bytes, .freshA))
        let freshB = Self.uint64(KDF.mac(root.bytes, .freshB))
        self.role = role
        self.pairingSecret = pairingSecret
        self.epoch = epoch
        switch role {
        case .a:
            send = SendChain(chainKey: chainAB, fresh: FreshTable(initial: freshA))
            receive = ReceiveChain(chainKey: chainBA, position: 0, skipped: [])
            peerFresh = freshB
        case .b:
            send = SendChain(chainKey: chainBA, fresh: FreshTable(initial: freshB))
            receive = ReceiveChain(chainKey: chainAB, position: 0, skipped: [])
            peerFresh = freshA
        }
        peerReference = 0
        recentDigests = []
        retired = nil
        resync = ResyncState()
    }

    /// Replaces the chains by those of a new epoch, keeping the current receive chain for late messages.
    func rekeyed(epoch: UInt32, root: KeyBytes, now: Int64) -> Session {
        var next = Session(role: role, pairingSecret: pairingSecret, epoch: epoch, root: root)
        next.retired = RetiredChain(
            receive: receive, fresh: send.fresh, epoch: self.epoch,
            expiresAt: now + ProtocolConstants.retiredChainGrace
        )
        next.recentDigests = recentDigests
        next.resync = resync
        return next
    }

    static func uint64(_ bytes: some Collection<UInt8>) -> UInt64 {
        bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    static func unixTime(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }
}
