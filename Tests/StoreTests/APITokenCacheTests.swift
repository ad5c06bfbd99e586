import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Store

@Suite("The API tokens kept between requests, read again on any commit")
struct APITokenCacheTests {
    private func record(_ name: String, expires: Date? = nil) -> APITokenRecord {
        APITokenRecord(
            name: name, hash: Data(repeating: UInt8(name.count), count: 32), scopes: "send", createdAt: Date(),
            expiresAt: expires)
    }

    @Test("Another process's revocation, new token and new expiry are seen by the very next check")
    func anotherProcessesChangesAreSeenAtOnce() throws {
        try TestStore.withAccount { directory, _, daemon in
            // A second store on the same file: its own connections, as the CLI's process has.
            let command = try directory.open().unlock(passphrase: TestStore.passphrase)
            try command.write { try $0.addAPIToken(record("first")) }
            #expect(try daemon.currentAPITokens().map(\.name) == ["first"])
            #expect(try daemon.currentAPITokens().map(\.name) == ["first"])

            try command.write { tx in
                _ = try tx.removeAPIToken(named: "first")
                try tx.addAPIToken(record("second", expires: Date(timeIntervalSince1970: 1_800_000_000)))
            }
            let tokens = try daemon.currentAPITokens()
            #expect(tokens.map(\.name) == ["second"] && tokens[0].expiresAt == Date(timeIntervalSince1970: 1_800_000_000))
        }
    }

    @Test("The tokens are read once while nothing is committed, and again after any commit")
    func readsAgainOnlyAfterACommit() throws {
        try TestStore.withAccount { _, gateway, store in
            let cache = APITokenCache(path: gateway.databaseURL.path)
            let reads = Mutex(0)
            func check() throws -> [APITokenRecord] {
                try cache.tokens {
                    reads.withLock { $0 += 1 }
                    return try store.read { try $0.apiTokens() }
                }
            }
            #expect(try check().isEmpty && check().isEmpty && check().isEmpty)
            #expect(reads.withLock { $0 } == 1)
            try store.write { try $0.addAPIToken(record("new")) }
            #expect(try check().map(\.name) == ["new"] && check().map(\.name) == ["new"])
            #expect(reads.withLock { $0 } == 2)
            try store.write { tx in try tx.recordAPITokenUse(named: "new", at: Date(timeIntervalSince1970: 1_800_000_000)) }
            #expect(try check()[0].lastUsedAt == Date(timeIntervalSince1970: 1_800_000_000))
            #expect(reads.withLock { $0 } == 3)
        }
    }
}
