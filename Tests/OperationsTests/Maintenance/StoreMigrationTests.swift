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
                let report = try StoreMigration.copy(from: unlocked, to: target) { _ in }
                #expect(report.tables.allSatisfy { $0.matches })
                #expect(
                    report.source.hasPrefix("sqlite ") && report.target.hasSuffix(other.url.appendingPathComponent("smsgw.sqlite").path))
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
