import Foundation
import TestSupport
import Testing

/// `smsgw restore` over a store that cannot be read: refused without consent, and with it the
/// damaged files are kept as they were.
@Suite("smsgw restore over a damaged store", .blockingOffPool)
struct RestoreDamagedStoreTests {
    @Test("a store whose pages are garbage: refused naming --replace-unreadable; with it, kept byte for byte and replaced")
    func damagedStoreReplacedWithConsent() throws {
        try withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            let backup = root.appendingPathComponent("backup.sqlite")
            try alice.expect(["backup", backup.path])
            _ = try alice.encrypt(["a text of the lost store"], for: bob)
            let database = alice.dataDir.appendingPathComponent("smsgw.sqlite")
            let wal = alice.dataDir.appendingPathComponent("smsgw.sqlite-wal")
            var bytes = try Data(contentsOf: database)
            // Page 1 stays (it still says SQLite); every page after it is overwritten.
            let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
            bytes.replaceSubrange(pageSize..<bytes.count, with: Data(repeating: 0x5A, count: bytes.count - pageSize))
            let walBytes = Data(repeating: 0x11, count: 4096)
            let damage = {
                try bytes.write(to: database)
                try walBytes.write(to: wal)
            }
            try damage()

            let refused = try alice.run(["restore", backup.path])
            #expect(refused.status == 65, "\(refused.stderr)")
            #expect(refused.stderr.contains("\(database.path) cannot be read"), "\(refused.stderr)")
            #expect(refused.stderr.contains("--replace-unreadable"), "\(refused.stderr)")
            #expect(try Data(contentsOf: database) == bytes && Data(contentsOf: wal) == walBytes, "a refused restore changed the store")
            let names = try FileManager.default.contentsOfDirectory(atPath: alice.dataDir.path)
            #expect(!names.contains { $0.contains(".replaced-") || $0.hasPrefix(".smsgw.restore-") }, "\(names)")

            let restored = try alice.expect(["restore", backup.path, "--replace-unreadable"]).stdout
            #expect(restored.contains("The replaced store could not be read; it is kept as it was"), "\(restored)")
            #expect(restored.contains("ids may repeat those it handed out"), "\(restored)")
            #expect(restored.contains("could not be read, so the epochs it reached are not known here"), "\(restored)")
            let kept = try #require(
                try FileManager.default.contentsOfDirectory(atPath: alice.dataDir.path).first {
                    $0.hasPrefix("smsgw.sqlite.replaced-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm")
                })
            let aside = alice.dataDir.appendingPathComponent(kept)
            #expect(try Data(contentsOf: aside) == bytes, "the damaged store was not kept byte for byte")
            #expect(try Data(contentsOf: URL(fileURLWithPath: aside.path + "-wal")) == walBytes, "its -wal was not kept byte for byte")
            let mode = try FileManager.default.attributesOfItem(atPath: aside.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try alice.expect(["contact", "list"]).stdout.contains("bob"))
            #expect(try !alice.expect(["log"]).stdout.contains("a text of the lost store"))

            try damage()
            let json = try alice.expect(["restore", backup.path, "--replace-unreadable", "--json"]).stdout
            for field in ["\"replacedUnreadable\":true", "\"idsContinued\":false", "\"epochsCarried\":false", "\"resync\":[\"bob\"]"] {
                #expect(json.contains(field), "\(field): \(json)")
            }
            let readable = try alice.expect(["restore", backup.path, "--replace-unreadable", "--json"]).stdout
            #expect(readable.contains("\"replacedUnreadable\":false") && readable.contains("\"idsContinued\":true"), "\(readable)")
        }
    }
}
