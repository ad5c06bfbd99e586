import Foundation
import Operations
import Store
import TestSupport
import Testing

/// `smsgw store migrate` through the application layer: what it refuses before copying.
@Suite("Store migration")
struct StoreMigrationTests {
    @Test("A copy is refused while a daemon holds the source's lock, and the target stays empty")
    func refusedWhileTheDaemonRuns() throws {
        try TestStore.withAccount { directory, _, unlocked in
            try TestStore.withDirectory { other in
                let target = try GatewayStore.open(directory: other.url, logger: TestStore.logger)
                let daemon = try #require(try DaemonLock.acquire(directory: directory.url))
                #expect {
                    _ = try StoreMigration.copy(from: unlocked, to: target) { _ in }
                } throws: { error in
                    guard case MaintenanceError.daemonRunning(_, let pid) = error else { return false }
                    return pid == getpid() && (error as? MaintenanceError)?.category == .busy
                }
                #expect(try !target.accountExists)
                daemon.release()
                #expect(lockLetGo { DaemonLock.probe(directory: directory.url) != nil })
                let report = try StoreMigration.copy(from: unlocked, to: target) { _ in }
                #expect(report.tables.allSatisfy { $0.matches })
                #expect(
                    report.source.hasPrefix("SQLite ") && report.target.hasSuffix(other.url.appendingPathComponent("smsgw.sqlite").path))
            }
        }
    }

    @Test("After a verified copy the old SQLite store is refused, saying where it went; removing the record opens it again")
    func oldCopyRefused() throws {
        try TestStore.withAccount { directory, _, unlocked in
            try TestStore.withDirectory { other in
                let target = try GatewayStore.open(directory: other.url, logger: TestStore.logger)
                _ = try StoreMigration.copy(from: unlocked, to: target) { _ in }
                let record = directory.url.appendingPathComponent(GatewayStore.movedMarkerFileName).path
                let mode = try FileManager.default.attributesOfItem(atPath: record)[.posixPermissions] as? Int
                #expect(mode == 0o600)
                #expect {
                    _ = try GatewayStore.open(directory: directory.url, logger: TestStore.logger)
                } throws: { error in
                    guard case StoreError.configuration(let sentence) = error else { return false }
                    return sentence.contains("is an old copy") && sentence.contains(target.location) && sentence.contains(record)
                }
                // The copy it went to opens as before.
                #expect(try GatewayStore.open(directory: other.url, logger: TestStore.logger).accountExists)
                try FileManager.default.removeItem(atPath: record)
                #expect(try GatewayStore.open(directory: directory.url, logger: TestStore.logger).accountExists)
            }
        }
    }

    /// Migrating back from PostgreSQL leaves the database as it was, with its key states at the
    /// copy: a node or command opening it later would step ratchets the new store steps too.
    @Test("After a verified copy the old PostgreSQL store is refused, saying where it went; dropping the record opens it again")
    func oldPostgresCopyRefused() throws {
        try TestStore.withAccount(on: .postgresql) { location, _, unlocked in
            try TestStore.withDirectory { other in
                let target = try GatewayStore.open(directory: other.url, logger: TestStore.logger)
                let report = try StoreMigration.copy(from: unlocked, to: target) { _ in }
                #expect(report.tables.allSatisfy { $0.matches } && !report.tables.contains { $0.table == "store_moved" })
                #expect {
                    _ = try location.open()
                } throws: { error in
                    guard case StoreError.configuration(let sentence) = error else { return false }
                    return sentence.contains("is an old copy") && sentence.contains(target.location) && sentence.contains("store_moved")
                }
                #expect(try GatewayStore.open(directory: other.url, logger: TestStore.logger).accountExists)
                let address = try #require(location.address)
                try PostgresCluster.shared.get().psql("DROP TABLE store_moved", database: address.database)
                #expect(try location.open().accountExists)
            }
        }
    }

    /// The copy holds only this data directory's daemon lock: a node of a PostgreSQL store on
    /// another machine would go on sending from the old store, with keys the copy uses too.
    @Test("A copy is refused while another node is up on the store; this directory's own ended run does not count")
    func refusedWhileAnotherNodeIsUp() throws {
        try TestStore.withAccount(on: .postgresql) { location, _, unlocked in
            try TestStore.withDirectory { other in
                var elsewhere = GatewayNode(name: "north")
                elsewhere.place = "north-host:/var/lib/smsgw"
                var here = GatewayNode(name: "south")
                here.place = Daemon.place(of: location.directory.url)
                try unlocked.write { tx in
                    try tx.startNode(elsewhere, now: Date())
                    try tx.startNode(here, now: Date())
                }
                let target = try GatewayStore.open(directory: other.url, logger: TestStore.logger)
                #expect(throws: MaintenanceError.nodesRunning(names: ["north"])) {
                    _ = try StoreMigration.copy(from: unlocked, to: target) { _ in }
                }
                #expect(MaintenanceError.nodesRunning(names: ["north"]).category == .busy)
                #expect(try !target.accountExists)
                try unlocked.write { try $0.stopNode(named: "north", now: Date()) }
                #expect(try StoreMigration.copy(from: unlocked, to: target) { _ in }.tables.allSatisfy { $0.matches })
            }
        }
    }

    @Test("A store is never copied onto itself")
    func notOntoItself() throws {
        try TestStore.withAccount { directory, _, unlocked in
            let again = try GatewayStore.open(directory: directory.url, logger: TestStore.logger)
            #expect(throws: MaintenanceError.sameStore(location: again.location)) {
                _ = try StoreMigration.copy(from: unlocked, to: again) { _ in }
            }
        }
    }
}
