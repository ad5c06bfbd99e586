import Foundation
import SplitMix
import Testing

@testable import SMSCipher

/// Bounded fuzzing inside the test run; the CipherFuzz executable runs the same loop for longer.
@Suite struct FuzzTests {
    @Test func randomStringsOfEveryLengthNeverCrashOrChangeState() throws {
        var rng = SplitMix64.replayable()
        var pair = Pair(seed: rng.next())
        _ = try pair.bobOpens(pair.aliceSeals("state with history"))
        let alphabet = WireAlphabet.characters.map { Character($0) }
        let before = pair.bob
        for length in 0...200 {
            // Strings of the ciphertext alphabet, of any characters, and of random scalars.
            let fromAlphabet = String((0..<length).map { _ in alphabet.randomElement(using: &rng)! })
            let anything = String((0..<length).compactMap { _ in Unicode.Scalar(UInt32(rng.next() % 0x11_0000)).map(Character.init) })
            for input in [fromAlphabet, anything] {
                #expect(throws: CipherError.self) { _ = try pair.bob.opening(input, now: pair.now, using: &pair.rng) }
            }
        }
        #expect(pair.bob == before)
    }

    @Test func randomStatesNeverCrash() throws {
        var rng = SplitMix64.replayable()
        var pair = Pair(seed: rng.next())
        let ciphertext = try pair.aliceSeals("hello")
        for _ in 0..<200 {
            var state = pair.bob
            state.receive.position = UInt32.random(in: 0...UInt32.max, using: &rng)
            state.send.fresh.count = UInt32.random(in: 0...UInt32.max, using: &rng)
            state.peerReference = UInt32.random(in: 0...UInt32.max, using: &rng)
            state.epoch = UInt32.random(in: 0...UInt32.max, using: &rng)
            if rng.next() % 2 == 0 { state.resync.pending = .init(epoch: state.epoch &+ 1, nonce: Session.nonce(using: &rng)) }
            if rng.next() % 2 == 0 { state.resync.requested = .init(epoch: state.epoch &+ 1, nonce: Session.nonce(using: &rng)) }
            _ = try? state.opening(ciphertext, now: pair.now, using: &rng)
            _ = try? state.sealing("reply", using: &rng)
            _ = state.startingResync(using: &rng)
            _ = state.startingResync(restart: true, using: &rng)
            _ = try? state.acceptingResync(now: pair.now, using: &rng)
            _ = try? state.rejectingResync()
        }
    }
}
