public import struct Foundation.Date

/// Resynchronisation bookkeeping of a session (docs/PROTOCOL.md §6.3).
struct ResyncState: Sendable, Equatable {
    /// A handshake this side started and the peer has not answered.
    struct Pending: Codable, Sendable, Equatable {
        var epoch: UInt32
        var nonce: [UInt8]
    }

    /// A handshake the peer started, verified and kept until this side's operator accepts it.
    struct Requested: Codable, Sendable, Equatable {
        var epoch: UInt32
        var nonce: [UInt8]
    }

    /// The last completed handshake.
    struct Completed: Sendable, Equatable {
        var epoch: UInt32
        var mine: [UInt8]
        var peer: [UInt8]
        /// When it completed (Unix seconds); nil in states written by version 1.
        var completedAt: Int64?
        /// Whether a copy of the peer's handshake arriving after completion was answered once already:
        /// a second copy gets no answer, so replays cannot make this side send without bound.
        var repeatAnswered: Bool
    }

    var pending: Pending?
    var requested: Requested?
    var last: Completed?

    init(pending: Pending? = nil, requested: Requested? = nil, last: Completed? = nil) {
        self.pending = pending
        self.requested = requested
        self.last = last
    }
}

/// A resync the peer asked for, waiting for this side's operator (`smsgw resync NAME --accept`).
public struct ResyncRequest: Sendable, Equatable {
    /// The epoch the peer proposes.
    public let epoch: UInt32
    /// Six digits, as "123 456", that the peer's side shows too: read them to each other to confirm
    /// the request really comes from the peer.
    public let code: String
}

/// The last resync that put new chains in force.
public struct CompletedResync: Sendable, Equatable {
    public let epoch: UInt32
    /// When it completed; nil for a resync recorded by an earlier version of smsgw.
    public let completedAt: Date?
}

// The JSON form, which earlier versions stored: fields added in version 2 are optional.
extension ResyncState: Codable {
    private enum CodingKeys: String, CodingKey { case pending, requested, last }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        pending = try container.decodeIfPresent(Pending.self, forKey: .pending)
        requested = try container.decodeIfPresent(Requested.self, forKey: .requested)
        last = try container.decodeIfPresent(Completed.self, forKey: .last)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(pending, forKey: .pending)
        try container.encodeIfPresent(requested, forKey: .requested)
        try container.encodeIfPresent(last, forKey: .last)
    }
}

extension ResyncState.Completed: Codable {
    private enum CodingKeys: String, CodingKey { case epoch, mine, peer, completedAt, repeatAnswered }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        epoch = try container.decode(UInt32.self, forKey: .epoch)
        mine = try container.decode([UInt8].self, forKey: .mine)
        peer = try container.decode([UInt8].self, forKey: .peer)
        completedAt = try container.decodeIfPresent(Int64.self, forKey: .completedAt)
        repeatAnswered = try container.decodeIfPresent(Bool.self, forKey: .repeatAnswered) ?? false
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(epoch, forKey: .epoch)
        try container.encode(mine, forKey: .mine)
        try container.encode(peer, forKey: .peer)
        try container.encodeIfPresent(completedAt, forKey: .completedAt)
        try container.encode(repeatAnswered, forKey: .repeatAnswered)
    }
}
