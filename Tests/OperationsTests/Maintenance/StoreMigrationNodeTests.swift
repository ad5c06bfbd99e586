import Foundation
import Operations
import Store
import Synchronization
import TestSupport
import Testing

/// `smsgw store migrate` when a node starts on the source while the copy runs: its writes wait
/// until the move is recorded, and the copy's last step checks the nodes again, so the source is
/// never recorded as moved with a node up on it.
@Suite("Store migration with a node starting meanwhile", .dedicatedExecutor)
struct StoreMigrationNodeTests {
    @Test(
        "A node starting during the copy waits for the record of the move and then finds it (or its wait runs out); the copy completes",
        arguments: StoreBackendKind.allCases)
    func nodeStartedDuringTheCopy(backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { location, gateway, unlocked in
            try TestStore.withDirectory { other in
                let target = try GatewayStore.open(directory: other.url, logger: TestStore.logger)
                var node = GatewayNode(name: "north")
                node.place = "north-host:/var/lib/smsgw"
                let north = node
                let late = LateNode()
                var started = false
                let report = try StoreMigration.copy(from: unlocked, to: target) { _ in
                    guard !started else { return }
                    started = true
                    DispatchQueue.global().async {
                        let outcome = Result {
                            try unlocked.write { tx in try tx.startNode(north, now: Date()) }
                            return try gateway.movedRefusal() != nil
                        }
                        late.sawRecord.withLock { $0 = outcome }
                        late.done.signal()
                    }
                }
                late.done.wait()
                #expect(report.tables.allSatisfy { $0.matches })
                #expect(try gateway.movedRefusal() != nil)
                #expect(throws: StoreError.self) { try location.open() }
                let outcome = try #require(late.sawRecord.withLock { $0 })
                switch outcome {
                case .success(let sawRecord): #expect(sawRecord)
                case .failure(let error): #expect((error as? StoreError)?.category == .busy)
                }
            }
        }
    }

    @Test(
        "A refusal at the copy's last step leaves the target incomplete, resumable, and the source unrecorded",
        arguments: StoreBackendKind.allCases)
    func refusedAtTheLastStep(backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, gateway, unlocked in
            try TestStore.withDirectory { other in
                try unlocked.write { tx in try tx.startNode(GatewayNode(name: "north"), now: Date()) }
                let target = try GatewayStore.open(directory: other.url, logger: TestStore.logger)
                try gateway.copyRows(to: target)
                var seen: [String] = []
                #expect(throws: MaintenanceError.nodesRunning(names: ["north"])) {
                    try gateway.completeMove(to: target) { nodes in
                        seen = nodes.map(\.name)
                        throw MaintenanceError.nodesRunning(names: seen)
                    }
                }
                #expect(seen == ["north"])
                #expect(try gateway.movedRefusal() == nil)
                // Still a copy under way: a copy run again resumes it instead of refusing a full target.
                #expect(try gateway.copy(to: target).allSatisfy { $0.matches })
                try gateway.completeMove(to: target) { _ in }
                let refusal = try #require(try gateway.movedRefusal())
                #expect(refusal.category == .configuration && refusal.description.contains("is an old copy"))
            }
        }
    }

    /// A second node's start as a daemon makes it: its claim, then a look for the record.
    final class LateNode: Sendable {
        let lockHeld = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        /// Whether the look after the claim found the record of the move.
        let sawRecord = Mutex<Result<Bool, any Error>?>(nil)
    }

    /// The last step's check and record are one transaction that keeps nodes' writes waiting: a
    /// node claiming its row meanwhile commits only after the record, which it then finds.
    @Test("On PostgreSQL a node claiming its row during the last step waits for the record of the move, then finds it")
    func claimWaitsForTheRecord() throws {
        let cluster = try requirePostgres()
        try TestStore.withAccount(on: .postgresql) { location, gateway, _ in
            try TestStore.withDirectory { other in
                let target = try GatewayStore.open(directory: other.url, logger: TestStore.logger)
                try gateway.copyRows(to: target)
                let node = try location.open().unlock(passphrase: TestStore.passphrase)
                let late = LateNode()
                DispatchQueue.global().async {
                    late.lockHeld.wait()
                    let outcome = Result {
                        _ = try node.write { tx in try tx.claimNode(GatewayNode(name: "late"), now: Date()) }
                        return try node.gateway.movedRefusal() != nil
                    }
                    late.sawRecord.withLock { $0 = outcome }
                    late.done.signal()
                }
                let database = try #require(location.address).database
                var waited = false
                try gateway.completeMove(to: target) { _ in
                    late.lockHeld.signal()
                    // Until the claim either waits on a lock or is done (the give-up bound only keeps a broken run from hanging).
                    let giveUp = Date().addingTimeInterval(120)
                    while late.sawRecord.withLock({ $0 == nil }) && Date() < giveUp {
                        let waiting = try cluster.psql(
                            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'")
                        if waiting.first != "0" {
                            waited = true
                            return
                        }
                        Thread.sleep(forTimeInterval: 0.05)
                    }
                }
                late.done.wait()
                #expect(waited)
                #expect(try late.sawRecord.withLock { $0 }?.get() == true)
            }
        }
    }
}
