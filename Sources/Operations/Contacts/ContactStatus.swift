public import Foundation
public import SMSCipher
public import Store

/// One contact as every front end shows it: `smsgw contact list` and `contact show`, the
/// `contacts` of `smsgw status`, and the daemon's status. Never keys or codes.
///
/// Its JSON is the one contact shape of docs/CLI.md: every key present, absent values `null`,
/// times in ISO 8601 (the encoder's date strategy).
public struct ContactStatus: Sendable, Equatable, Codable {
    public var name: String
    /// The main number, or nil for a copy-and-paste peer.
    public var number: String?
    /// Every number, the main one first (a peer gateway with several modems); SMS go to each in turn.
    public var numbers: [String]
    /// The modem pinned to send to this contact while it is ready; nil for any modem.
    public var modem: String?
    /// Whether ``modem`` names no modem the daemon drives (or last drove), so any modem sends.
    public var modemMissing: Bool
    /// `pending` until the peer's code is entered (again, during a manual re-pairing), then `paired`.
    public var pairing: PairingState
    /// True while a manual re-pairing is pending and the current session still works.
    public var rePairing: Bool
    /// The resync epoch (0 until the first resync); nil before pairing.
    public var epoch: UInt32?
    /// Messages sealed so far in this epoch; nil before pairing.
    public var sendPosition: UInt32?
    /// The next position expected from the peer in this epoch; nil before pairing.
    public var receivePosition: UInt32?
    public var sync: GatewayStatus.SyncState
    /// The last completed resync (its epoch and time); nil when none completed since pairing.
    public var lastResync: GatewayStatus.LastResync?
    /// Incoming ciphertexts kept to retry after the next resync.
    public var quarantined: Int
    public var lastSentAt: Date?
    public var lastReceivedAt: Date?
    /// The protocol version the peer speaks (docs/PROTOCOL.md §10): 2 reads long texts and typed messages.
    public var protocolVersion: Int
    /// Whether messages to and from the contact are acknowledged end to end (docs/PROTOCOL.md §9).
    public var acknowledgements: Bool
    /// When the contact's gateway last acknowledged one of this side's SMS; nil when never.
    public var lastAcknowledgedAt: Date?

    /// The contact with its session (nil before pairing or when it cannot be read) and sync state.
    public init(
        _ contact: Contact, session: Session?, sync: GatewayStatus.SyncState, lastResync: GatewayStatus.LastResync? = nil,
        quarantined: Int, modemMissing: Bool = false
    ) {
        name = contact.name
        number = contact.number?.e164
        numbers = contact.numbers.map(\.e164)
        modem = contact.modem
        self.modemMissing = modemMissing
        pairing = contact.pairingState
        rePairing = contact.pairingState == .pending && session != nil
        epoch = session?.epoch
        sendPosition = session?.sendPosition
        receivePosition = session?.receivePosition
        self.sync = sync
        self.lastResync = lastResync
        self.quarantined = quarantined
        lastSentAt = contact.lastSentAt
        lastReceivedAt = contact.lastReceivedAt
        protocolVersion = contact.protocolVersion
        acknowledgements = contact.acknowledgements
    }

    enum CodingKeys: String, CodingKey {
        case name, number, numbers, modem, modemMissing, pairing, rePairing, epoch, sendPosition, receivePosition, sync,
            lastResync, quarantined, lastSentAt, lastReceivedAt
        case protocolVersion = "protocol"
        case acknowledgements = "acks"
        case lastAcknowledgedAt
    }

    // Written by hand so that absent values are null, not missing: every object has every key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(number, forKey: .number)
        try container.encode(numbers, forKey: .numbers)
        try container.encode(modem, forKey: .modem)
        try container.encode(modemMissing, forKey: .modemMissing)
        try container.encode(pairing, forKey: .pairing)
        try container.encode(rePairing, forKey: .rePairing)
        try container.encode(epoch, forKey: .epoch)
        try container.encode(sendPosition, forKey: .sendPosition)
        try container.encode(receivePosition, forKey: .receivePosition)
        try container.encode(sync, forKey: .sync)
        try container.encode(lastResync, forKey: .lastResync)
        try container.encode(quarantined, forKey: .quarantined)
        try container.encode(lastSentAt, forKey: .lastSentAt)
        try container.encode(lastReceivedAt, forKey: .lastReceivedAt)
        try container.encode(protocolVersion, forKey: .protocolVersion)
        try container.encode(acknowledgements, forKey: .acknowledgements)
        try container.encode(lastAcknowledgedAt, forKey: .lastAcknowledgedAt)
    }
}
