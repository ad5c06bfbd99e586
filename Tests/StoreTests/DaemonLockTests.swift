import Foundation
import Testing

@testable import Store

/// One daemon per data directory, told by the kernel's lock rather than by a heartbeat.
struct DaemonLockTests {
    @Test func aHeldLockIsSeenWithItsProcessIDAndASecondAcquireFails() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemonlock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        #expect(DaemonLock.probe(directory: directory) == nil)
        let lock = try #require(try DaemonLock.acquire(directory: directory))
        #expect(DaemonLock.probe(directory: directory) == getpid())
        // flock locks belong to the open file description: a second open in this process conflicts too.
        #expect(try DaemonLock.acquire(directory: directory) == nil)
        lock.release()
        lock.release()
        #expect(DaemonLock.probe(directory: directory) == nil)
        let again = try #require(try DaemonLock.acquire(directory: directory))
        again.release()
    }

    /// This process's descriptors open on `path` (Linux's /proc/self/fd): a path of the test's
    /// own, so descriptors other tests open meanwhile do not count.
    static func descriptors(on path: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path }.count
    }

    @Test func aRefusedAcquireAndAReleaseLeaveNoDescriptorOnTheLockFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("daemonlock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(DaemonLock.fileName).path

        let lock = try #require(try DaemonLock.acquire(directory: directory))
        #expect(Self.descriptors(on: path) == 1)
        #expect(try DaemonLock.acquire(directory: directory) == nil)
        _ = DaemonLock.probe(directory: directory)
        #expect(Self.descriptors(on: path) == 1)
        lock.release()
        #expect(Self.descriptors(on: path) == 0)
        try UnlockLock.withLock(directory: directory) {
            #expect(Self.descriptors(on: directory.appendingPathComponent(UnlockLock.fileName).path) == 1)
        }
        #expect(Self.descriptors(on: directory.appendingPathComponent(UnlockLock.fileName).path) == 0)
    }

    @Test func aLockFileThatCannotBeMadeNamesTheCallThePathAndTheReason() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("daemonlock-missing-\(UUID().uuidString)")
        let path = missing.appendingPathComponent(UnlockLock.fileName).path
        #expect(throws: StoreError.configuration(
            "open \(path) failed: No such file or directory (errno 2); check that the path and its directory exist."
        )) {
            _ = try UnlockLock(directory: missing)
        }
        #expect {
            _ = try DaemonLock.acquire(directory: missing)
        } throws: { error in
            (error as? StoreError)?.category == .configuration && "\(error)".hasPrefix("open \(missing.path)/\(DaemonLock.fileName) failed: ")
        }
    }
}
