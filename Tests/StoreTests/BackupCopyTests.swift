import Foundation
import SystemCalls
import TestSupport
import Testing

@testable import Store

/// The copy under a backup: written in steps, locked while it is written, stoppable between
/// steps with nothing left behind.
@Suite("A backup's copy in steps")
struct BackupCopyTests {
    /// A store of about `megabytes` MiB, in `directory`.
    static func largeStore(_ directory: TemporaryDirectory, megabytes: Int) throws -> GatewayStore {
        let store = try directory.open()
        let unlocked = try store.createAccount(username: "tester", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
        try unlocked.write { tx in
            try tx.db.execute(sql: "CREATE TABLE filler (b BLOB)")
            for _ in 0..<megabytes { try tx.db.execute(sql: "INSERT INTO filler (b) VALUES (zeroblob(1048576))") }
        }
        return store
    }

    /// The names in `directory`.
    static func names(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test("A stop between two steps ends the copy: CancellationError, no file under the name, no partial file")
    func aStopBetweenStepsLeavesNothing() throws {
        let directory = TemporaryDirectory(prefix: "smsgw-copy")
        let store = try Self.largeStore(directory, megabytes: 4)
        let target = directory.root.appendingPathComponent("copies", isDirectory: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        let destination = target.appendingPathComponent("copy.sqlite")
        var steps = 0
        var partials: [[String]] = []
        #expect(throws: CancellationError.self) {
            try store.writeCopy(to: destination, pagesPerStep: 16) {
                steps += 1
                partials.append(Self.names(in: target))
                return steps == 3
            }
        }
        #expect(steps == 3)
        // Between its steps the copy was in its hidden, locked partial file, as a leftover's
        // cleaner sees it.
        let partial = try #require(partials.first?.first)
        #expect(partial.hasPrefix(".copy.sqlite.partial-") && partials.allSatisfy { $0.first == partial }, "\(partials)")
        #expect(Self.names(in: target).isEmpty, "\(Self.names(in: target))")

        // Not stopped, the same store is copied whole.
        var locked: [Bool] = []
        try store.writeCopy(to: destination, pagesPerStep: 256) {
            let name = Self.names(in: target).first { $0.hasPrefix(".copy.sqlite.partial-") } ?? "none"
            let file = try? FileDescriptor.open(target.appendingPathComponent(name).path, O_RDONLY)
            locked.append((try? file?.lock(.exclusive, waiting: false)) == false)
            return false
        }
        #expect(!locked.isEmpty && locked.allSatisfy { $0 }, "\(locked)")
        #expect(Self.names(in: target) == ["copy.sqlite"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? Int)
        #expect(size > 4 * 1_048_576)
    }
}
