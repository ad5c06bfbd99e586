import Foundation
import Logging
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// An automatic backup into a directory whose disk is really full: a tmpfs of 512 KiB under a
/// store of several MiB, so the kernel refuses the copy's writes (`ENOSPC`).
@Suite("Automatic backups on a full disk", .serialized)
struct BackupKeeperDiskFullTests {
    /// Runs `/bin/mount` or `/bin/umount` with `arguments`; its exit status.
    static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process.waitForExit().status
    }

    /// A rig whose store holds over 4 MiB, and `outside/backups` with a tmpfs of 512 KiB mounted
    /// on it; unmount it when done. Nil, said on stdout, where even root may not mount (a container
    /// without CAP_SYS_ADMIN): a full disk cannot be set up there.
    static func rig(fullDiskIn outside: TemporaryDirectory) async throws -> (MemoryRig, URL)? {
        let rig = try await MemoryRig.make()
        for _ in 0..<4 { try rig.writeFiller(bytes: 1_048_576) }
        let directory = outside.root.appendingPathComponent("backups", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        guard try run("/bin/mount", ["-t", "tmpfs", "-o", "size=512k,mode=0700", "tmpfs", directory.path]) == 0 else {
            print("BackupKeeperDiskFullTests: this machine refuses to mount a tmpfs, so a full disk cannot be made here; not run.")
            return nil
        }
        return (rig, directory)
    }

    @Test(
        "The failure says the backup directory's disk is full, is logged once, shows in the status, is retried, and leaves no partial file")
    func aFullDiskFailsInItsOwnWords() async throws {
        // Only root mounts a file system; elsewhere a full disk cannot be set up.
        guard geteuid() == 0 else { return }
        let outside = TemporaryDirectory(prefix: "smsgw-backups")
        guard let (rig, directory) = try await Self.rig(fullDiskIn: outside) else { return }
        defer { _ = try? Self.run("/bin/umount", [directory.path]) }
        let lines = CapturingLogHandler.Lines()
        let logger = Logger(label: "smsgw.gateway.test") { _ in CapturingLogHandler(store: lines) }
        let (gateway, live) = try BackupKeeperTests.gateway(rig, backups: directory, interval: 1, logger: logger)
        let task = Task { try await gateway.run() }

        // Tried again at each due time (every second here), each attempt failing the same way.
        #expect(
            await eventually(timeout: MemoryRig.patience) {
                try (live()?.read(now: Date()).backup.status?.consecutiveFailures ?? 0) >= 3
            })
        let failed = try #require(live()?.read(now: Date()).backup.status)
        let reason = try #require(failed.lastError)
        #expect(
            reason.hasPrefix("The automatic backup smsgw-") && reason.contains("could not be written in \(directory.path)")
                && reason.contains("database or disk is full") && reason.hasSuffix("its disk is full: free space on it."), "\(reason)")
        // Not the words of a backup an operator asked for, nor those of the store's own disk.
        #expect(!reason.contains("data directory") && !reason.contains("choose"), "\(reason)")
        #expect(failed.lastSuccessAt == nil && failed.nextDueAt != nil)
        let warning = try #require(failed.warning)
        #expect(warning.contains("automatic backups to \(directory.path) failed: \(reason) There is none yet"), "\(warning)")
        let errors = lines.all.filter { $0.hasPrefix("error Automatic backup failed") }
        #expect(errors.count == 1 && errors.first?.contains("database or disk is full") == true, "\(errors)")

        await gateway.shutdown()
        try await task.value
        // Every attempt removed what it had written: the file system is empty again.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("A backup an operator asks for onto a full disk says the backup's disk is full, not the data directory's")
    func aManualBackupNamesItsOwnDisk() async throws {
        guard geteuid() == 0 else { return }
        let outside = TemporaryDirectory(prefix: "smsgw-backup")
        guard let (rig, directory) = try await Self.rig(fullDiskIn: outside) else { return }
        defer { _ = try? Self.run("/bin/umount", [directory.path]) }
        let destination = directory.appendingPathComponent("copy.sqlite")

        let error = #expect(throws: BackupWriteError.self) {
            try DatabaseBackup.write(dataDirectory: rig.directory.url, to: destination, logger: quietLogger("smsgw.test"))
        }
        let sentence = try #require(error).description
        #expect(
            sentence.hasPrefix("The backup \(destination.path) could not be written (") && sentence.contains("database or disk is full")
                && sentence.hasSuffix("; its disk is full: free space on it, then try again."), "\(sentence)")
        #expect(!sentence.contains("data directory"), "\(sentence)")
        #expect(try #require(error).category == StoreError.database("", cause: .full).category)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
