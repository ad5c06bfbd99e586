import Foundation
import Operations
import Store
import TestSupport
import Testing

/// Backups and pruning the message log through the application layer.
@Suite("Maintenance")
struct MaintenanceTests {
    @Test("A backup of a data directory without a database is refused and creates none")
    func backupNeedsADatabase() throws {
        try TestStore.withDirectory { directory in
            let destination = directory.url.deletingLastPathComponent().appendingPathComponent("copy.sqlite")
            let missing = directory.url.appendingPathComponent(GatewayStore.databaseFileName).path
            #expect(throws: MaintenanceError.noDatabase(path: missing)) {
                _ = try DatabaseBackup.write(dataDirectory: directory.url, to: destination, logger: TestStore.logger)
            }
            #expect(MaintenanceError.noDatabase(path: missing).category == .notFound)
            #expect(!FileManager.default.fileExists(atPath: directory.url.path))
        }
    }

    @Test("A backup is a complete copy, 0600, that unlocks with the passphrase and never overwrites a file")
    func backupCopies() throws {
        try TestStore.withAccount { directory, _, store in
            _ = try Account.rename(store, to: "before the backup")
            try TestStore.withDirectory { copy in
                try FileManager.default.createDirectory(
                    at: copy.url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                let destination = copy.url.appendingPathComponent(GatewayStore.databaseFileName)
                let outcome = try DatabaseBackup.write(dataDirectory: directory.url, to: destination, logger: TestStore.logger)
                #expect(outcome.destination == destination && outcome.source.lastPathComponent == GatewayStore.databaseFileName)
                let mode = try FileManager.default.attributesOfItem(atPath: destination.path)[.posixPermissions] as? Int
                #expect(mode == 0o600)
                let restored = try Login.begin(copy.open(), now: Date()).unlock(passphrase: TestStore.passphrase, code: nil, now: Date())
                #expect(restored.username == "before the backup")
                #expect(throws: StoreError.self) {
                    _ = try DatabaseBackup.write(dataDirectory: directory.url, to: destination, logger: TestStore.logger)
                }
            }
        }
    }

    @Test("Pruning deletes what was logged before now minus the days, and refuses a negative age")
    func prune() throws {
        try TestStore.withAccount { _, _, store in
            let now = Date(timeIntervalSince1970: 1_900_000_000)
            try store.write { tx in
                for age in [0.0, 1, 3, 10] {
                    _ = try tx.appendLog(
                        NewLogEntry(
                            time: now - age * 86_400 - 1, direction: .incoming, contact: nil, remoteNumber: "+15550001",
                            status: .plain, text: "logged \(age) days ago"))
                }
            }
            #expect(throws: MaintenanceError.negativeAge(days: -1)) { _ = try LogRetention.prune(store, olderThanDays: -1, now: now) }
            let outcome = try LogRetention.prune(store, olderThanDays: 2, now: now)
            #expect(outcome.deleted == 2 && outcome.writeAheadLogEmptied)
            #expect(outcome.cutoff == now - 2 * 86_400)
            let texts = try store.read { try $0.log() }.compactMap(\.text)
            #expect(Set(texts) == ["logged 0.0 days ago", "logged 1.0 days ago"])
            #expect(try LogRetention.prune(store, olderThanDays: 0, now: now).deleted == 2)
        }
    }
}
