import Foundation
import Testing

/// One user of smsgw with their own data directory and passphrase.
struct Peer: Sendable {
    static let passphrase = "correct horse battery staple"

    let name: String
    let dataDir: URL
    /// `SMSGW_STORE_*` variables for a peer whose store is not SQLite in its data directory.
    var storeEnvironment: [String: String] = [:]

    /// The passphrase and data directory; the HTTP API on any free loopback port, so daemons
    /// of tests that run at once never compete for the default 8640.
    var environment: [String: String] {
        ["SMSGW_PASSPHRASE": Self.passphrase, "SMSGW_DATA_DIR": dataDir.path, "SMSGW_HTTP_LISTEN": "127.0.0.1:0"]
            .merging(storeEnvironment) { $1 }
    }

    /// A new temporary data directory, account created at the minimum Argon2 cost.
    static func create(_ name: String, in root: URL, storeEnvironment: [String: String] = [:]) throws -> Peer {
        let peer = Peer(name: name, dataDir: root.appendingPathComponent(name), storeEnvironment: storeEnvironment)
        try peer.expect(["init", "--username", name, "--kdf-memory", "19", "--kdf-iterations", "2"])
        return peer
    }

    /// Runs a command as this peer.
    func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) throws -> RunResult {
        try SMSGWBinary.run(arguments, environment: environment.merging(extra) { $1 }, input: input)
    }

    /// Runs a command that must succeed and returns its result.
    @discardableResult
    func expect(_ arguments: [String], input: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws -> RunResult {
        let result = try run(arguments, input: input)
        #expect(
            result.status == 0, "smsgw \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)",
            sourceLocation: sourceLocation)
        return result
    }

    /// Adds `other` as a contact and returns this side's pairing code.
    func add(_ other: Peer) throws -> String {
        let result = try expect(["contact", "add", other.name, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["pairingCode"] as? String)
    }

    /// Pairs with `other` using their code, given on stdin as the README shows; returns the safety code.
    func pair(_ other: Peer, code: String) throws -> String {
        let result = try expect(["contact", "pair", other.name, "--json"], input: code + "\n")
        #expect(!result.stderr.contains("warning"), "contact pair warned: \(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["safetyCode"] as? String)
    }

    /// Encrypts each text for `other` in one `--lines` batch; returns the ciphertexts in order.
    func encrypt(_ texts: [String], for other: Peer, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let result = try expect(
            ["encrypt", other.name, "--lines"], input: texts.map { $0 + "\n" }.joined(), sourceLocation: sourceLocation)
        #expect(result.lines.count == texts.count, sourceLocation: sourceLocation)
        for line in result.lines { #expect(line.count == 160, sourceLocation: sourceLocation) }
        return result.lines
    }

    /// Decrypts SMS from `other` in one `--lines` batch.
    func decrypt(_ ciphertexts: [String], from other: Peer) throws -> RunResult {
        try run(["decrypt", other.name, "--lines"], input: ciphertexts.map { $0 + "\n" }.joined())
    }

    /// Two peers with accounts who added and paired each other; the safety codes must match.
    static func pairedCouple(in root: URL) throws -> (Peer, Peer) {
        let alice = try Peer.create("alice", in: root)
        let bob = try Peer.create("bob", in: root)
        let aliceCode = try alice.add(bob)
        let bobCode = try bob.add(alice)
        let aliceSafety = try alice.pair(bob, code: bobCode)
        let bobSafety = try bob.pair(alice, code: aliceCode)
        #expect(aliceSafety == bobSafety)
        #expect(aliceSafety.count == 7)
        return (alice, bob)
    }
}
