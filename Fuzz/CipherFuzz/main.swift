// Mutation fuzzer for Session.opening: feeds mutated ciphertexts and random strings to sessions in
// varied states for a bounded time, and stops with a non-zero status if opening ever crashes, hangs,
// changes the state on failure, or accepts a mutated message. Texts and typed payloads of every kind
// and length are sealed; random and hostile parts go through reassembly, which must stay bounded,
// and random typed bodies through the part and acknowledgement parsers.
//   swift run -c release CipherFuzz [seconds] [seed]
import Foundation
import SMSCipher
import SplitMix

let arguments = CommandLine.arguments
let seconds = arguments.count > 1 ? Double(arguments[1]) ?? 30 : 30
let seed = arguments.count > 2 ? UInt64(arguments[2]) ?? 1 : UInt64(Date().timeIntervalSince1970)
print("CipherFuzz: \(seconds) s, seed \(seed)")
var rng = SplitMix64(seed: seed)
let now = Date(timeIntervalSince1970: 1_800_000_000)
let aliceCode = PairingCode.generate(using: &rng)
let bobCode = PairingCode.generate(using: &rng)
var alice = try Session.paired(mine: aliceCode, peer: bobCode)
var bob = try Session.paired(mine: bobCode, peer: aliceCode)
let alphabet = WireAlphabet.characters.map(Character.init)
let deadline = Date().addingTimeInterval(seconds)
var iterations = 0
var lastDelivered: String?
var failures = 0
var assembly = Reassembly()

@MainActor func fail(_ message: String) {
    failures += 1
    print("FAILURE (seed \(seed), iteration \(iterations)): \(message)")
}

while Date() < deadline && failures == 0 {
    iterations += 1
    // Keep the states moving: some messages are delivered, some lost, some answered.
    let plaintext = randomPlaintext()
    let sealed = try alice.sealing(plaintext, using: &rng)
    alice = sealed.session
    var scalars = Array(sealed.ciphertext)
    // One time in seven the mutation starts from a resync handshake alice would send (not kept).
    if rng.next() % 7 == 0 { scalars = Array(alice.startingResync(using: &rng).message) }
    switch rng.next() % 6 {
    case 0:  // one character changed
        let position = Int(rng.next() % 160)
        var replacement = alphabet[Int(rng.next() % UInt64(alphabet.count))]
        if replacement == scalars[position] { replacement = alphabet[(alphabet.firstIndex(of: replacement)! + 1) % alphabet.count] }
        scalars[position] = replacement
    case 1:  // two characters swapped
        let a = Int(rng.next() % 160)
        let b = Int(rng.next() % 160)
        if scalars[a] == scalars[b] { scalars[a] = alphabet[(alphabet.firstIndex(of: scalars[a])! + 1) % alphabet.count] }
        scalars.swapAt(a, b)
    case 2:  // truncated or extended
        scalars = rng.next() % 2 == 0 ? Array(scalars.prefix(Int(rng.next() % 160))) : scalars + [alphabet[0]]
    case 3:  // random alphabet string of random length
        scalars = (0..<Int(rng.next() % 200)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
    case 4:  // random Unicode
        scalars = (0..<Int(rng.next() % 200)).compactMap { _ in Unicode.Scalar(UInt32(rng.next() % 0x11_0000)).map(Character.init) }
    default:  // an earlier message again: a duplicate
        scalars = Array(lastDelivered ?? sealed.ciphertext)
    }
    let mutated = String(scalars)
    let before = bob
    if mutated != sealed.ciphertext {
        do {
            let result = try bob.opening(mutated, now: now, using: &rng)
            fail("a mutated message was accepted: \(result.opened)")
        } catch {
            if bob != before { fail("state changed on \(error)") }
        }
    }
    // The genuine message is then delivered, or lost one time in four (never 64 in a row in practice).
    if rng.next() % 4 != 0 {
        do {
            let opened = try bob.opening(sealed.ciphertext, now: now, using: &rng)
            bob = opened.session
            lastDelivered = sealed.ciphertext
            switch (plaintext, opened.opened) {
            case (.text(let text), .message(let message)) where message.text == text: break
            case (.typed(let payload), .typed(let typed)) where typed.payload == payload: break
            default: fail("opened \(opened.opened) for a sealed \(plaintext)")
            }
        } catch {
            fail("genuine message rejected: \(error)")
        }
    }
    if rng.next() % 3 == 0 {
        let reply = try bob.sealing("reply", using: &rng)
        bob = reply.session
        alice = (try? alice.opening(reply.ciphertext, now: now, using: &rng).session) ?? alice
    }
    fuzzTypedBodies()
    // The states the fuzzing reaches survive the store's form unchanged.
    if iterations % 64 == 0 {
        for (name, state) in [("alice", alice), ("bob", bob)] where (try? Session(stored: state.storedForm())) != state {
            fail("\(name)'s state changed through its stored form")
        }
    }
}
print("CipherFuzz: \(iterations) iterations, \(failures) failures")
exit(failures == 0 ? 0 : 1)
