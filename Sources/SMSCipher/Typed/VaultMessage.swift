/// The credential vault's typed messages, kinds 3 to 9 (docs/PROTOCOL.md §13): their framing.
///
/// Four kinds carry a record of bytes in parts (share, update, change, re-share report); three are
/// notices that name a share and nothing else (revoke, expired, removed). Every body begins with
/// the share's identifier, five septets (32 bits, chosen at random by the item's owner), so a part
/// names its share and parts of several shares may interleave. What a record holds is the
/// application's (Operations' `ShareRecord`); here it is bytes, packed seven bits to a septet.
public enum VaultMessage: Sendable, Hashable {
    /// One part of a record.
    case part(VaultPart)
    /// A notice about a share.
    case notice(VaultNotice)

    /// The kinds of the vault's messages.
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
        /// The owner (or a level-1 holder re-sharing) sends an item with its permission and expiry.
        case share = 3
        /// The owner pushes a new password to a holder.
        case update = 4
        /// A holder with the change permission sends a new password to the owner.
        case change = 5
        /// The owner (or the holder who re-shared) takes the item back.
        case revoke = 6
        /// A level-1 holder tells the owner it shared the item onward.
        case reshared = 7
        /// A holder's gateway deleted its copy at expiry.
        case expired = 8
        /// A holder's gateway deleted its copy after a revocation.
        case removed = 9

        /// Whether the kind carries a record in parts (else it is a notice).
        public var carriesRecord: Bool { [.share, .update, .change, .reshared].contains(self) }
    }

    /// The vault message a typed payload carries; nil for another kind or a body that breaks the
    /// kind's rules (the receiver keeps and reports it as a malformed typed message, §3.4).
    public init?(_ payload: TypedPayload) {
        guard let kind = Kind(rawValue: payload.kind.rawValue) else { return nil }
        if kind.carriesRecord {
            guard let part = VaultPart(kind: kind, body: payload.body) else { return nil }
            self = .part(part)
        } else {
            guard payload.body.count == SeptetNumber.u32Septets, let share = SeptetNumber.u32(payload.body[...]) else { return nil }
            self = .notice(VaultNotice(kind: kind, share: share))
        }
    }

    /// The typed payload that carries this message.
    public var payload: TypedPayload {
        switch self {
        case .part(let part): part.payload
        case .notice(let notice): notice.payload
        }
    }
}

/// A notice: revoke, expired or removed, naming a share.
public struct VaultNotice: Sendable, Hashable {
    public let kind: VaultMessage.Kind
    public let share: UInt32

    public init(kind: VaultMessage.Kind, share: UInt32) {
        precondition(!kind.carriesRecord, "a notice is a revoke, expired or removed message")
        self.kind = kind
        self.share = share
    }

    public var payload: TypedPayload {
        TypedPayload(
            kind: TypedPayload.Kind(rawValue: kind.rawValue), body: SeptetNumber.septets(UInt64(share), count: SeptetNumber.u32Septets))
    }
}
