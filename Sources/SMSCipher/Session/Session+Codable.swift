extension Session: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, role, pairingSecret, epoch, send, receive, peerReference, peerFresh
        case recentDigests, retired, resync
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard (1...Self.currentVersion).contains(version) else { throw CipherError.unsupportedStateVersion(version) }
        role = try container.decode(Role.self, forKey: .role)
        pairingSecret = try container.decode(KeyBytes.self, forKey: .pairingSecret)
        epoch = try container.decode(UInt32.self, forKey: .epoch)
        send = try container.decode(SendChain.self, forKey: .send)
        receive = try container.decode(ReceiveChain.self, forKey: .receive)
        peerReference = try container.decode(UInt32.self, forKey: .peerReference)
        peerFresh = try container.decode(UInt64.self, forKey: .peerFresh)
        recentDigests = try container.decode([UInt64].self, forKey: .recentDigests)
        retired = try container.decodeIfPresent(RetiredChain.self, forKey: .retired)
        resync = try container.decode(ResyncState.self, forKey: .resync)
        // The limits the binary form enforces, so a state read from JSON can be stored and read again
        // (the fresh tables check their own consistency as they decode).
        guard receive.skipped.count <= ProtocolConstants.maxSkippedKeys,
            recentDigests.count <= ProtocolConstants.recentDigests,
            retired.map({ $0.receive.skipped.count <= ProtocolConstants.maxSkippedKeys }) ?? true,
            resync.pending.map({ $0.nonce.count == Handshake.nonceSize }) ?? true,
            resync.requested.map({ $0.nonce.count == Handshake.nonceSize }) ?? true,
            resync.last.map({ $0.mine.count == Handshake.nonceSize && $0.peer.count == Handshake.nonceSize }) ?? true
        else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "inconsistent session state"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.currentVersion, forKey: .version)
        try container.encode(role, forKey: .role)
        try container.encode(pairingSecret, forKey: .pairingSecret)
        try container.encode(epoch, forKey: .epoch)
        try container.encode(send, forKey: .send)
        try container.encode(receive, forKey: .receive)
        try container.encode(peerReference, forKey: .peerReference)
        try container.encode(peerFresh, forKey: .peerFresh)
        try container.encode(recentDigests, forKey: .recentDigests)
        try container.encodeIfPresent(retired, forKey: .retired)
        try container.encode(resync, forKey: .resync)
    }
}
