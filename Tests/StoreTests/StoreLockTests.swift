import Foundation
import TestSupport
import Testing

@testable import Store

/// The store lock: every open store holds it shared, a restore exclusive; only a restore waits,
/// briefly, for a holder that lets go at once. flock locks belong to the open file description, so stores opened in this one
/// process conflict with a restore as other processes' do.
@Suite(.blockingOffPool)
struct StoreLockTests {
    @Test func anOpenStoreKeepsARestoreOutUntilItCloses() throws {
        try TestStore.withDirectory { directory in
            let store = try directory.open()
            let second = try directory.open()
            let path = directory.url.appendingPathComponent(StoreLock.fileName).path
            #expect(FilePermissions.mode(of: path) == 0o600)
            let refusal = StoreError.inUse(.open(directory: directory.url.path))
            #expect(throws: refusal) { try StoreLock.exclusive(directory: directory.url, patience: .zero) }
            #expect(refusal.category == .busy && refusal.description.contains("Another smsgw process has the store in"))
            try store.close()
            #expect(throws: refusal) { try StoreLock.exclusive(directory: directory.url, patience: .milliseconds(200)) }
            try second.close()
            let lock = try StoreLock.exclusive(directory: directory.url)
            lock.release()
            try directory.open().close()
        }
    }

    @Test func aRestoreWaitsBrieflyForAHolderThatLetsGoAtOnce() throws {
        try TestStore.withDirectory { directory in
            let store = try directory.open()
            // A shell completion, or a one-shot command, closes its store a moment later.
            let closed = DispatchSemaphore(value: 0)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
                try? store.close()
                closed.signal()
            }
            let lock = try StoreLock.exclusive(directory: directory.url, patience: .seconds(60))
            closed.wait()
            lock.release()
        }
    }

    @Test func aRestoreKeepsEveryOpenOutUntilItEnds() throws {
        try TestStore.withDirectory { directory in
            let unlocked = try directory.unlockedStore()
            _ = try unlocked.addContact(name: "alice", number: nil, pairingCode: Data("code".utf8))
            try unlocked.close()
            #expect(GatewayStore.contactNames(inDirectory: directory.url) == ["alice"])
            let lock = try StoreLock.exclusive(directory: directory.url)
            let refusal = StoreError.inUse(.restoring(directory: directory.url.path))
            #expect(throws: refusal) { try directory.open() }
            #expect(refusal.category == .busy && refusal.description.hasSuffix("try again when it has finished."))
            #expect(GatewayStore.contactNames(inDirectory: directory.url).isEmpty)
            // The restore itself opens the store it replaces under its own lock.
            try GatewayStore.open(directory: directory.url, logger: TestStore.logger, restoring: lock).close()
            #expect(throws: refusal) { try directory.open() }
            lock.release()
            lock.release()
            #expect(GatewayStore.contactNames(inDirectory: directory.url) == ["alice"])
            try directory.open().close()
        }
    }

    @Test func completionMakesNoLockFile() throws {
        try TestStore.withDirectory { directory in
            try directory.open().close()
            let path = directory.url.appendingPathComponent(StoreLock.fileName)
            try FileManager.default.removeItem(at: path)
            _ = GatewayStore.contactNames(inDirectory: directory.url)
            #expect(!FileManager.default.fileExists(atPath: path.path))
        }
    }
}
