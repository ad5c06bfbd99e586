import Foundation
import Logging
import Operations
import ServiceLifecycle
import Store
import Synchronization
import SystemCalls
import TestSupport
import Testing

@testable import Gateway

/// The automatic backups at the edges of a run: what a killed daemon left is cleared when the
/// next starts, and a stop during a copy ends the copy instead of waiting for it.
@Suite("Automatic backups across a stop")
struct BackupKeeperStopTests {
    /// The hidden names in `directory`.
    static func hidden(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix(".") }.sorted()
    }

    @Test("At start-up the partial copy a killed daemon left goes, one another process is writing stays")
    func leftoversGoAtStart() async throws {
        let rig = try await MemoryRig.make()
        let outside = TemporaryDirectory(prefix: "smsgw-backups")
        let directory = outside.root.appendingPathComponent("backups", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // A backup from a minute ago: none is due at start-up, so only the start clears leftovers.
        let recent = AutomaticBackups.fileName(at: Date().addingTimeInterval(-60))
        try Data("an earlier run's backup\n".utf8).write(to: directory.appendingPathComponent(recent))
        let killed = ".\(AutomaticBackups.fileName(at: Date().addingTimeInterval(-7200))).partial-0A1B2C3D"
        let writing = ".\(AutomaticBackups.fileName(at: Date().addingTimeInterval(-3600))).partial-DEADBEEF"
        let old = Date().addingTimeInterval(-(AutomaticBackups.leftoverAge + 600))
        for name in [killed, killed + "-journal", writing] {
            let path = directory.appendingPathComponent(name).path
            try Data("half a copy\n".utf8).write(to: URL(fileURLWithPath: path))
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
        }
        let writer = try FileDescriptor.open(directory.appendingPathComponent(writing).path, O_RDWR)
        #expect(try writer.lock(.exclusive, waiting: false))
        let lines = CapturingLogHandler.Lines()
        let logger = Logger(label: "smsgw.gateway.test") { _ in CapturingLogHandler(store: lines) }
        let (gateway, live) = try BackupKeeperTests.gateway(rig, backups: directory, interval: 3600, logger: logger)
        let task = Task { try await gateway.run() }

        #expect(await eventually(timeout: MemoryRig.patience) { Self.hidden(in: directory) == [writing] }, "\(Self.hidden(in: directory))")
        #expect(await eventually(timeout: MemoryRig.patience) { try live()?.read(now: Date()).backup.status?.count == 1 })
        let notice = lines.all.filter { $0.hasPrefix("notice Removed what interrupted automatic backups left behind.") }
        #expect(notice.count == 1 && notice.first?.contains(killed + "-journal") == true, "\(notice)")
        #expect(BackupKeeperTests.backups(in: directory) == [recent])
        await gateway.shutdown()
        try await task.value
        writer.unlock()
    }

    @Test("Before each backup, leftovers that appeared since go too")
    func leftoversGoBeforeEachBackup() async throws {
        let rig = try await MemoryRig.make()
        let outside = TemporaryDirectory(prefix: "smsgw-backups")
        let directory = outside.root.appendingPathComponent("backups", isDirectory: true)
        let (gateway, _) = try BackupKeeperTests.gateway(rig, backups: directory, interval: 1, keep: 2)
        let task = Task { try await gateway.run() }
        #expect(await eventually(timeout: MemoryRig.patience) { !BackupKeeperTests.backups(in: directory).isEmpty })
        // As a `smsgw backup` killed during its copy leaves it, an hour ago.
        let path = directory.appendingPathComponent(".\(AutomaticBackups.fileName(at: Date().addingTimeInterval(-3600))).partial-00C0FFEE")
            .path
        try Data("half a copy\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: path)
        #expect(await eventually(timeout: MemoryRig.patience) { !FileManager.default.fileExists(atPath: path) })
        await gateway.shutdown()
        try await task.value
    }

    /// The stop is the cancellation of the group's task, on an executor of its own: a graceful
    /// shutdown hops through Swift's pool inside the service group, and with the pool held by the
    /// rest of a full run it reached the copy after the copy's minute was up. Cancellation reaches
    /// the copy the same way (the keeper runs in `cancelWhenGracefulShutdown`), on this thread.
    @Test(
        "A stop during a copy of a large store ends it between two steps: no backup, no partial file, no failure",
        .dedicatedExecutor)
    func aStopEndsTheCopy() async throws {
        let rig = try await MemoryRig.make()
        // 32 MiB: the copy takes eight steps of 4 MiB or more.
        for _ in 0..<32 { try rig.writeFiller(bytes: 1_048_576) }
        let outside = TemporaryDirectory(prefix: "smsgw-backups")
        let directory = outside.root.appendingPathComponent("backups", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let lines = CapturingLogHandler.Lines()
        let logger = Logger(label: "smsgw.gateway.test") { _ in CapturingLogHandler(store: lines) }
        let settings = BackupSettings(directory: directory, intervalSeconds: 3600, keep: 3)
        let ledger = BackupLedger(directory: directory, settings: settings, startedAt: Date())
        let steps = Atomic<Int>(0)
        let keeper = BackupKeeper(store: rig.store.gateway, directory: directory, settings: settings, ledger: ledger, logger: logger) {
            stopping in
            // The first step holds the copy until the stop has reached it (on a loaded machine
            // the copy could otherwise end before the test's stop is even sent). The wait holds the
            // keeper's own thread, not the pool's; it is bounded so that a stop that never arrives
            // fails the test instead of holding the run.
            guard steps.add(1, ordering: .sequentiallyConsistent).newValue == 1 else { return }
            let limit = Date().addingTimeInterval(60)
            while !stopping.isSet, Date() < limit { usleep(1000) }
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [keeper], gracefulShutdownSignals: [], logger: quietLogger("smsgw.gateway.test")))
        let running = Task(executorPreference: DedicatedExecutor.current) { try await group.run() }
        #expect(await eventually(timeout: MemoryRig.patience) { steps.load(ordering: .sequentiallyConsistent) >= 1 })
        #expect(Self.hidden(in: directory).contains { $0.contains(".partial-") }, "\(Self.hidden(in: directory))")
        running.cancel()
        try await running.value

        // It ended after the step it was in, of the eight or more it would have taken.
        #expect(steps.load(ordering: .sequentiallyConsistent) == 1)
        #expect(BackupKeeperTests.backups(in: directory).isEmpty, "the copy ran to its end")
        #expect(Self.hidden(in: directory).isEmpty, "\(Self.hidden(in: directory))")
        #expect(lines.all.contains { $0.hasPrefix("info Automatic backup stopped by the daemon's stop") }, "\(lines.all)")
        #expect(!lines.all.contains { $0.contains("Automatic backup failed") })
        let status = ledger.status(now: Date())
        #expect(status.lastError == nil && status.consecutiveFailures == 0 && status.lastFile == nil)
    }
}
