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
}
