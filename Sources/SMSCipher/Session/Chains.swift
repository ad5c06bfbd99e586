/// A message key kept for a position that was skipped, so a late arrival still opens.
struct SkippedKey: Codable, Sendable, Equatable {
    var position: UInt32
    var key: KeyBytes
    /// Unix seconds when the key was stored; keys older than ``ProtocolConstants/maxSkippedKeyAge`` are deleted.
    var storedAt: Int64
}

/// The fresh values this side sent, so the peer may key a message with any of the last 64.
///
/// Reference r = 0 means "nothing received yet" and stands for the epoch's initial value;
/// r ≥ 1 means the message this side sent at position r − 1.
struct FreshTable: Codable, Sendable, Equatable {
    var initial: UInt64
    /// Indexed by position modulo ``ProtocolConstants/freshHistory``.
    var recent: [UInt64]
    /// Messages sent so far in this epoch: the next send position.
    var count: UInt32

    init(initial: UInt64) {
        self.initial = initial
        self.recent = [UInt64](repeating: 0, count: ProtocolConstants.freshHistory)
        self.count = 0
    }

    /// The reference whose low 6 bits are `low`, among the 64 the peer may use now, and its value.
    func resolve(low: UInt8) -> (reference: UInt32, value: UInt64)? {
        let history = UInt32(ProtocolConstants.freshHistory)
        let lowest = count >= history - 1 ? count - (history - 1) : 0
        let offset = (UInt32(low) &- lowest) % history
        let reference = lowest + offset
        guard reference <= count else { return nil }
        let value = reference == 0 ? initial : recent[Int((reference - 1) % history)]
        return (reference, value)
    }

    mutating func record(_ value: UInt64) {
        recent[Int(count % UInt32(ProtocolConstants.freshHistory))] = value
        count += 1
    }
}

/// The sending half of a session: the chain key of the next position and the fresh values sent.
struct SendChain: Codable, Sendable, Equatable {
    var chainKey: KeyBytes
    var fresh: FreshTable
    var position: UInt32 { fresh.count }
}

/// The receiving half: the chain key of the next expected position and skipped keys.
struct ReceiveChain: Codable, Sendable, Equatable {
    var chainKey: KeyBytes
    var position: UInt32
    var skipped: [SkippedKey]

    /// Message key of the chain key's position and the chain key of the next one.
    static func step(_ chainKey: KeyBytes) -> (messageKey: KeyBytes, next: KeyBytes) {
        let hmac = HMACKey(chainKey)
        return (KeyBytes(hmac.mac(KDF.Label.messageKey.bytes)), KeyBytes(hmac.mac(KDF.Label.chainKey.bytes)))
    }

    /// Drops keys older than the age limit and, past the count limit, the lowest positions.
    mutating func prune(now: Int64) {
        skipped.removeAll { now - $0.storedAt > ProtocolConstants.maxSkippedKeyAge }
        if skipped.count > ProtocolConstants.maxSkippedKeys {
            skipped.sort { $0.position < $1.position }
            skipped.removeFirst(skipped.count - ProtocolConstants.maxSkippedKeys)
        }
    }
}

/// The receive chain of the previous epoch, kept for a grace period after a resync.
struct RetiredChain: Codable, Sendable, Equatable {
    var receive: ReceiveChain
    /// This side's fresh values of that epoch, which the peer's late messages reference.
    var fresh: FreshTable
    var epoch: UInt32
    var expiresAt: Int64
}
