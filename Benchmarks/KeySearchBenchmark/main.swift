// The key search: what one ciphertext from a number no contact has costs, tried against N paired
// contacts on a real SQLite store, as the daemon (an SMS from a peer's new SIM) and `smsgw decrypt`
// (a misdirected paste) try it. In a release build:
//   swift run -c release KeySearchBenchmark [N ...]
// Two cases per N, with every contact tried (as `decrypt` tries them): the ciphertext opens with
// the last contact the search tries, and it opens with none (junk from a stranger); then the
// second case with the daemon's limit (KeySearch.daemonLimit contacts at most). Figures are
// recorded in docs/PERFORMANCE.md. This is not a test: nothing here asserts a time.
import Foundation
import Logging
import Operations
import SMSCipher
import SplitMix
import Store

let counts = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let sizes = counts.isEmpty ? [10, 100, 1_000, 5_000] : counts
let logger: Logger = {
    var logger = Logger(label: "key-search-benchmark")
    logger.logLevel = .error
    return logger
}()
let clock = ContinuousClock()
let now = Date()

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

/// A store with `count` paired contacts named so that the last one the search tries is the one
/// whose peer sealed `opening`; `none` is sealed by a pair this store does not know.
func makeStore(contacts count: Int, in directory: URL) throws -> (store: UnlockedStore, opening: String, none: String) {
    let store = try GatewayStore.open(directory: directory, logger: logger)
        .createAccount(username: "bench", passphrase: "key search benchmark passphrase", parameters: .minimum)
    var rng = SplitMix64(seed: UInt64(count))
    var opening = ""
    for first in stride(from: 0, to: count, by: 500) {
        try store.write { tx in
            for index in first..<min(first + 500, count) {
                let mine = PairingCode.generate(using: &rng)
                let peer = PairingCode.generate(using: &rng)
                let contact = try tx.addContact(
                    name: String(format: "c%05d", index), number: nil, pairingCode: Data(mine.grouped.utf8))
                try tx.setPaired(contact, session: Data(try Session.paired(mine: mine, peer: peer).storedForm()))
                if index == count - 1 {
                    opening = try Session.paired(mine: peer, peer: mine).sealing("from a new SIM", using: &rng).ciphertext
                }
            }
        }
    }
    let stranger = try Session.paired(mine: PairingCode.generate(using: &rng), peer: PairingCode.generate(using: &rng))
    return (store, opening, try stranger.sealing("from a stranger", using: &rng).ciphertext)
}

/// The median time of one search, in ms, and the contact it found.
func search(_ ciphertext: String, in store: UnlockedStore, limit: Int = .max, rounds: Int) throws -> (ms: Double, found: String?) {
    var rng = SplitMix64(seed: 7)
    var samples: [Double] = []
    var found: String?
    for _ in 0..<rounds {
        let start = clock.now
        found = try store.read { reader in
            try reader.contact(whoseKeysOpen: ciphertext, limit: limit, now: now, using: &rng).contact?.name
        }
        samples.append(milliseconds(clock.now - start))
    }
    return (samples.sorted()[samples.count / 2], found)
}

/// The median time, in ms, of only reading every contact's keys as a search does: the row, the
/// decryption under the data key and the decoding of the state.
func readKeys(in store: UnlockedStore, rounds: Int) throws -> Double {
    var samples: [Double] = []
    for _ in 0..<rounds {
        let start = clock.now
        let count = try store.read { reader in
            try reader.contactsWithKeys(mostRecentlyActiveFirst: .max).contacts.compactMap { try reader.loadSession(for: $0) }.count
        }
        samples.append(milliseconds(clock.now - start))
        guard count > 0 else { fatalError("no keys read") }
    }
    return samples.sorted()[samples.count / 2]
}

#if DEBUG
    let build = "debug build: use -c release for figures"
#else
    let build = "release build"
#endif
print("Key search for a ciphertext from a number no contact has, median of the rounds shown (\(build)):")
print(
    "contacts  rounds  opens with the last: ms (per contact µs)   opens with none: ms (per contact µs)   daemon's limit: ms   reading the keys: ms"
)
for count in sizes {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-key-search-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (store, opening, none) = try makeStore(contacts: count, in: directory)
    let rounds = max(3, 1_000 / count)
    let last = try search(opening, in: store, rounds: rounds)
    let nobody = try search(none, in: store, rounds: rounds)
    let limited = try search(none, in: store, limit: KeySearch.daemonLimit, rounds: rounds)
    let keys = try readKeys(in: store, rounds: rounds)
    guard last.found == String(format: "c%05d", count - 1), nobody.found == nil else { fatalError("the search found the wrong contact") }
    print(
        String(
            format: "%8d  %6d  %14.1f (%6.1f)  %26.1f (%6.1f)  %19.1f  %20.1f", count, rounds, last.ms, last.ms * 1e3 / Double(count),
            nobody.ms, nobody.ms * 1e3 / Double(count), limited.ms, keys))
}
