import Foundation
import TestSupport
import Testing

@testable import Store

/// One daemon per data directory, told by the kernel's lock rather than by a heartbeat.
struct DaemonLockTests {
    @Test func aHeldLockIsSeenWithItsProcessIDAndASecondAcquireFails() throws {
        let scratch = TemporaryDirectory(prefix: "daemonlock")
        let directory = scratch.root

        #expect(DaemonLock.probe(directory: directory) == nil)
        let lock = try #require(try DaemonLock.acquire(directory: directory))
        #expect(DaemonLock.probe(directory: directory) == getpid())
        // flock locks belong to the open file description: a second open in this process conflicts too.
        #expect(try DaemonLock.acquire(directory: directory) == nil)
        lock.release()
        lock.release()
        #expect(lockLetGo { DaemonLock.probe(directory: directory) != nil })
        let again = try #require(try DaemonLock.acquire(directory: directory))
        again.release()
        withExtendedLifetime(scratch) {}
    }

    @Test func aRefusedAcquireAndAReleaseLeaveNoDescriptorOnTheLockFile() throws {
        let scratch = TemporaryDirectory(prefix: "daemonlock")
        let directory = scratch.root
        let path = directory.appendingPathComponent(DaemonLock.fileName).path

        let lock = try #require(try DaemonLock.acquire(directory: directory))
        #expect(openDescriptors(on: path) == 1)
        #expect(try DaemonLock.acquire(directory: directory) == nil)
        _ = DaemonLock.probe(directory: directory)
        #expect(openDescriptors(on: path) == 1)
        lock.release()
        #expect(openDescriptors(on: path) == 0)
        try UnlockLock.withLock(directory: directory) {
            #expect(openDescriptors(on: directory.appendingPathComponent(UnlockLock.fileName).path) == 1)
        }
        #expect(openDescriptors(on: directory.appendingPathComponent(UnlockLock.fileName).path) == 0)
        withExtendedLifetime(scratch) {}
    }

    @Test func aLockFileThatCannotBeMadeNamesTheCallThePathAndTheReason() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("daemonlock-missing-\(UUID().uuidString)")
        let path = missing.appendingPathComponent(UnlockLock.fileName).path
        #expect(
            throws: StoreError.configuration(
                "open \(path) failed: No such file or directory (errno 2); check that the path and its directory exist."
            )
        ) {
            _ = try UnlockLock(directory: missing)
        }
        #expect {
            _ = try DaemonLock.acquire(directory: missing)
        } throws: { error in
            (error as? StoreError)?.category == .configuration
                && "\(error)".hasPrefix("open \(missing.path)/\(DaemonLock.fileName) failed: ")
        }
    }
}
