import Foundation
import SplitMix
import Testing
@testable import SMSCipher

extension Pair {
    mutating func bobHandles(_ message: String) throws -> ResyncEvent {
        let result = try bob.opening(message, now: now, using: &rng)
        bob = result.session
        guard case .resync(let event) = result.opened else { throw TestFailure("expected a resync message") }
        return event
    }

    mutating func aliceHandles(_ message: String) throws -> ResyncEvent {
        let result = try alice.opening(message, now: now, using: &rng)
        alice = result.session
        guard case .resync(let event) = result.opened else { throw TestFailure("expected a resync message") }
        return event
    }
}

@Suite struct ResyncTests {
    func expectWorking(_ pair: inout Pair) throws {
        #expect(try pair.bobOpens(pair.aliceSeals("after resync")) == "after resync")
        #expect(try pair.aliceOpens(pair.bobSeals("confirmed")) == "confirmed")
    }

    @Test func handshakeInTwoMessages() throws {
        var pair = Pair()
        _ = try pair.aliceSeals("lost forever")  // Bob never sees it; chains drift apart.
        let start = pair.alice.startingResync(using: &pair.rng)
        pair.alice = start.session
        #expect(pair.alice.isResyncPending)
        #expect(start.message.unicodeScalars.count == 160)
        let answer = try pair.bobHandles(start.message)
        #expect(answer.outcome == .completed && answer.epoch == 1)
        let reply = try #require(answer.reply)
        let done = try pair.aliceHandles(reply)
        #expect(done.outcome == .completed && done.reply == nil)
        #expect(!pair.alice.isResyncPending && pair.alice.epoch == 1 && pair.bob.epoch == 1)
        try expectWorking(&pair)
    }

    @Test func bothSidesStartAtOnce() throws {
        var pair = Pair()
        let fromAlice = pair.alice.startingResync(using: &pair.rng)
        let fromBob = pair.bob.startingResync(using: &pair.rng)
        pair.alice = fromAlice.session
        pair.bob = fromBob.session
        let atBob = try pair.bobHandles(fromAlice.message)
        let atAlice = try pair.aliceHandles(fromBob.message)
        #expect(atBob.outcome == .completed && atBob.reply == nil)
        #expect(atAlice.outcome == .completed && atAlice.reply == nil)
        try expectWorking(&pair)
    }

    @Test func lostHandshakeIsRetriedWithTheSameMessage() throws {
        var pair = Pair()
        let start = pair.alice.startingResync(using: &pair.rng)
        pair.alice = start.session
        // The first SMS is lost; the retry is the same 160 characters.
        #expect(pair.alice.pendingResyncMessage == start.message)
        #expect(pair.alice.startingResync(using: &pair.rng).message == start.message)
        let answer = try pair.bobHandles(start.message)
        // The answer is lost too: Alice retries, Bob answers again with the same reply.
        let again = try pair.bobHandles(start.message)
        #expect(again.outcome == .repeated && again.reply == answer.reply)
        _ = try pair.aliceHandles(try #require(again.reply))
        try expectWorking(&pair)
    }

    @Test func crossingHandshakesWithOneLost() throws {
        var pair = Pair()
        let fromAlice = pair.alice.startingResync(using: &pair.rng)  // lost
        let fromBob = pair.bob.startingResync(using: &pair.rng)
        pair.alice = fromAlice.session
        pair.bob = fromBob.session
        #expect(try pair.aliceHandles(fromBob.message).outcome == .completed)
        // Bob hears nothing and retries; Alice answers the repeat so Bob completes.
        let repeatAnswer = try pair.aliceHandles(try #require(pair.bob.pendingResyncMessage))
        #expect(repeatAnswer.outcome == .repeated)
        #expect(try pair.bobHandles(try #require(repeatAnswer.reply)).outcome == .completed)
        try expectWorking(&pair)
    }

    @Test func replayedHandshakesAreRefused() throws {
        var pair = Pair()
        let first = pair.alice.startingResync(using: &pair.rng)
        pair.alice = first.session
        let reply = try #require(try pair.bobHandles(first.message).reply)
        _ = try pair.aliceHandles(reply)
        // The peer's answer replayed to Alice changes nothing.
        let before = pair.alice
        #expect(try pair.aliceHandles(reply).outcome == .repeated)
        #expect(pair.alice == before)
        // A second resync; then the first epoch's messages are replays.
        let second = pair.alice.startingResync(using: &pair.rng)
        pair.alice = second.session
        let secondReply = try #require(try pair.bobHandles(second.message).reply)
        _ = try pair.aliceHandles(secondReply)
        let bobBefore = pair.bob
        #expect(throws: CipherError.replayedHandshake) { _ = try pair.bob.opening(first.message, now: pair.now, using: &pair.rng) }
        #expect(throws: CipherError.replayedHandshake) { _ = try pair.alice.opening(reply, now: pair.now, using: &pair.rng) }
        #expect(pair.bob == bobBefore)
        try expectWorking(&pair)
    }

    @Test func lateMessagesOfThePreviousEpochStillOpen() throws {
        var pair = Pair()
        let late = try pair.aliceSeals("sent before the resync")
        let start = pair.alice.startingResync(using: &pair.rng)
        pair.alice = start.session
        _ = try pair.aliceHandles(try #require(try pair.bobHandles(start.message).reply))
        #expect(pair.bob.hasRetiredChain)
        let result = try pair.bob.opening(late, now: pair.now, using: &pair.rng)
        guard case .message(let message) = result.opened else { Issue.record("not a message"); return }
        #expect(message.text == "sent before the resync" && message.epoch == 0)
    }

    @Test func manualRepairKeepsTheOldChainForLateMessages() throws {
        var pair = Pair()
        let late = try pair.aliceSeals("old pairing")
        var rng = SplitMix64(seed: 3)
        let aliceCode = PairingCode.generate(using: &rng)
        let bobCode = PairingCode.generate(using: &rng)
        pair.alice = try pair.alice.repaired(mine: aliceCode, peer: bobCode, now: pair.now)
        pair.bob = try pair.bob.repaired(mine: bobCode, peer: aliceCode, now: pair.now)
        #expect(pair.alice.safetyCode == pair.bob.safetyCode)
        try expectWorking(&pair)
        #expect(try pair.bobOpens(late) == "old pairing")
    }
}
