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

    /// The stop is the cancellation of the group's task, sent from the copy's own thread while
    /// the copy is between its first two steps, so nothing here waits on the test's scheduling: a
    /// poll of the test's task for the first step, then a stop sent from it, depended on a
    /// thread of Swift's pool to wake it, and a full run starved the pool past the minute the
    /// copy waited (the copy then ran to its end). Cancellation reaches the copy on the
    /// cancelling thread (the keeper runs in `cancelWhenGracefulShutdown`), as a daemon's stop does.
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
        let partialDuringCopy = Atomic<Bool>(false)
        let running = Mutex<Task<Void, any Error>?>(nil)
        let keeper = BackupKeeper(store: rig.store.gateway, directory: directory, settings: settings, ledger: ledger, logger: logger) {
            stopping in
            guard steps.add(1, ordering: .sequentiallyConsistent).newValue == 1 else { return }
            // After the first step, on the keeper's thread: the partial copy is there; the stop
            // is sent from here and must have reached the copy before it goes on. The waits are
            // bounded so that a stop that never arrives fails the test instead of holding the run.
            partialDuringCopy.store(Self.hidden(in: directory).contains { $0.contains(".partial-") }, ordering: .sequentiallyConsistent)
            let limit = Date().addingTimeInterval(60)
            while running.withLock({ $0 }) == nil, Date() < limit { usleep(1000) }
            running.withLock { $0 }?.cancel()
            while !stopping.isSet, Date() < limit { usleep(1000) }
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [keeper], gracefulShutdownSignals: [], logger: quietLogger("smsgw.gateway.test")))
        let task = Task(executorPreference: DedicatedExecutor.current) { try await group.run() }
        running.withLock { $0 = task }
        try await task.value

        let partialSeen = partialDuringCopy.load(ordering: .sequentiallyConsistent)
        #expect(partialSeen, "no partial copy while the copy ran")
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
