import Foundation
import SplitMix
import Testing

@testable import SMSCipher

/// The stored form of a session: binary round trips, JSON of earlier versions, damaged input.
@Suite struct SessionStorageTests {
    /// Both sides after lost and late messages and a completed resync, and Bob with a second resync
    /// pending that Alice keeps as a request: skipped keys in both of Bob's receive chains, a retired
    /// chain, recent digests, and resync states with `pending` and `last` (Bob), `requested` and
    /// `last` (Alice).
    static func eventfulPair() throws -> Pair { try eventful().pair }

    /// ``eventfulPair()`` and Alice's messages that Bob has not received yet, oldest first.
    static func eventful() throws -> (pair: Pair, undelivered: [String]) {
        var pair = Pair(seed: 7)
        let late = try (0..<5).map { try pair.aliceSeals("before \($0)") }
        #expect(try pair.bobOpens(late[4]) == "before 4")
        #expect(try pair.bobOpens(late[1]) == "before 1")
        #expect(try pair.aliceOpens(pair.bobSeals("reply")) == "reply")
        let start = pair.bob.startingResync(using: &pair.rng)
        pair.bob = start.session
        #expect(try pair.aliceHandles(start.message).outcome == .requested)
        _ = try pair.bobHandles(try pair.aliceAccepts())
        let lost = try (0..<3).map { try pair.aliceSeals("after \($0)") }
        #expect(try pair.bobOpens(lost[2]) == "after 2")
        let second = pair.bob.startingResync(using: &pair.rng)
        pair.bob = second.session
        // Alice keeps Bob's second request for her operator.
        #expect(try pair.aliceHandles(second.message).outcome == .requested)
        return (pair, [late[0], late[2], late[3], lost[0], lost[1]])
    }

    static func expectRoundTrip(_ session: Session, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let stored = session.storedForm()
        #expect(try Session(storedForm: stored) == session, sourceLocation: sourceLocation)
        #expect(try Session(stored: Data(stored)) == session, sourceLocation: sourceLocation)
    }

    @Test func freshSessionsRoundTrip() throws {
        let pair = Pair()
        try Self.expectRoundTrip(pair.alice)
        try Self.expectRoundTrip(pair.bob)
        #expect(pair.alice.storedForm().first == 0xF5 && pair.alice.storedForm()[1] == 2)
    }

    @Test func eventfulSessionsRoundTripAndKeepWorking() throws {
        var (pair, undelivered) = try Self.eventful()
        #expect(pair.bob.hasRetiredChain && pair.bob.isResyncPending && pair.bob.resync.last != nil)
        #expect(pair.bob.receive.skipped.count == 2 && pair.bob.retired?.receive.skipped.count == 3)
        #expect(!pair.bob.recentDigests.isEmpty)
        #expect(pair.alice.hasRetiredChain && !pair.alice.isResyncPending && pair.alice.resync.last != nil)
        #expect(pair.alice.resyncRequest?.epoch == 2 && pair.alice.resync.last?.completedAt != nil)
        try Self.expectRoundTrip(pair.alice)
        try Self.expectRoundTrip(pair.bob)
        pair.alice = try Session(stored: Data(pair.alice.storedForm()))
        pair.bob = try Session(stored: Data(pair.bob.storedForm()))
        #expect(try pair.bobOpens(pair.aliceSeals("after reload")) == "after reload")
        #expect(try pair.bobOpens(undelivered[0]) == "before 0")
        #expect(try pair.bobOpens(undelivered[4]) == "after 1")
        #expect(pair.bob.skippedKeyCount == 3)
    }

    @Test func resyncPendingAndCompletedRoundTrip() throws {
        var pair = Pair()
        let start = pair.alice.startingResync(using: &pair.rng)
        pair.alice = start.session
        #expect(pair.alice.isResyncPending && pair.alice.resync.last == nil)
        try Self.expectRoundTrip(pair.alice)
        #expect(try pair.bobHandles(start.message).outcome == .requested)
        try Self.expectRoundTrip(pair.bob)
        let reply = try pair.bobAccepts()
        try Self.expectRoundTrip(pair.bob)
        _ = try pair.aliceHandles(reply)
        #expect(!pair.alice.isResyncPending && pair.alice.resync.last != nil && pair.alice.hasRetiredChain)
        try Self.expectRoundTrip(pair.alice)
    }

    /// Random traffic both ways with losses and late deliveries; both states round-trip after every step.
    @Test func randomTrafficRoundTripsAfterEveryStep() throws {
        var rng = SplitMix64.replayable()
        var pair = Pair(seed: rng.next())
        // Held-back messages with the step they arrive at: late, but soon enough that the sender's
        // fresh reference is still among the receiver's last 64.
        var heldForBob: [(due: Int, ciphertext: String)] = []
        var heldForAlice: [(due: Int, ciphertext: String)] = []
        var sawSkipped = false
        for step in 0..<300 {
            let fate = rng.next() % 10  // 0–6 delivered at once, 7–8 held back, 9 lost
            let due = step + Int(rng.next() % 8) + 1
            if rng.next() % 2 == 0 {
                let ciphertext = try pair.aliceSeals("a\(step)")
                if fate < 7 { _ = try pair.bobOpens(ciphertext) } else if fate < 9 { heldForBob.append((due, ciphertext)) }
            } else {
                let ciphertext = try pair.bobSeals("b\(step)")
                if fate < 7 { _ = try pair.aliceOpens(ciphertext) } else if fate < 9 { heldForAlice.append((due, ciphertext)) }
            }
            for late in heldForBob where late.due == step { _ = try pair.bobOpens(late.ciphertext) }
            for late in heldForAlice where late.due == step { _ = try pair.aliceOpens(late.ciphertext) }
            heldForBob.removeAll { $0.due <= step }
            heldForAlice.removeAll { $0.due <= step }
            sawSkipped = sawSkipped || pair.bob.skippedKeyCount > 0
            try Self.expectRoundTrip(pair.alice)
            try Self.expectRoundTrip(pair.bob)
        }
        #expect(sawSkipped)
        #expect(pair.bob.recentDigests.count == ProtocolConstants.recentDigests)
    }

    @Test func unknownVersionsAndFirstBytesAreRefused() throws {
        var stored = Pair().alice.storedForm()
        stored[1] = 3
        #expect(throws: CipherError.unsupportedStateVersion(3)) { try Session(stored: Data(stored)) }
        stored[1] = 0
        #expect(throws: CipherError.unsupportedStateVersion(0)) { try Session(stored: Data(stored)) }
        #expect(throws: CipherError.corruptedState) { try Session(stored: Data()) }
        for first: UInt8 in [0x00, 0x20, UInt8(ascii: "["), 0xF4, 0xFF] {
            stored = Pair().alice.storedForm()
            stored[0] = first
            #expect(throws: CipherError.corruptedState) { try Session(stored: Data(stored)) }
            #expect(throws: CipherError.corruptedState) { try Session(storedForm: stored) }
        }
        for role: UInt8 in [0, UInt8(ascii: "C"), UInt8(ascii: "a")] {
            stored = Pair().alice.storedForm()
            stored[2] = role
            #expect(throws: CipherError.corruptedState) { try Session(storedForm: stored) }
        }
    }

    @Test func everyTruncationAndTrailingBytesAreRefused() throws {
        let pair = try Self.eventfulPair()
        for session in [pair.alice, pair.bob] {
            let stored = session.storedForm()
            for length in 0..<stored.count {
                #expect(throws: CipherError.corruptedState) { try Session(storedForm: Array(stored.prefix(length))) }
            }
            #expect(throws: CipherError.corruptedState) { try Session(storedForm: stored + [0]) }
        }
    }

    @Test func flipsInTheHeaderAndCountsAreRefused() throws {
        var rng = SplitMix64.replayable()
        let stored = try Self.eventfulPair().bob.storedForm()
        let offsets = try Self.structuralOffsets(of: stored)
        #expect(offsets.count == 2 + 8 * 4 + 5)  // magic and version, eight counts, five presence flags
        for offset in offsets {
            for _ in 0..<8 {
                var damaged = stored
                damaged[offset] ^= UInt8.random(in: 1...255, using: &rng)
                #expect(throws: CipherError.self, "byte \(offset)") { try Session(storedForm: damaged) }
            }
        }
    }

    /// Flips anywhere: the decoder never traps, and whatever it accepts is written back byte for byte.
    @Test func flipsAnywhereNeverCrash() throws {
        var rng = SplitMix64.replayable()
        let stored = try Self.eventfulPair().bob.storedForm()
        for _ in 0..<2_000 {
            var damaged = stored
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                damaged[Int.random(in: 0..<damaged.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            }
            if let session = try? Session(storedForm: damaged) { #expect(session.storedForm() == damaged) }
        }
    }

    @Test func hugeCountsAreRefusedWithoutAllocating() throws {
        let stored = try Self.eventfulPair().bob.storedForm()
        for offset in try Self.countOffsets(of: stored) {
            var damaged = stored
            damaged.replaceSubrange(offset..<offset + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
            #expect(throws: CipherError.corruptedState) { try Session(storedForm: damaged) }
        }
    }

    @Test func countsBeyondTheProtocolLimitsAreRefused() throws {
        var rng = SplitMix64(seed: 11)
        let pair = try Self.eventfulPair()
        let key = KeyBytes([UInt8](repeating: 7, count: 32))
        let skipped = (0..<ProtocolConstants.maxSkippedKeys).map { SkippedKey(position: UInt32($0), key: key, storedAt: 0) }

        var full = pair.bob
        full.receive.skipped = skipped
        full.retired?.receive.skipped = skipped
        full.recentDigests = (0..<ProtocolConstants.recentDigests).map { _ in rng.next() }
        try Self.expectRoundTrip(full)
        #expect(try Session(stored: JSONEncoder().encode(full)) == full)

        var tooMany: [Session] = []
        var state = full
        state.receive.skipped.append(skipped[0])
        tooMany.append(state)
        state = full
        state.retired?.receive.skipped.append(skipped[0])
        tooMany.append(state)
        state = full
        state.recentDigests.append(1)
        tooMany.append(state)
        state = full
        state.send.fresh.first += 1
        tooMany.append(state)
        state = full
        state.retired?.fresh.values.append(0)
        tooMany.append(state)
        state = full
        state.resync.pending?.nonce.removeLast()
        tooMany.append(state)
        state = full
        state.resync.last?.peer.append(0)
        tooMany.append(state)
        for session in tooMany {
            #expect(throws: CipherError.corruptedState) { try Session(storedForm: session.storedForm()) }
            #expect(throws: CipherError.corruptedState) { try Session(stored: JSONEncoder().encode(session)) }
        }
    }

    /// Offsets of the bytes that shape the form (magic, version, counts, presence flags; not the role,
    /// whose two values are both valid), found by walking the layout documented in Session+Binary.swift.
    static func structuralOffsets(of bytes: [UInt8]) throws -> [Int] {
        try walk(bytes).structural
    }

    /// Offsets of the four-byte counts.
    static func countOffsets(of bytes: [UInt8]) throws -> [Int] {
        try walk(bytes).counts
    }

    static func walk(_ bytes: [UInt8]) throws -> (structural: [Int], counts: [Int], lastResyncEnd: Int) {
        var structural = [0, 1]
        var counts: [Int] = []
        var at = 3 + 32 + 4 + 32  // role, pairing secret, epoch, send chain key
        func count() -> Int {
            counts.append(at)
            structural += at..<at + 4
            defer { at += 4 }
            return (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        func flag() -> Bool {
            structural.append(at)
            defer { at += 1 }
            return bytes[at] == 1
        }
        func freshTable() {
            at += 8 + 4 + 4  // initial, messages sent, first reference
            at += 8 * count()
        }
        func receiveChain() {
            at += 32 + 4 + 4  // chain key, position, reference floor
            at += (4 + 32 + 8 + 4) * count()
        }
        func nonce() { at += count() }

        freshTable()
        receiveChain()
        at += 4 + 8  // peer reference, peer fresh
        at += 8 * count()
        if flag() {
            receiveChain()
            freshTable()
            at += 4 + 8
        }
        if flag() {
            at += 4
            nonce()
        }
        var lastResyncEnd = at
        if flag() {
            at += 4
            nonce()
            nonce()
            lastResyncEnd = at  // where version 1 ended
            at += 1  // repeat answered: a value, not structure
            if flag() { at += 8 }  // completed at
        } else {
            lastResyncEnd = at
        }
        if flag() {  // requested
            at += 4
            nonce()
        }
        try #require(at == bytes.count, "the layout in Session+Binary.swift does not match the encoder")
        return (structural, counts, lastResyncEnd)
    }
}
