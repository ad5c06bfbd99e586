// Prints the cost of sealing and opening one message, and of storing the session, in a release build:
//   swift run -c release CipherBenchmark
// Figures are recorded in docs/PERFORMANCE.md. This is not a test: nothing here asserts a time.
//   SMSGW_SHA256_PORTABLE=1 swift run -c release CipherBenchmark   (without the SHA extensions)
import CSHA256
import Foundation
import SMSCipher
import SplitMix

if ProcessInfo.processInfo.environment["SMSGW_SHA256_PORTABLE"] == "1" { smsgw_sha256_force_portable(1) }

func microseconds(_ start: ContinuousClock.Instant, _ end: ContinuousClock.Instant, per count: Int) -> Double {
    let duration = end - start
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return seconds * 1e6 / Double(count)
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

var rng = SplitMix64(seed: 1)
let aliceCode = PairingCode.generate(using: &rng)
let bobCode = PairingCode.generate(using: &rng)
let alice0 = try Session.paired(mine: aliceCode, peer: bobCode)
let bob0 = try Session.paired(mine: bobCode, peer: aliceCode)
let now = Date()
let fullText = String(repeating: "The quick brown fox. ", count: 7).prefix(141)
let shortText = "Meet at the north gate at 6."
let clock = ContinuousClock()
let rounds = 7
let perRound = 2_000

@MainActor func benchSeal(_ text: String) throws -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        var session = alice0
        let start = clock.now
        for _ in 0..<perRound { session = try session.sealing(text, using: &rng).session }
        samples.append(microseconds(start, clock.now, per: perRound))
    }
    return median(samples)
}

/// Opens a message that sits `ahead` positions past the next expected one.
@MainActor func benchOpen(ahead: Int, fromSkipped: Bool = false) throws -> Double {
    var sender = alice0
    var ciphertexts: [String] = []
    for index in 0...ahead {
        let sealed = try sender.sealing(String(fullText), using: &rng)
        sender = sealed.session
        if index == ahead || (fromSkipped && index == 0) { ciphertexts.append(sealed.ciphertext) }
    }
    var receiver = bob0
    var target = ciphertexts.last!
    if fromSkipped {
        // Receive the last one first so the first one is a skipped key at the end of the list.
        receiver = try receiver.opening(ciphertexts.last!, now: now, using: &rng).session
        target = ciphertexts.first!
    }
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = clock.now
        for _ in 0..<(perRound / 10) { _ = try receiver.opening(target, now: now, using: &rng) }
        samples.append(microseconds(start, clock.now, per: perRound / 10))
    }
    return median(samples)
}

/// The peer keeps a resync request and its operator accepts it; returns the answer.
@MainActor func answer(_ handshake: String, by peer: inout Session) throws -> String {
    peer = try peer.opening(handshake, now: now, using: &rng).session
    let accepted = try peer.acceptingResync(now: now, using: &rng)
    peer = accepted.session
    guard case .resync(let event) = accepted.opened, let reply = event.reply else { fatalError("no resync reply") }
    return reply
}

/// The slowest message that still opens: after a resync, a late message of the old epoch at the far
/// edge of the retired chain's window, tried only after the whole current window failed.
@MainActor func benchRetiredEdge() throws -> Double {
    var sender = alice0
    var late = ""
    for _ in 0..<ProtocolConstants.window {
        let sealed = try sender.sealing(String(fullText), using: &rng)
        sender = sealed.session
        late = sealed.ciphertext
    }
    var receiver = bob0
    let start = receiver.startingResync(using: &rng)
    receiver = start.session
    let reply = try answer(start.message, by: &sender)
    receiver = try receiver.opening(reply, now: now, using: &rng).session
    var samples: [Double] = []
    for _ in 0..<rounds {
        let begin = clock.now
        for _ in 0..<(perRound / 10) { _ = try receiver.opening(late, now: now, using: &rng) }
        samples.append(microseconds(begin, clock.now, per: perRound / 10))
    }
    return median(samples)
}

@MainActor func benchReject() throws -> Double {
    let forged = try alice0.sealing("x", using: &rng).ciphertext
    let other = try Session.paired(mine: PairingCode.generate(using: &rng), peer: bobCode)
    var samples: [Double] = []
    for _ in 0..<3 {
        let start = clock.now
        for _ in 0..<20 { _ = try? other.opening(forged, now: now, using: &rng) }
        samples.append(microseconds(start, clock.now, per: 20))
    }
    return median(samples)
}

/// Encoding a session for the store and reading it back, as every message does; `binary` is the
/// stored form, otherwise the JSON that earlier versions wrote. The session carries what a busy one
/// does: a retired chain after a resync, skipped keys and a full list of recent digests.
@MainActor func benchStateRoundTrip(binary: Bool) throws -> Double {
    var sender = alice0
    var receiver = bob0
    for index in 0..<(ProtocolConstants.recentDigests + 8) {
        let sealed = try sender.sealing(String(fullText), using: &rng)
        sender = sealed.session
        if index % 8 != 3 { receiver = try receiver.opening(sealed.ciphertext, now: now, using: &rng).session }
    }
    let start = receiver.startingResync(using: &rng)
    let reply = try answer(start.message, by: &sender)
    let session = try start.session.opening(reply, now: now, using: &rng).session
    guard session.hasRetiredChain, session.skippedKeyCount > 0 else { fatalError("not the state meant") }
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    var samples: [Double] = []
    for _ in 0..<rounds {
        let begin = clock.now
        for _ in 0..<(perRound / 4) {
            let decoded =
                binary
                ? try Session(stored: Data(session.storedForm()))
                : try decoder.decode(Session.self, from: encoder.encode(session))
            guard decoded.epoch == session.epoch else { fatalError("round trip changed the state") }
        }
        samples.append(microseconds(begin, clock.now, per: perRound / 4))
    }
    return median(samples)
}

print(
    "smsgw cipher benchmark (median of \(rounds) rounds; SHA-256 on \(smsgw_sha256_uses_extensions() != 0 ? "the SHA extensions" : "portable C"))"
)
print(String(format: "seal, 141-septet text              %8.1f µs", try benchSeal(String(fullText))))
print(String(format: "seal, 28-septet text               %8.1f µs", try benchSeal(shortText)))
print(String(format: "open, expected position            %8.1f µs", try benchOpen(ahead: 0)))
print(String(format: "open, 32 ahead                     %8.1f µs", try benchOpen(ahead: 32)))
print(String(format: "open, far edge of window (63 ahead) %7.1f µs", try benchOpen(ahead: ProtocolConstants.window - 1)))
print(String(format: "open, last skipped key             %8.1f µs", try benchOpen(ahead: ProtocolConstants.window - 1, fromSkipped: true)))
print(String(format: "open, retired chain's far edge      %8.1f µs", try benchRetiredEdge()))
print(String(format: "reject a forgery (diagnostic scan) %8.1f µs", try benchReject()))
print(
    String(
        format: "session state: encode + decode, binary vs JSON %.1f vs %.1f µs",
        try benchStateRoundTrip(binary: true), try benchStateRoundTrip(binary: false)))
