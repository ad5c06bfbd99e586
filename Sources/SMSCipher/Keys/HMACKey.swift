import CCryptoBoringSSL

/// HMAC-SHA256 with the key's inner and outer hash states computed once (RFC 2104 §4).
///
/// The protocol runs a few hundred HMACs to find a message's position in the window, under keys
/// each used two or three times; swift-crypto's `HMAC` re-derives the pads per call and costs
/// about 4 µs here, this costs about 0.3 µs. The only C in SMSCipher: SHA-256 from the BoringSSL
/// that swift-crypto builds (the same code `Crypto.SHA256` runs), used through its context API.
struct HMACKey {
    private var inner = SHA256_CTX()
    private var outer = SHA256_CTX()

    init(_ key: [UInt8]) {
        precondition(key.count <= 64, "protocol keys are at most one block")
        CCryptoBoringSSL_SHA256_Init(&inner)
        CCryptoBoringSSL_SHA256_Init(&outer)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { block in
            for index in 0..<64 { block[index] = (index < key.count ? key[index] : 0) ^ 0x36 }
            CCryptoBoringSSL_SHA256_Update(&inner, block.baseAddress, 64)
            for index in 0..<64 { block[index] ^= 0x36 ^ 0x5C }
            CCryptoBoringSSL_SHA256_Update(&outer, block.baseAddress, 64)
        }
    }

    init(_ key: KeyBytes) { self.init(key.bytes) }

    /// HMAC(key, parts[0] ‖ parts[1] ‖ …).
    func mac(_ parts: [UInt8]...) -> [UInt8] { mac(parts) }

    func mac(_ parts: [[UInt8]]) -> [UInt8] {
        var context = inner
        for part in parts {
            part.withUnsafeBytes { _ = CCryptoBoringSSL_SHA256_Update(&context, $0.baseAddress, $0.count) }
        }
        var digest = [UInt8](repeating: 0, count: 32)
        CCryptoBoringSSL_SHA256_Final(&digest, &context)
        context = outer
        CCryptoBoringSSL_SHA256_Update(&context, &digest, 32)
        CCryptoBoringSSL_SHA256_Final(&digest, &context)
        return digest
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var context = SHA256_CTX()
        var digest = [UInt8](repeating: 0, count: 32)
        CCryptoBoringSSL_SHA256_Init(&context)
        bytes.withUnsafeBytes { _ = CCryptoBoringSSL_SHA256_Update(&context, $0.baseAddress, $0.count) }
        CCryptoBoringSSL_SHA256_Final(&digest, &context)
        return digest
    }
}
