import Foundation
import Testing

/// Files on disk are private and hold no plaintext.
@Suite("Files on disk")
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
}
