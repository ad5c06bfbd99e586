import Foundation
import Testing

@testable import SMSCipher

/// States written by earlier versions of smsgw: the JSON of the `Codable` conformance, and the
/// binary form of version 1 (before the operator gate of docs/PROTOCOL.md §6.3).
extension SessionStorageTests {
    @Test func jsonOfEarlierVersionsStillLoads() throws {
        let pair = try Self.eventfulPair()
        for session in [pair.alice, pair.bob, Pair().alice] {
            let json = try JSONEncoder().encode(session)
            #expect(json.first == UInt8(ascii: "{"))
            #expect(try Session(stored: json) == session)
        }
        let text = String(decoding: try JSONEncoder().encode(pair.bob), as: UTF8.self)
        let future = text.replacingOccurrences(of: "\"version\":2", with: "\"version\":99")
        #expect(throws: CipherError.unsupportedStateVersion(99)) { try Session(stored: Data(future.utf8)) }
        #expect(throws: CipherError.corruptedState) { try Session(stored: Data("{\"version\":1}".utf8)) }
        #expect(throws: CipherError.corruptedState) { try Session(stored: Data(text.dropLast(1).utf8)) }
    }

    /// States written by version 1 (before the operator gate) still load: their last resync was
    /// never answered again, its time is unknown, and nothing is requested.
    @Test func statesOfVersionOneStillLoad() throws {
        let (pair, undelivered) = try Self.eventful()
        var bob = pair.bob
        bob.resync.last?.completedAt = nil
        let v2 = bob.storedForm()
        // The version 1 form: the same bytes less what version 2 appended to the resync state.
        let lastEnd = try Self.walk(v2).lastResyncEnd
        var v1 = Array(v2[..<lastEnd])
        v1[1] = 1
        let loaded = try Session(stored: Data(v1))
        #expect(loaded == bob)
        #expect(loaded.lastResync?.completedAt == nil && loaded.resyncRequest == nil && loaded.isResyncPending)
        #expect(try Session(storedForm: loaded.storedForm()) == bob)
        var reloaded = pair
        reloaded.bob = loaded
        #expect(try reloaded.bobOpens(undelivered[0]) == "before 0")

        // JSON of version 1: no request, no completion time, no repeat flag.
        // Sorted keys: the encoder's key order is otherwise not fixed, and the edit below needs to
        // know which side of the flag its comma is on.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(bob), as: UTF8.self)
        #expect(json.contains("\"version\":2") && json.contains("\"repeatAnswered\":false"))
        let flag = json.contains("\"repeatAnswered\":false,") ? "\"repeatAnswered\":false," : ",\"repeatAnswered\":false"
        let v1JSON = json.replacingOccurrences(of: "\"version\":2", with: "\"version\":1")
            .replacingOccurrences(of: flag, with: "")
        #expect(!v1JSON.contains("repeatAnswered"))
        #expect(try Session(stored: Data(v1JSON.utf8)) == bob)
    }
}
