import struct Foundation.Data
import class Foundation.JSONDecoder

/// The form the store keeps a session in: compact binary, read back with every count bounded.
///
/// Layout, version 2. Integers are little-endian, counts are u32 and come before what they count:
///
///     state          = magic 0xF5 · version u8 (2) · role u8 ("A" 0x41 | "B" 0x42)
///                      · pairing secret [32] · epoch u32
///                      · send chain key [32] · fresh table            (the send chain)
///                      · receive chain · peer reference u32 · peer fresh u64
///                      · recent digests: count (≤ 64), u64 each
///                      · retired: 0 | 1 receive chain, fresh table, epoch u32, expires at i64
///                      · pending resync: 0 | 1 epoch u32, nonce
///                      · last resync: 0 | 1 epoch u32, mine nonce, peer nonce, repeat answered
///                        flag, completed at: 0 | 1 i64
///                      · requested resync: 0 | 1 epoch u32, nonce
///     fresh table    = initial u64 · messages sent u32 · first reference u32 (≥ 1)
///                      · values: count (≤ 1024, = messages sent − first reference + 1), u64 each
///     receive chain  = chain key [32] · position u32 · reference floor u32
///                      · skipped keys: count (≤ 64), each position u32, key [32], stored at i64,
///                        reference floor u32
///     nonce          = count (= 16) · 16 bytes
///
/// Version 1 ended after the last resync's peer nonce: no repeat flag, completion time or request.
/// It is still read (as never answered again, completion time unknown, nothing requested).
///
/// 0xF5 never occurs in UTF-8, so the form cannot be mistaken for the JSON that earlier versions
/// wrote, which begins with `{`. The layout is a local storage matter, not part of the protocol.
extension Session {
    static let storedFormMagic: UInt8 = 0xF5

    /// The session from what the store keeps: the binary ``storedForm()``, or the JSON of the
    /// `Codable` conformance that earlier versions of smsgw wrote. The first byte tells them apart.
    ///
    /// - Throws: ``CipherError/unsupportedStateVersion(_:)`` for a version this build cannot read,
    ///   ``CipherError/corruptedState`` for anything else that is not a complete, consistent state.
    public init(stored bytes: some Collection<UInt8>) throws(CipherError) {
        switch bytes.first {
        case Self.storedFormMagic?:
            try self.init(storedForm: Array(bytes))
        case UInt8(ascii: "{")?:
            do {
                self = try JSONDecoder().decode(Session.self, from: Data(bytes))
            } catch let error as CipherError {
                throw error
            } catch {
                throw .corruptedState
            }
        default:
            throw .corruptedState
        }
    }

    /// The state in the compact binary form the store keeps; ``init(stored:)`` reads it back.
    public func storedForm() -> [UInt8] {
        // The fixed fields of both chains and the resync state take under 320 bytes.
        let freshValues = send.fresh.values.count + (retired?.fresh.values.count ?? 0)
        var writer = StateWriter(
            capacity: 320 + 8 * freshValues + StateWriter.skippedKeySize * skippedKeyCount + 8 * recentDigests.count)
        writer.byte(Self.storedFormMagic)
        writer.byte(UInt8(Self.currentVersion))
        writer.byte(role == .a ? Self.storedRoleA : Self.storedRoleB)
        writer.key(pairingSecret)
        writer.uint32(epoch)
        writer.key(send.chainKey)
        writer.freshTable(send.fresh)
        writer.receiveChain(receive)
        writer.uint32(peerReference)
        writer.uint64(peerFresh)
        writer.count(recentDigests.count)
        for digest in recentDigests { writer.uint64(digest) }
        writer.flag(retired != nil)
        if let retired {
            writer.receiveChain(retired.receive)
            writer.freshTable(retired.fresh)
            writer.uint32(retired.epoch)
            writer.int64(retired.expiresAt)
        }
        writer.flag(resync.pending != nil)
        if let pending = resync.pending {
            writer.uint32(pending.epoch)
            writer.nonce(pending.nonce)
        }
        writer.flag(resync.last != nil)
        if let last = resync.last {
            writer.uint32(last.epoch)
            writer.nonce(last.mine)
            writer.nonce(last.peer)
            writer.flag(last.repeatAnswered)
            writer.flag(last.completedAt != nil)
            if let completedAt = last.completedAt { writer.int64(completedAt) }
        }
        writer.flag(resync.requested != nil)
        if let requested = resync.requested {
            writer.uint32(requested.epoch)
            writer.nonce(requested.nonce)
        }
        return writer.bytes
    }

    /// Reads the binary form only; ``init(stored:)`` also reads the JSON of earlier versions.
    ///
    /// The bytes come from disk and are not trusted: every count is checked against its protocol
    /// limit and against the bytes that remain before anything is allocated for it.
    /// - Throws: ``CipherError/unsupportedStateVersion(_:)`` or ``CipherError/corruptedState``.
    public init(storedForm bytes: [UInt8]) throws(CipherError) {
        var reader = StateReader(bytes)
        guard try reader.byte() == Self.storedFormMagic else { throw .corruptedState }
        let version = Int(try reader.byte())
        guard (1...Self.currentVersion).contains(version) else { throw .unsupportedStateVersion(version) }
        switch try reader.byte() {
        case Self.storedRoleA: role = .a
        case Self.storedRoleB: role = .b
        default: throw .corruptedState
        }
        pairingSecret = try reader.key()
        epoch = try reader.uint32()
        send = SendChain(chainKey: try reader.key(), fresh: try reader.freshTable())
        receive = try reader.receiveChain()
        peerReference = try reader.uint32()
        peerFresh = try reader.uint64()
        let digestCount = try reader.count(atMost: ProtocolConstants.recentDigests, elementSize: 8)
        var digests: [UInt64] = []
        digests.reserveCapacity(digestCount)
        for _ in 0..<digestCount { digests.append(try reader.uint64()) }
        recentDigests = digests
        retired = try reader.flag() ? try reader.retiredChain() : nil
        let pending = try reader.flag() ? try reader.pendingResync() : nil
        let last = try reader.flag() ? try reader.completedResync(version: version) : nil
        var requested: ResyncState.Requested?
        if version >= 2, try reader.flag() { requested = try reader.requestedResync() }
        resync = ResyncState(pending: pending, requested: requested, last: last)
        guard reader.isAtEnd else { throw .corruptedState }
    }

    private static let storedRoleA = UInt8(ascii: "A")
    private static let storedRoleB = UInt8(ascii: "B")
}

/// Appends fields in the stored form's layout.
private struct StateWriter {
    static let skippedKeySize = 4 + 32 + 8 + 4

    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func flag(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func uint32(_ value: UInt32) { littleEndian(value) }
    mutating func uint64(_ value: UInt64) { littleEndian(value) }
    mutating func int64(_ value: Int64) { uint64(UInt64(bitPattern: value)) }
    mutating func count(_ count: Int) { uint32(UInt32(count)) }
    mutating func key(_ key: KeyBytes) { bytes.append(contentsOf: key.bytes) }

    mutating func nonce(_ nonce: [UInt8]) {
        count(nonce.count)
        bytes.append(contentsOf: nonce)
    }

    mutating func freshTable(_ table: FreshTable) {
        uint64(table.initial)
        uint32(table.count)
        uint32(table.first)
        count(table.values.count)
        for value in table.values { uint64(value) }
    }

    mutating func receiveChain(_ chain: ReceiveChain) {
        key(chain.chainKey)
        uint32(chain.position)
        uint32(chain.referenceFloor)
        count(chain.skipped.count)
        for skipped in chain.skipped {
            uint32(skipped.position)
            key(skipped.key)
            int64(skipped.storedAt)
            uint32(skipped.referenceFloor)
        }
    }

    private mutating func littleEndian(_ value: some FixedWidthInteger) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// Reads fields in the stored form's layout; every read past the end throws instead of trapping.
///
/// Swift evaluates arguments left to right, so `SkippedKey(position: try uint32(), key: try key(), …)`
/// reads the fields in layout order.
private struct StateReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }
    private var remaining: Int { bytes.count - offset }

    mutating func byte() throws(CipherError) -> UInt8 {
        guard remaining >= 1 else { throw .corruptedState }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func flag() throws(CipherError) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw .corruptedState
        }
    }

    mutating func uint32() throws(CipherError) -> UInt32 { try littleEndian() }
    mutating func uint64() throws(CipherError) -> UInt64 { try littleEndian() }
    mutating func int64() throws(CipherError) -> Int64 { Int64(bitPattern: try uint64()) }
    mutating func key() throws(CipherError) -> KeyBytes { KeyBytes(try take(32)) }

    /// A count of elements of `elementSize` bytes each, rejected above `limit` or beyond the bytes
    /// left, so a damaged count never causes an allocation.
    mutating func count(atMost limit: Int, elementSize: Int) throws(CipherError) -> Int {
        let count = Int(try uint32())
        guard count <= limit, count * elementSize <= remaining else { throw .corruptedState }
        return count
    }

    mutating func nonce() throws(CipherError) -> [UInt8] {
        guard try count(atMost: Handshake.nonceSize, elementSize: 1) == Handshake.nonceSize else { throw .corruptedState }
        return try take(Handshake.nonceSize)
    }

    mutating func freshTable() throws(CipherError) -> FreshTable {
        var table = FreshTable(initial: try uint64())
        table.count = try uint32()
        table.first = try uint32()
        let kept = try count(atMost: ProtocolConstants.freshRetention, elementSize: 8)
        guard table.first >= 1, UInt64(table.first) + UInt64(kept) == UInt64(table.count) + 1 else { throw .corruptedState }
        table.values.reserveCapacity(kept)
        for _ in 0..<kept { table.values.append(try uint64()) }
        return table
    }

    mutating func receiveChain() throws(CipherError) -> ReceiveChain {
        let chainKey = try key()
        let position = try uint32()
        let floor = try uint32()
        let skippedCount = try count(atMost: ProtocolConstants.maxSkippedKeys, elementSize: StateWriter.skippedKeySize)
        var skipped: [SkippedKey] = []
        skipped.reserveCapacity(skippedCount)
        for _ in 0..<skippedCount {
            skipped.append(
                SkippedKey(
                    position: try uint32(), key: try key(), storedAt: try int64(), referenceFloor: try uint32()))
        }
        return ReceiveChain(chainKey: chainKey, position: position, skipped: skipped, referenceFloor: floor)
    }

    mutating func retiredChain() throws(CipherError) -> RetiredChain {
        RetiredChain(receive: try receiveChain(), fresh: try freshTable(), epoch: try uint32(), expiresAt: try int64())
    }

    mutating func pendingResync() throws(CipherError) -> ResyncState.Pending {
        ResyncState.Pending(epoch: try uint32(), nonce: try nonce())
    }

    mutating func requestedResync() throws(CipherError) -> ResyncState.Requested {
        ResyncState.Requested(epoch: try uint32(), nonce: try nonce())
    }

    mutating func completedResync(version: Int) throws(CipherError) -> ResyncState.Completed {
        var completed = ResyncState.Completed(
            epoch: try uint32(), mine: try nonce(), peer: try nonce(), completedAt: nil, repeatAnswered: false)
        guard version >= 2 else { return completed }
        completed.repeatAnswered = try flag()
        completed.completedAt = try flag() ? try int64() : nil
        return completed
    }

    private mutating func take(_ count: Int) throws(CipherError) -> [UInt8] {
        guard count <= remaining else { throw .corruptedState }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    private mutating func littleEndian<Value: FixedWidthInteger>() throws(CipherError) -> Value {
        let width = MemoryLayout<Value>.size
        guard width <= remaining else { throw .corruptedState }
        defer { offset += width }
        return Value(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Value.self) })
    }
}
