import Foundation
import Logging
import Operations
import Store
import Synchronization
import TestSupport
import Testing

@testable import Gateway

/// The daemon's automatic backups (`[backup]`), through a whole gateway over an in-memory modem:
/// what it writes, what it keeps and deletes, and what it says when a backup fails.
@Suite("Automatic backups of the running daemon")
struct BackupKeeperTests {
    /// A gateway over `rig`'s modem backing up into `directory` every `interval` seconds, and its
    /// live status once it runs.
    static func gateway(
        _ rig: MemoryRig, backups directory: URL?, interval: Double = 86_400, keep: Int = 7,
        logger: Logger = quietLogger("smsgw.gateway.test")
    ) throws -> (Gateway, @Sendable () -> LiveStatus?) {
        var configuration = GatewayConfiguration(
            dataDirectory: rig.directory.url, intervals: MemoryRig.fastIntervals,
            modems: [ModemSettings(name: "m1", source: .device(path: rig.modem.device, connection: "at"))])
        configuration.backup = BackupSettings(directory: directory, intervalSeconds: interval, keep: keep)
        let live = Mutex<LiveStatus?>(nil)
        let modem = rig.modem
        let gateway = try Gateway(
            store: rig.store, configuration: configuration, logger: logger, handlesSignals: false,
            makeModem: { _, _, _ in modem },
            frontEnds: { status in
                live.withLock { $0 = status }
                return []
            })
        return (gateway, { live.withLock { $0 } })
    }

    /// The names of the daemon's backups in `directory`, oldest first.
    static func backups(in directory: URL) -> [String] {
        ((try? AutomaticBackups.existing(in: directory)) ?? []).map(\.file.lastPathComponent)
    }

    @Test("Backups appear, open with the passphrase, are rotated to keep, leave others' files, and a failure shows until one works again")
    func backupsRotateAndRecover() async throws {
        let rig = try await MemoryRig.make()
        let outside = TemporaryDirectory(prefix: "smsgw-backups")
        let directory = outside.root.appendingPathComponent("backups", isDirectory: true)
        let lines = CapturingLogHandler.Lines()
        let logger = Logger(label: "smsgw.gateway.test") { _ in CapturingLogHandler(store: lines) }
        let (gateway, live) = try Self.gateway(rig, backups: directory, interval: 1, keep: 2, logger: logger)
        // Made 0700 when the gateway is built.
        let mode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let strangers = ["notes.txt", "smsgw-2020-01-01.sqlite", "smsgw-20200101-000000.sqlite.gz", "smsgw-20201399-000000.sqlite"]
        for name in strangers { try Data("someone else's\n".utf8).write(to: directory.appendingPathComponent(name)) }
        let task = Task { try await gateway.run() }

        #expect(await eventually(timeout: MemoryRig.patience) { !Self.backups(in: directory).isEmpty })
        let first = try #require(Self.backups(in: directory).first)
        let file = directory.appendingPathComponent(first)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
        // A complete store: it opens with the passphrase and holds the contact.
        let copy = TemporaryDirectory(prefix: "smsgw-backup-copy")
        try FileManager.default.createDirectory(at: copy.url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(at: file, to: copy.url.appendingPathComponent(GatewayStore.databaseFileName))
        let opened = try GatewayStore.open(directory: copy.url, logger: TestStore.logger, creating: false)
            .unlock(passphrase: TestStore.passphrase)
        #expect(try opened.contacts().map(\.name) == ["bob"])

        // Every second another; the oldest go beyond keep, the strangers stay.
        #expect(
            await eventually(timeout: MemoryRig.patience) {
                let names = Self.backups(in: directory)
                return !names.contains(first) && names.count == 2
            })
        #expect(Self.backups(in: directory).count <= 2)
        for name in strangers { #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path), "\(name)") }
        let working = try #require(live()?.read(now: Date()).backup.status)
        #expect(working.lastError == nil && working.consecutiveFailures == 0 && working.keep == 2)
        // With a 1 s interval a loaded machine may leave the newest over 2 s old: only "overdue" may warn then.
        #expect(working.warning == nil || working.overdue, "\(working.warning ?? "")")
        let lastFile = try #require(working.lastFile)
        #expect(lastFile.hasPrefix(directory.path + "/smsgw-") && working.lastSuccessAt != nil && working.nextDueAt != nil)

        // The directory goes away: the failure shows (status, banner sentence), logged as an error
        // once however often it repeats; the daemon runs on.
        try FileManager.default.removeItem(at: directory)
        #expect(
            await eventually(timeout: MemoryRig.patience) {
                try (live()?.read(now: Date()).backup.status?.consecutiveFailures ?? 0) >= 3
            })
        let errors = lines.all.filter { $0.hasPrefix("error Automatic backup failed") }
        #expect(errors.count == 1 && errors.first?.contains(directory.path) == true, "\(errors)")
        let failed = try #require(live()?.read(now: Date()).backup.status)
        #expect(failed.consecutiveFailures >= 1 && failed.lastSuccessAt != nil)
        #expect(failed.lastError?.contains(directory.path) == true, "\(failed.lastError ?? "")")
        // In the daemon's words, not those of a backup an operator asked for.
        #expect(failed.lastError?.hasSuffix("the directory is gone: make it again, or mount the disk it is on.") == true)
        let warning = try #require(failed.warning)
        #expect(warning.contains("failed") && warning.contains(directory.path))
        #expect(try OperationsJSON.string(live()?.read(now: Date())).contains("\"backup\":{\"consecutiveFailures\":"))
        #expect(FileManager.default.fileExists(atPath: directory.path) == false, "the daemon made the directory again")

        // Once it is back, the next attempt works and the error clears.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        #expect(await eventually(timeout: MemoryRig.patience) { try live()?.read(now: Date()).backup.status?.lastError == nil })
        #expect(!Self.backups(in: directory).isEmpty)
        #expect(try live()?.read(now: Date()).backup.status?.consecutiveFailures == 0)
        #expect(lines.all.contains { $0.hasPrefix("notice Automatic backups work again.") })

        await gateway.shutdown()
        try await task.value
        // Nothing of a copy is left once the daemon stopped. (While it runs, with a 1 s interval
        // on a loaded machine, the next copy's partial file may already be there.)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasPrefix(".") })
    }

    @Test("At start-up a backup younger than the interval is the last one and no new one is written")
    func aFreshBackupIsNotRepeated() async throws {
        let rig = try await MemoryRig.make()
        let outside = TemporaryDirectory(prefix: "smsgw-backups")
        let directory = outside.root.appendingPathComponent("backups", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let recent = Date().addingTimeInterval(-30)
        let name = AutomaticBackups.fileName(at: recent)
        try Data("an earlier run's backup\n".utf8).write(to: directory.appendingPathComponent(name))
        let (gateway, live) = try Self.gateway(rig, backups: directory, interval: 3600, keep: 3)
        let task = Task { try await gateway.run() }
        #expect(await eventually(timeout: MemoryRig.patience) { try live()?.read(now: Date()).backup.status?.lastFile != nil })
        let status = try #require(live()?.read(now: Date()).backup.status)
        #expect(status.lastFile == directory.appendingPathComponent(name).path)
        let due = try #require(status.nextDueAt)
        #expect(abs(due.timeIntervalSince(recent) - 3600) < 2, "due \(due), newest \(recent)")
        #expect(Self.backups(in: directory) == [name])
        // Twice the interval later it is overdue and says so.
        let late = try #require(live()?.read(now: recent.addingTimeInterval(7300)).backup.status)
        #expect(late.overdue && late.warning?.contains("over twice its interval") == true)
        await gateway.shutdown()
        try await task.value
    }

    @Test("Without [backup] nothing is written and the status's backup is null")
    func offIsNull() async throws {
        let rig = try await MemoryRig.make()
        let (gateway, live) = try Self.gateway(rig, backups: nil)
        let status = try #require(try live()?.read(now: Date()))
        #expect(status.backup.status == nil)
        #expect(try OperationsJSON.string(status).contains("\"backup\":null"))
        #expect(!gateway.services.contains { $0 is BackupKeeper })
    }
}
