import Foundation
import GRDB
import Operations
import TestSupport
import Testing

@testable import Store

/// Nothing of a vault item reaches the database files in the clear, and each sealed blob opens
/// only in its own row.
@Suite("Vault at rest")
struct VaultAtRestTests {
    static let now = Date(timeIntervalSince1970: 1_900_000_000)

    /// The raw bytes of the database and its side files.
    static func files(in directory: TemporaryDirectory) -> [String: Data] {
        var files: [String: Data] = [:]
        for suffix in ["", "-wal", "-shm"] {
            let path = directory.url.appendingPathComponent(GatewayStore.databaseFileName).path + suffix
            if let data = FileManager.default.contents(atPath: path) { files[path] = data }
        }
        return files
    }

    @Test("No title, username, address, note, password, earlier password, TOTP secret or event is in the files")
    func nothingInClear() throws {
        try TestStore.withAccount { directory, store, unlocked in
            let secrets = [
                "Zanzibar Credit Union", "zanzibar-user-7731", "https://zanzibar.example/login", "vault note quokka",
                "first-Pa55word-xyzzy", "second-Pa55word-plugh", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", "curl-xyzzy",
            ]
            try Vault.add(
                VaultDraft(
                    title: secrets[0], username: secrets[1], url: secrets[2], notes: secrets[3], password: secrets[4],
                    totp: "otpauth://totp/x?secret=\(secrets[6])"), to: unlocked, now: Self.now)
            try Vault.edit(titled: secrets[0], VaultChanges(password: secrets[5]), in: unlocked, now: Self.now)
            _ = try Vault.use(titled: secrets[0], for: .exec(command: secrets[7]), in: unlocked, now: Self.now)
            for pass in ["with the WAL", "after a checkpoint"] {
                for secret in secrets + ["Zanzibar", "zanzibar"] {
                    let found = Self.files(in: directory).filter { $0.value.range(of: Data(secret.utf8)) != nil }.map(\.key)
                    #expect(found.isEmpty, "\"\(secret)\" is in \(found) \(pass)")
                }
                _ = try store.truncateWriteAheadLog()
            }
            #expect(!Self.files(in: directory).isEmpty)
        }
    }

    @Test("An item's blob copied into another row fails to open")
    func blobBoundToRow() throws {
        try TestStore.withAccount { directory, store, unlocked in
            try Vault.add(VaultDraft(title: "a", password: "pw-a"), to: unlocked, now: Self.now)
            try Vault.add(VaultDraft(title: "b", password: "pw-b"), to: unlocked, now: Self.now)
            let queue = try DatabaseQueue(path: directory.url.appendingPathComponent(GatewayStore.databaseFileName).path)
            try queue.write { db in
                try db.execute(sql: "UPDATE vault_items SET body = (SELECT body FROM vault_items ORDER BY rowid LIMIT 1)")
            }
            #expect(throws: StoreError.self) { _ = try Vault.list(in: unlocked) }
            _ = store
        }
    }

    @Test(
        "A data key rotation re-encrypts items, earlier passwords and events, and all of them read back",
        arguments: StoreBackendKind.allCases)
    func survivesKeyRotation(_ backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { directory, _, unlocked in
            try Vault.add(VaultDraft(title: "site", username: "me", password: "before-rotation-1"), to: unlocked, now: Self.now)
            try Vault.edit(titled: "site", VaultChanges(password: "before-rotation-2"), in: unlocked, now: Self.now)
            try unlocked.changePassphrase(to: TestStore.passphrase, rotatingDataKey: true)
            let reopened = try directory.open().unlock(passphrase: TestStore.passphrase)
            #expect(try Vault.item(titled: "site", reveal: true, in: reopened, now: Self.now).password == "before-rotation-2")
            let check = try Vault.edit(titled: "site", VaultChanges(password: "before-rotation-1"), in: reopened, now: Self.now).check
            #expect(check?.previouslyUsed == true)
            #expect(try Vault.log(titled: "site", in: reopened).map(\.kind) == [.created, .passwordChanged, .revealed, .passwordChanged])
        }
    }
}
