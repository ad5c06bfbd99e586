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

    /// Bob's operator accepts the request Bob keeps; returns the answer to send to Alice.
    mutating func bobAccepts() throws -> String {
        let result = try bob.acceptingResync(now: now, using: &rng)
        bob = result.session
        guard case .resync(let event) = result.opened, event.outcome == .completed, let reply = event.reply else {
            throw TestFailure("accepting gave no answer")
        }
        return reply
    }

    mutating func aliceAccepts() throws -> String {
        let result = try alice.acceptingResync(now: now, using: &rng)
        alice = result.session
        guard case .resync(let event) = result.opened, let reply = event.reply else { throw TestFailure("accepting gave no answer") }
        return reply
    }

    /// Alice starts a resync, Bob keeps it, his operator accepts, Alice completes.
    mutating func resyncStartedByAlice() throws {
        let start = alice.startingResync(using: &rng)
        alice = start.session
        #expect(try bobHandles(start.message).outcome == .requested)
        #expect(try aliceHandles(bobAccepts()).outcome == .completed)
    }
}

@Suite struct ResyncTests {
    func expectWorking(_ pair: inout Pair) throws {
        #expect(try pair.bobOpens(pair.aliceSeals("after resync")) == "after resync")
        #expect(try pair.aliceOpens(pair.bobSeals("confirmed")) == "confirmed")
    }

    @Test func handshakeInTwoMessagesOnceTheOperatorAccepts() throws {
        var pair = Pair()
        _ = try pair.aliceSeals("lost forever")  // Bob never sees it; chains drift apart.
        let start = pair.alice.startingResync(using: &pair.rng)
        pair.alice = start.session
        #expect(pair.alice.isResyncPending)
        #expect(start.message.unicodeScalars.count == 160)
        let before = pair.bob
        let request = try pair.bobHandles(start.message)
        #expect(request.outcome == .requested && request.reply == nil && request.epoch == 1)
        // Kept, not applied: Bob's keys are those of before, the request and its code are all that changed.
        #expect(pair.bob.epoch == 0 && pair.bob.send == before.send && pair.bob.receive == before.receive)
        #expect(pair.bob.resyncRequest?.code == pair.alice.pendingResyncCode)
        #expect(pair.bob.resyncRequest?.code.count == 7)
        let reply = try pair.bobAccepts()
        #expect(pair.bob.resyncRequest == nil && pair.bob.epoch == 1)
        let done = try pair.aliceHandles(reply)
        #expect(done.outcome == .completed && done.reply == nil)
        #expect(!pair.alice.isResyncPending && pair.alice.epoch == 1 && pair.bob.epoch == 1)
        #expect(pair.alice.lastResync == CompletedResync(epoch: 1, completedAt: pair.now))
        #expect(pair.bob.lastResync == CompletedResync(epoch: 1, completedAt: pair.now))
        try expectWorking(&pair)
    }

    @Test func aRejectedRequestChangesNothing() throws {
        var pair = Pair()
        let start = pair.alice.startingResync(using: &pair.rng)
        let before = pair.bob
        #expect(try pair.bobHandles(start.message).outcome == .requested)
        pair.bob = try pair.bob.rejectingResync()
        #expect(pair.bob == before)
        #expect(throws: CipherError.noResyncRequest) { try pair.bob.rejectingResync() }
        #expect(throws: CipherError.noResyncRequest) { try pair.bob.acceptingResync(now: pair.now, using: &pair.rng) }
        try expectWorking(&pair)
    }

    /// Item 3 of the hardening issue: a copy of Alice's state, once healing locked it out, cannot
    /// get new chains from Bob by itself and so cannot cut the real Alice off.
    @Test func aThiefWithAStolenStateCannotUndoHealing() throws {
        var pair = Pair()
        #expect(try pair.bobOpens(pair.aliceSeals("before the theft")) == "before the theft")
        var thief = pair.alice  // a copy of Alice's whole state, pairing secret included
        // Alice and Bob talk on; the thief misses Bob's message and is locked out (healing).
        #expect(try pair.aliceOpens(pair.bobSeals("heal")) == "heal")
        #expect(try pair.bobOpens(pair.aliceSeals("healed")) == "healed")
        let forged = try thief.sealing("from the thief", using: &pair.rng)
        #expect(throws: CipherError.self) { try pair.bob.opening(forged.ciphertext, now: pair.now, using: &pair.rng) }

        let start = thief.startingResync(using: &pair.rng)
        thief = start.session
        let bobBefore = pair.bob
        let event = try pair.bobHandles(start.message)
        #expect(event.outcome == .requested && event.reply == nil)
        #expect(pair.bob.epoch == bobBefore.epoch && pair.bob.receive == bobBefore.receive && pair.bob.send == bobBefore.send)
        // The thief's retries are duplicates of the kept request: never answered.
        #expect(throws: CipherError.duplicate) { try pair.bob.opening(start.message, now: pair.now, using: &pair.rng) }
        // The real Alice goes on as before; her code differs from the request's, so Bob's operator rejects it.
        #expect(try pair.bobOpens(pair.aliceSeals("still me")) == "still me")
        #expect(pair.alice.pendingResyncCode == nil)
        pair.bob = try pair.bob.rejectingResync()
        try expectWorking(&pair)
    }

    @Test func bothSidesStartAtOnceWithoutTheOperator() throws {
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

    /// Item 2 of the hardening issue: a replayed handshake makes this side send at most once.
    @Test func aLostAnswerIsRepairedOnceAndFurtherCopiesAreDuplicates() throws {
        var pair = Pair()
        let start = pair.alice.startingResync(using: &pair.rng)
        pair.alice = start.session
        // The first SMS is lost; the retry is the same 160 characters.
        #expect(pair.alice.pendingResyncMessage == start.message)
        #expect(pair.alice.startingResync(using: &pair.rng).message == start.message)
        #expect(try pair.bobHandles(start.message).outcome == .requested)
        let answer = try pair.bobAccepts()
        // The answer is lost too: Alice's retry gets the same answer once more.
        let again = try pair.bobHandles(start.message)
        #expect(again.outcome == .repeated && again.reply == answer)
        // Every further copy (a retry in flight, or a stranger's replay) is a duplicate, unanswered.
        let bobBefore = pair.bob
        for _ in 0..<5 {
            #expect(throws: CipherError.duplicate) { try pair.bob.opening(start.message, now: pair.now, using: &pair.rng) }
        }
        #expect(pair.bob == bobBefore)
        _ = try pair.aliceHandles(try #require(again.reply))
        // Alice's own copies of Bob's answer are duplicates too.
        #expect(throws: CipherError.duplicate) { try pair.alice.opening(answer, now: pair.now, using: &pair.rng) }
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

    @Test func replayedHandshakesOfEarlierEpochsAreRefused() throws {
        var pair = Pair()
        let first = pair.alice.startingResync(using: &pair.rng)
        pair.alice = first.session
        #expect(try pair.bobHandles(first.message).outcome == .requested)
        let reply = try pair.bobAccepts()
        _ = try pair.aliceHandles(reply)
        // The peer's answer replayed to Alice changes nothing.
        let before = pair.alice
        #expect(throws: CipherError.duplicate) { try pair.alice.opening(reply, now: pair.now, using: &pair.rng) }
        #expect(pair.alice == before)
        // A second resync; then the first epoch's messages are replays.
        try pair.resyncStartedByAlice()
        let bobBefore = pair.bob
        #expect(throws: CipherError.replayedHandshake) { _ = try pair.bob.opening(first.message, now: pair.now, using: &pair.rng) }
        #expect(throws: CipherError.replayedHandshake) { _ = try pair.alice.opening(reply, now: pair.now, using: &pair.rng) }
        #expect(pair.bob == bobBefore)
        try expectWorking(&pair)
    }

    /// Someone who holds Bob's pairing secret answers Alice's handshake first; the real Bob's
    /// answer then arrives and is reported as a conflict, not silently dropped.
    @Test func aSecondDifferentAnswerIsAConflict() throws {
        var pair = Pair()
        var impostor = pair.bob
        let start = pair.alice.startingResync(using: &pair.rng)
        pair.alice = start.session
        impostor = try impostor.opening(start.message, now: pair.now, using: &pair.rng).session
        let impostorAnswer = try impostor.acceptingResync(now: pair.now, using: &pair.rng)
        guard case .resync(let event) = impostorAnswer.opened else {
            Issue.record("no answer")
            return
        }
        #expect(try pair.aliceHandles(try #require(event.reply)).outcome == .completed)
        #expect(try pair.bobHandles(start.message).outcome == .requested)
        let realAnswer = try pair.bobAccepts()
        #expect(throws: CipherError.conflictingHandshake) { try pair.alice.opening(realAnswer, now: pair.now, using: &pair.rng) }
    }

    @Test func aRestartAbandonsThePendingHandshake() throws {
        var pair = Pair()
        let first = pair.alice.startingResync(using: &pair.rng)
        pair.alice = first.session
        let restarted = pair.alice.startingResync(restart: true, using: &pair.rng)
        pair.alice = restarted.session
        #expect(restarted.message != first.message)
        #expect(try pair.bobHandles(restarted.message).outcome == .requested && pair.bob.resyncRequest?.epoch == 2)
        // The abandoned, older handshake arriving late loses to the newer request.
        #expect(try pair.bobHandles(first.message).outcome == .superseded)
        #expect(try pair.aliceHandles(pair.bobAccepts()).outcome == .completed)
        #expect(pair.alice.epoch == 2 && pair.bob.epoch == 2)
        try expectWorking(&pair)
    }

    @Test func lateMessagesOfThePreviousEpochStillOpen() throws {
        var pair = Pair()
        let late = try pair.aliceSeals("sent before the resync")
        try pair.resyncStartedByAlice()
        #expect(pair.bob.hasRetiredChain)
        let result = try pair.bob.opening(late, now: pair.now, using: &pair.rng)
        guard case .message(let message) = result.opened else {
            Issue.record("not a message")
            return
        }
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
