import Foundation
import TestSupport
import Testing

/// Files on disk are private and hold no plaintext.
@Suite("Files on disk", .blockingOffPool)
struct PrivacyTests {
    @Test("the database and its side files are 0600 and contain no known text or secret")
    func privateFiles() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let secret = "the eagle lands at midnight by the old mill"
            let ciphertexts = try alice.encrypt([secret], for: bob)
            #expect(try bob.decrypt(ciphertexts, from: alice).lines == [secret])
            let reply = try bob.encrypt(["understood, the eagle lands"], for: alice)
            #expect(try alice.decrypt(reply, from: bob).status == 0)

            for peer in [alice, bob] {
                let directoryMode = try FileManager.default.attributesOfItem(atPath: peer.dataDir.path)[.posixPermissions] as? Int
                #expect(directoryMode == 0o700)
                let files = try FileManager.default.contentsOfDirectory(atPath: peer.dataDir.path)
                #expect(files.contains("smsgw.sqlite"))
                for file in files {
                    let path = peer.dataDir.appendingPathComponent(file).path
                    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
                    #expect(mode == 0o600, "\(file) has mode \(String(mode ?? 0, radix: 8))")
                    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                    for needle in ["eagle lands", Peer.passphrase] {
                        #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(file) contains \"\(needle)\"")
                    }
                }
            }
        }
    }

    @Test(
        "after contact remove, with another smsgw still reading, neither the database nor its -wal holds the contact's name, number or a ciphertext"
    )
    func removedContactLeavesNothing() async throws {
        try await withTemporaryDirectory { root in
            let alice = try Peer.create("alice", in: root)
            let quillon = try Peer.create("quillon-unique", in: root)
            let aliceCode = try alice.add(quillon)
            let quillonCode = try quillon.add(alice)
            _ = try alice.pair(quillon, code: quillonCode)
            _ = try quillon.pair(alice, code: aliceCode)
            try alice.expect(["contact", "edit", "quillon-unique", "--number", "+447700900456"])
            let ciphertexts = try alice.encrypt(["meet by the quillon gate"], for: quillon)
            let reply = try quillon.encrypt(["on my way"], for: alice)
            #expect(try alice.decrypt(reply, from: quillon).status == 0)

            // Another process keeps the database open (as the daemon would), so the -wal outlives
            // the remove command: only the command itself can have emptied it.
            let follower = try BackgroundSMSGW.start(["log", "--follow"], environment: alice.environment)
            defer { follower.stop() }
            try await follower.waitForOutput(containing: "on my way", timeout: 120)
            try alice.expect(["contact", "remove", "quillon-unique", "--yes"])
            let needles = ["quillon-unique", "+447700900456", "447700900456", ciphertexts[0], reply[0]]
            for file in ["smsgw.sqlite", "smsgw.sqlite-wal"] {
                guard let bytes = FileManager.default.contents(atPath: alice.dataDir.appendingPathComponent(file).path) else { continue }
                for needle in needles {
                    #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(file) still holds \(needle)")
                }
            }
        }
    }
}
