/// A growable string of bits, most significant first.
struct QRBitBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    /// Appends the low `count` bits of `value`, most significant first.
    mutating func append(_ value: Int, count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) {
            if self.count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 {
                bytes[bytes.count - 1] |= 0x80 >> UInt8(self.count % 8)
            }
            self.count += 1
        }
    }
}
