import Foundation
import TestSupport
import Testing

@testable import Store

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The data directory and its files are checked, not trusted")
struct DataDirectoryTests {
    /// The configuration sentence `open` refused with, or nil when it did not refuse.
    func refusal(_ directory: TemporaryDirectory) -> String? {
        do {
            _ = try directory.open()
            return nil
        } catch StoreError.configuration(let message) {
            return message
        } catch {
            return "\(error)"
        }
    }

    @Test("A directory others may write to is refused with the chmod that fixes it")
    func writableByOthers() throws {
        let directory = TemporaryDirectory()
        _ = try directory.open()
        for mode: mode_t in [0o777, 0o720, 0o702] {
            chmod(directory.url.path, mode)
            let message = try #require(refusal(directory))
            #expect(message.contains("writable by other users") && message.contains("chmod 700 \(directory.url.path)"))
        }
        chmod(directory.url.path, 0o750)
        #expect(refusal(directory) == nil)
    }

    @Test("A directory owned by another user is refused with the chown that fixes it")
    func ownedByAnotherUser() throws {
        let directory = TemporaryDirectory()
        _ = try directory.open()
        // Only root can give a directory away; elsewhere this case cannot be set up.
        guard geteuid() == 0 else { return }
        #expect(chown(directory.url.path, 65534, 65534) == 0)
        let message = try #require(refusal(directory))
        #expect(message.contains("belongs to another user") && message.contains("chown"))
    }

    @Test("A symbolic link in place of the database, a side file or a lock file is refused, not followed")
    func symbolicLinks() throws {
        for name in [GatewayStore.databaseFileName, GatewayStore.databaseFileName + "-wal", UnlockLock.fileName] {
            let directory = TemporaryDirectory()
            do { _ = try directory.open() }
            let target = directory.url.deletingLastPathComponent().appendingPathComponent("elsewhere")
            let path = directory.url.appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path) {
                try FileManager.default.moveItem(atPath: path, toPath: target.path)
            } else {
                _ = FileManager.default.createFile(atPath: target.path, contents: nil)
            }
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target.path)
            let message = try #require(refusal(directory), "\(name)")
            #expect(message.contains("symbolic link"), "\(name): \(message)")
        }
    }

    @Test("The unlock lock file is opened without following a link planted after the checks")
    func unlockLockNoFollow() throws {
        let directory = TemporaryDirectory()
        _ = try directory.open()
        let target = directory.url.deletingLastPathComponent().appendingPathComponent("target")
        _ = FileManager.default.createFile(atPath: target.path, contents: nil)
        try FileManager.default.createSymbolicLink(
            atPath: directory.url.appendingPathComponent(UnlockLock.fileName).path, withDestinationPath: target.path
        )
        #expect(throws: StoreError.self) { _ = try UnlockLock(directory: directory.url) }
    }
}
