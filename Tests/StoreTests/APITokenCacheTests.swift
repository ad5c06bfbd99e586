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
            let cache = APITokenCache(gateway: gateway)
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

    @Test("On PostgreSQL the tokens are kept while the node hears the other nodes, and another node's revocation is seen once it commits")
    func keptBetweenNodesOnPostgres() async throws {
        let location = try location(.postgresql)
        let (_, first) = try location.unlockedStore()
        let gateway = try location.open()
        let second = try gateway.unlock(passphrase: TestStore.passphrase)
        try first.write { try $0.addAPIToken(record("first")) }
        // A long ceiling: a kept token is read again on a commit here, not because time passed.
        let cache = APITokenCache(gateway: gateway, longestKept: .seconds(3600))
        let reads = Mutex(0)
        func check() throws -> [String] {
            try cache.tokens {
                reads.withLock { $0 += 1 }
                return try second.read { try $0.apiTokens() }
            }
            .map(\.name)
        }
        // Not listening for the other nodes (a command's process): read at every check.
        #expect(try check() == ["first"] && check() == ["first"])
        #expect(reads.withLock { $0 } == 2)

        let notices = try #require(gateway.notices(logger: TestStore.logger))
        let listening = Task { await notices.run {} }
        defer { listening.cancel() }
        try await waitFor("the listener to connect") { gateway.commits.hearsOtherNodes }
        #expect(try check() == ["first"] && check() == ["first"] && check() == ["first"])
        #expect(reads.withLock { $0 } == 3)

        // Revoked on the other node: refused once its commit is heard, by a read of the tokens.
        try first.write { tx in _ = try tx.removeAPIToken(named: "first") }
        try await waitFor("the revocation") { try check().isEmpty }
        #expect(try check().isEmpty)
        #expect(reads.withLock { $0 } == 4)

        // A listener that stopped: read at every check again.
        listening.cancel()
        await listening.value
        #expect(try check().isEmpty && check().isEmpty)
        #expect(reads.withLock { $0 } == 6)
    }

    @Test("On PostgreSQL kept tokens are read again after the longest they are kept")
    func keptNoLongerThanTheCeiling() async throws {
        let location = try location(.postgresql)
        let (gateway, store) = try location.unlockedStore()
        let cache = APITokenCache(gateway: gateway, longestKept: .zero)
        let notices = try #require(gateway.notices(logger: TestStore.logger))
        let listening = Task { await notices.run {} }
        defer { listening.cancel() }
        try await waitFor("the listener to connect") { gateway.commits.hearsOtherNodes }
        let reads = Mutex(0)
        for _ in 0..<3 {
            _ = try cache.tokens {
                reads.withLock { $0 += 1 }
                return try store.read { try $0.apiTokens() }
            }
        }
        #expect(reads.withLock { $0 } == 3)
    }
}
