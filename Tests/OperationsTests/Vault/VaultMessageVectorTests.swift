import Foundation
import Testing

@testable import Operations
@testable import SMSCipher

/// The vault's messages (docs/PROTOCOL.md §13): the vectors printed in the document are what the
/// codec makes of the inputs below, and each decodes back to its input.
@Suite("Vault message vectors")
struct VaultMessageVectorTests {
    static let share: UInt32 = 0x1234_5678
    static let sharedAt = Date(timeIntervalSince1970: 1_900_000_000)

    /// The vectors' inputs, by name, as the document lists them.
    static let inputs: [(name: String, kind: VaultMessage.Kind, record: ShareRecord?)] = [
        (
            "share", .share,
            .share(
                ShareRecord.Share(
                    permission: .useAndShare, level: 1, sharedAt: sharedAt, expiresAt: sharedAt + 86_400, title: "Mail",
                    username: "me@example.org", url: "https://mail.example.org", password: "s3cret-Pässword"))
        ),
        (
            "share-2-parts", .share,
            .share(
                ShareRecord.Share(
                    permission: .use, level: 2, sharedAt: sharedAt, expiresAt: nil, title: "Notes",
                    notes: String(repeating: "n", count: 160), password: "pw"))
        ),
        ("update", .update, .password(changedAt: sharedAt + 100, password: "n3w-Pässword")),
        ("change", .change, .password(changedAt: sharedAt + 200, password: "ch4nged")),
        ("reshared", .reshared, .reshared(share: 0x0BAD_CAFE, permission: .use, expiresAt: nil, holder: "Carol")),
        ("revoke", .revoke, nil),
        ("expired", .expired, nil),
        ("removed", .removed, nil),
    ]

    /// Each vector's typed payloads: kind and body as hexadecimal septets, one per part.
    static func payloads(_ input: (name: String, kind: VaultMessage.Kind, record: ShareRecord?)) -> [TypedPayload] {
        guard let record = input.record else { return [VaultNotice(kind: input.kind, share: share).payload] }
        return VaultPart.split(record.bytes, kind: input.kind, share: share)!.map(\.payload)
    }

    static func hex(_ septets: [UInt8]) -> String { septets.map { String(format: "%02x", $0) }.joined() }

    /// The rows of the vector table in docs/PROTOCOL.md: name, part, kind, body.
    static func documented() throws -> [[String]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        guard let start = text.range(of: "<!-- vault-vectors: begin -->"), let end = text.range(of: "<!-- vault-vectors: end -->") else {
            return []
        }
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            line.split(separator: "|").map {
                $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            }
        }
    }

    @Test("The vectors in docs/PROTOCOL.md §13.4 are what the codec makes")
    func documentedVectors() throws {
        var rows: [[String]] = []
        for input in Self.inputs {
            let payloads = Self.payloads(input)
            for (index, payload) in payloads.enumerated() {
                rows.append([input.name, "\(index + 1)/\(payloads.count)", "\(payload.kind.rawValue)", Self.hex(payload.body)])
            }
        }
        let documented = try Self.documented()
        if documented != rows {
            print(rows.map { "| `\($0[0])` | \($0[1]) | \($0[2]) | `\($0[3])` |" }.joined(separator: "\n"))
        }
        #expect(documented == rows)
    }

    @Test("Every vector decodes back to its input, parts in any order")
    func roundTrip() throws {
        for input in Self.inputs {
            let messages = Self.payloads(input).reversed().map { VaultMessage($0) }
            if let record = input.record {
                let parts = messages.compactMap { message -> VaultPart? in if case .part(let part) = message { part } else { nil } }
                #expect(parts.count == messages.count && parts.allSatisfy { $0.share == Self.share && $0.kind == input.kind })
                let bytes = try #require(VaultPart.join(parts))
                #expect(ShareRecord(kind: input.kind.rawValue, bytes: bytes) == record)
            } else {
                #expect(messages == [.notice(VaultNotice(kind: input.kind, share: Self.share))])
            }
        }
    }

    @Test("Packing bytes into septets round-trips for every length, and bad padding or counts are refused")
    func septetBytes() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 200) }
            let septets = SeptetBytes.septets(bytes)
            #expect(septets.count == (length * 8 + 6) / 7 && septets.allSatisfy { $0 < 0x80 })
            #expect(SeptetBytes.bytes(septets) == bytes)
        }
        #expect(SeptetBytes.bytes([0x7F]) == nil)  // 7 bits hold no byte: a count no packing makes
        #expect(SeptetBytes.bytes([0x00, 0x01]) == nil)  // one byte, but a padding bit set
    }

    @Test("Malformed bodies are not vault messages: short, bad counts, missing parts, other versions, trailing bytes")
    func malformed() {
        let kind = TypedPayload.Kind(rawValue: 3)
        #expect(VaultMessage(TypedPayload(kind: kind, body: [0, 0, 0, 0, 1, 1, 1])) == nil)  // no segment
        #expect(VaultMessage(TypedPayload(kind: kind, body: [0, 0, 0, 0, 1, 2, 1, 0x10])) == nil)  // index beyond count
        #expect(VaultMessage(TypedPayload(kind: kind, body: [0, 0, 0, 0, 1, 1, 17, 0x10])) == nil)  // more than 16 parts
        #expect(VaultMessage(TypedPayload(kind: kind, body: [0x7F, 0, 0, 0, 0, 1, 1, 0x10])) == nil)  // share over 32 bits
        #expect(VaultMessage(TypedPayload(kind: TypedPayload.Kind(rawValue: 6), body: [0, 0, 0, 0])) == nil)  // short notice
        #expect(VaultMessage(TypedPayload(kind: TypedPayload.Kind(rawValue: 10), body: [0, 0, 0, 0, 1])) == nil)  // reserved kind
        let parts = VaultPart.split(ShareRecord.password(changedAt: Self.sharedAt, password: "x").bytes, kind: .update, share: 1)!
        #expect(VaultPart.join(parts + parts) == nil)
        var bytes = ShareRecord.password(changedAt: Self.sharedAt, password: "x").bytes
        #expect(ShareRecord(kind: 4, bytes: bytes + [0]) == nil)
        bytes[0] = 2
        #expect(ShareRecord(kind: 4, bytes: bytes) == nil)
        #expect(VaultPart.split([UInt8](repeating: 1, count: 2000), kind: .share, share: 1) == nil)
    }
}
