import Foundation
import Logging
import Modem
import Store
import TestSupport
import Testing

@testable import Gateway

/// What an SMS said never lands in a column the store keeps in the clear.
@Suite("Clear columns")
struct ClearColumnTests {
    @Test func aSecondCopyOfAPlainSMSFromAContactLogsNoText() throws {
        let directory = TemporaryDirectory(prefix: "smsgw-clear")
        defer { withExtendedLifetime(directory) {} }
        let store = try directory.unlockedStore()
        try store.addContact(name: "alice", number: PhoneNumber("+15550001"), pairingCode: Data("code".utf8))
        let text = "Your bank code is 4711-9920"
        let sms = StoredMessage(
            location: .init(folder: 1, index: 1, memory: .sim), number: "+15550001", text: text, coding: .gsm7,
            timestamp: nil, concatenation: nil, deliveryStatus: nil, messageReference: nil, fingerprint: "raw-fingerprint")

        // The network delivers it twice.
        for _ in 0..<2 { _ = try store.write { try IncomingProcessor.process(sms, modem: "m1", in: $0) } }

        let log = try store.log()
        #expect(log.map(\.status) == [.plain, .duplicate])
        #expect(log.first?.text == text)
        #expect(log.allSatisfy { $0.ciphertext == nil })
        let files = ["smsgw.sqlite", "smsgw.sqlite-wal"].compactMap {
            FileManager.default.contents(atPath: directory.url.appendingPathComponent($0).path)
        }
        #expect(!files.isEmpty)
        for bytes in files { #expect(bytes.range(of: Data("4711-9920".utf8)) == nil) }
    }
}
