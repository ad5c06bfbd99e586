/// A message key kept for a position that was skipped, so a late arrival still opens.
struct SkippedKey: Sendable, Equatable {
    var position: UInt32
    var key: KeyBytes
    /// Unix seconds when the key was stored; keys older than ``ProtocolConstants/maxSkippedKeyAge`` are deleted.
    var storedAt: Int64
    /// The lowest reference the late message can carry: the chain's ``ReceiveChain/referenceFloor``
    /// when the key was skipped (the peer's references never decrease along its chain).
    var referenceFloor: UInt32 = 0
}

/// The fresh values this side sent, so the peer's messages can be keyed with the one they reference.
///
/// Reference r = 0 means "nothing received yet" and stands for the epoch's initial value;
/// r ≥ 1 means the message this side sent at position r − 1. The table keeps every value from the
/// lowest reference the peer may still use (``retain(from:)``) up to the newest, at most
/// ``ProtocolConstants/freshRetention`` of them; the initial value is always kept.
struct FreshTable: Sendable, Equatable {
    var initial: UInt64
    /// The reference of `values[0]` (at least 1).
    var first: UInt32
    /// The fresh values of references `first … count`.
    var values: [UInt64]
    /// Messages sent so far in this epoch: the next send position.
    var count: UInt32

    init(initial: UInt64) {
        self.initial = initial
        self.first = 1
        self.values = []
        self.count = 0
    }

    /// The fresh value of `reference`, if it is kept.
    func value(of reference: UInt32) -> UInt64? {
        if reference == 0 { return initial }
        let index = Int(reference) - Int(first)
        guard reference <= count, index >= 0, index < values.count else { return nil }
        return values[index]
    }

    /// The references, at most two, whose low 6 bits are `low` and that the peer may have used: the
    /// one in `floor … floor + 63` (the peer has not heard from this side lately) and the one among
    /// the newest 64 (it has); only those ≤ ``count`` whose values are kept (docs/PROTOCOL.md §4.3).
    func candidates(low: UInt8, floor: UInt32) -> [(reference: UInt32, value: UInt64)] {
        let history = UInt32(ProtocolConstants.referenceSpan)
        let newest = count >= history - 1 ? count - (history - 1) : 0
        var found: [(reference: UInt32, value: UInt64)] = []
        for lowest in [floor, newest] {
            let (reference, overflow) = lowest.addingReportingOverflow((UInt32(low) &- lowest) % history)
            guard !overflow, reference <= count, !found.contains(where: { $0.reference == reference }),
                let value = value(of: reference)
            else { continue }
            found.append((reference, value))
        }
        return found
    }

    mutating func record(_ value: UInt64) {
        values.append(value)
        count += 1
        retain(from: first)
    }

    /// Forgets the values of references below `reference` (and beyond the retention limit).
    mutating func retain(from reference: UInt32) {
        let limit = count >= UInt32(ProtocolConstants.freshRetention) ? count - UInt32(ProtocolConstants.freshRetention) + 1 : 1
        let keep = max(reference, limit, 1)
        guard keep > first, !values.isEmpty else { return }
        let drop = min(Int(keep - first), values.count)
        values.removeFirst(drop)
        first += UInt32(drop)
    }
}

/// The sending half of a session: the chain key of the next position and the fresh values sent.
struct SendChain: Codable, Sendable, Equatable {
    var chainKey: KeyBytes
    var fresh: FreshTable
    var position: UInt32 { fresh.count }
}

/// The receiving half: the chain key of the next expected position and skipped keys.
struct ReceiveChain: Sendable, Equatable {
    var chainKey: KeyBytes
    var position: UInt32
    var skipped: [SkippedKey]
    /// The highest reference the peer used in an accepted message of this chain (0 before any):
    /// its later messages use this one or a higher one.
    var referenceFloor: UInt32 = 0

    /// The lowest reference any message still acceptable on this chain may carry.
    var lowestReference: UInt32 { skipped.reduce(referenceFloor) { min($0, $1.referenceFloor) } }

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
