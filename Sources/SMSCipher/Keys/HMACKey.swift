import CSHA256

/// HMAC-SHA256 with the key's inner and outer hash states computed once (RFC 2104 §4).
///
/// The protocol runs a few hundred HMACs to find a message's position in the window, under keys
/// each used two or three times; a generic HMAC re-derives the pads per call (swift-crypto's
/// `HMAC<SHA256>` costs about 4 µs here), this costs well under a microsecond. SHA-256 itself is the
/// package's own C target `CSHA256` (the processor's SHA extensions when it has them, portable C
/// otherwise), the only C in SMSCipher; docs/PERFORMANCE.md has the figures.
struct HMACKey {
    private var inner = smsgw_sha256_state()
    private var outer = smsgw_sha256_state()

    init(_ key: [UInt8]) {
        precondition(key.count <= 64, "protocol keys are at most one block")
        key.withUnsafeBufferPointer { smsgw_hmac_sha256_prepare($0.baseAddress, $0.count, &inner, &outer) }
    }

    init(_ key: KeyBytes) { self.init(key.bytes) }

    /// HMAC(key, parts[0] ‖ parts[1] ‖ …).
    func mac(_ parts: [UInt8]...) -> [UInt8] { mac(parts) }

    func mac(_ parts: [[UInt8]]) -> [UInt8] {
        // The parts are short (a label, a few integers, at most a 160-byte body), so one contiguous
        // copy on the stack beats hashing them piecewise.
        let length = parts.reduce(0) { $0 + $1.count }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(length, 1)) { message in
            var offset = 0
            for part in parts {
                part.withUnsafeBufferPointer { bytes in
                    guard let source = bytes.baseAddress, let target = message.baseAddress else { return }
                    (target + offset).initialize(from: source, count: bytes.count)
                }
                offset += part.count
            }
            return withUnsafePointer(to: inner) { inner in
                withUnsafePointer(to: outer) { outer in
                    [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
                        smsgw_hmac_sha256(inner, outer, message.baseAddress, length, digest.baseAddress)
                        count = 32
                    }
                }
            }
        }
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBufferPointer { message in
            [UInt8](unsafeUninitializedCapacity: 32) { digest, count in
                smsgw_sha256(message.baseAddress, message.count, digest.baseAddress)
                count = 32
            }
        }
    }
}
