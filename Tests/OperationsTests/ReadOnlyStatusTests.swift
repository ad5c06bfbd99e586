import Foundation
import GRDB
import Operations
import TestSupport
import Testing

@testable import Store

/// The status of a store opened read-only says so (and why), as backup does, not only a write
/// that is refused; a writable store's says nothing of it.
struct ReadOnlyStatusTests {
    @Test func theStatusOfAReadOnlyStoreSaysItIsReadOnlyAndWhy() throws {
        try TestStore.withDirectory { directory in
            let writable = try directory.unlockedStore()
            let status = try GatewayStatus.current(in: directory.url, now: Date()) { writable }
            #expect(status.storeReadOnly == nil)
            #expect(try !OperationsJSON.string(status).contains("storeReadOnly"))
            try writable.close()
            // As a stopped daemon leaves it: the last connection folds the -wal in.
            try DatabaseQueue(path: directory.url.appendingPathComponent(GatewayStore.databaseFileName).path).close()

            let store = try GatewayStore.open(
                directory: directory.url, logger: TestStore.logger, lockoutPolicy: .standard, creating: false,
                forcingReadOnly: .fileSystem)
            defer { try? store.close() }
            let opened = try store.unlock(passphrase: TestStore.passphrase)
            let readOnly = try GatewayStatus.current(in: directory.url, now: Date()) { opened }
            #expect(readOnly.storeReadOnly == .fileSystem)
            let json = try OperationsJSON.string(readOnly)
            #expect(json.contains("\"storeReadOnly\":\"fileSystem\""), "\(json)")
        }
    }
}
