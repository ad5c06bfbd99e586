/// Writes bits most significant first into bytes.
struct BitWriter {
    private(set) var bytes: [UInt8]
    private(set) var bitCount = 0

    init(capacityBits: Int) {
        bytes = [UInt8](repeating: 0, count: (capacityBits + 7) / 8)
    }

    /// Appends the low `bits` bits of `value`, most significant first.
    mutating func write(_ value: UInt64, bits: Int) {
        precondition(bits <= 64)
        var remaining = bits
        while remaining > 0 {
            let free = 8 - bitCount & 7
            let take = min(free, remaining)
            let chunk = UInt8(truncatingIfNeeded: value >> UInt64(remaining - take)) & UInt8(truncatingIfNeeded: (1 << take) - 1)
            bytes[bitCount >> 3] |= chunk << UInt8(free - take)
            bitCount += take
            remaining -= take
        }
    }

    /// Appends the first `bits` bits of `source`, most significant first.
    mutating func write(bitsOf source: [UInt8], bits: Int) {
        var index = 0
        while index + 8 <= bits {
            write(UInt64(source[index >> 3]), bits: 8)
            index += 8
        }
        if index < bits {
            let rest = bits - index
            write(UInt64(source[index >> 3] >> UInt8(8 - rest)), bits: rest)
        }
    }

    mutating func skip(bits: Int) { bitCount += bits }
}

/// Reads bits most significant first from bytes.
struct BitReader {
    let bytes: [UInt8]
    private(set) var bitOffset: Int

    init(_ bytes: [UInt8], bitOffset: Int = 0) {
        self.bytes = bytes
        self.bitOffset = bitOffset
    }

    mutating func read(bits: Int) -> UInt64 {
        precondition(bits <= 64)
        var value: UInt64 = 0
        var remaining = bits
        while remaining > 0 {
            let available = 8 - bitOffset & 7
            let take = min(available, remaining)
            let chunk = UInt64(bytes[bitOffset >> 3] >> UInt8(available - take)) & ((1 << UInt64(take)) - 1)
            value = value << UInt64(take) | chunk
            bitOffset += take
            remaining -= take
        }
        return value
    }

    /// The next `bits` bits packed most significant first into bytes (the last byte zero-padded).
    mutating func readBytes(bits: Int) -> [UInt8] {
        var writer = BitWriter(capacityBits: bits)
        var remaining = bits
        while remaining > 0 {
            let take = min(8, remaining)
            writer.write(read(bits: take), bits: take)
            remaining -= take
        }
        return writer.bytes
    }
}
