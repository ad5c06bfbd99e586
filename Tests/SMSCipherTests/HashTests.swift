import CSHA256
import Crypto
import Foundation
import SplitMix
import Testing

@testable import SMSCipher

/// SHA-256 and HMAC-SHA256 of the package's own C target, on the SHA extensions and in portable C:
/// FIPS 180-4 and RFC 4231 known answers (Vectors/sha256-hmac.json), and random lengths around
/// the block boundaries against swift-crypto.
@Suite(.serialized) struct HashTests {
    struct VectorFile: Decodable {
        struct Digest: Decodable {
            struct Repeat: Decodable {
                var byte: String
                var count: Int
            }
            var name: String
            var text: String?
            var `repeat`: Repeat?
            var digest: String
            var message: [UInt8] {
                if let text { return Array(text.utf8) }
                return [UInt8](repeating: bytes(`repeat`!.byte)[0], count: `repeat`!.count)
            }
        }
        struct MAC: Decodable {
            var name: String
            var key: String
            var data: String
            var mac: String
        }
        var sha256: [Digest]
        var hmac: [MAC]
    }

    static func vectors() throws -> VectorFile {
        let url = try #require(Bundle.module.url(forResource: "sha256-hmac", withExtension: "json", subdirectory: "Vectors"))
        return try JSONDecoder().decode(VectorFile.self, from: Data(contentsOf: url))
    }

    /// Runs `body` once on each compression function this machine has.
    static func onEachPath(_ body: () throws -> Void) rethrows {
        defer { smsgw_sha256_force_portable(0) }
        for portable in [1, 0] {
            smsgw_sha256_force_portable(Int32(portable))
            try body()
        }
    }

    static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var inner = smsgw_sha256_state()
        var outer = smsgw_sha256_state()
        smsgw_hmac_sha256_prepare(key, key.count, &inner, &outer)
        var mac = [UInt8](repeating: 0, count: 32)
        smsgw_hmac_sha256(&inner, &outer, message, message.count, &mac)
        return mac
    }

    @Test func sha256KnownAnswers() throws {
        let file = try Self.vectors()
        Self.onEachPath {
            for vector in file.sha256 {
                #expect(hex(KDF.sha256(vector.message)) == vector.digest, "\(vector.name)")
            }
        }
    }

    @Test func hmacKnownAnswers() throws {
        let file = try Self.vectors()
        Self.onEachPath {
            for vector in file.hmac {
                let key = bytes(vector.key)
                let mac = Self.hmac(key: key, bytes(vector.data))
                #expect(hex(mac).hasPrefix(vector.mac), "\(vector.name)")
                // The protocol's own path, for keys of at most one block.
                if key.count <= 64 {
                    #expect(hex(HMACKey(key).mac(bytes(vector.data))).hasPrefix(vector.mac), "\(vector.name) through HMACKey")
                }
            }
        }
    }

    /// Every length from 0 to 300 bytes (the padding's one- and two-block tails, several blocks),
    /// message parts split at random, against swift-crypto.
    @Test func everyLengthMatchesSwiftCrypto() throws {
        var rng = SplitMix64.replayable()
        Self.onEachPath {
            for length in 0...300 {
                let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
                #expect(KDF.sha256(message) == Array(SHA256.hash(data: message)), "SHA-256 of \(length) bytes")
                let key = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                let split = Int.random(in: 0...length, using: &rng)
                let expected = Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)))
                #expect(HMACKey(key).mac(Array(message[..<split]), Array(message[split...])) == expected, "HMAC of \(length) bytes")
            }
        }
    }
}

private func bytes(_ hex: String) -> [UInt8] {
    var result: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        result.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return result
}

private func hex(_ bytes: [UInt8]) -> String {
    bytes.map { String(format: "%02x", $0) }.joined()
}
