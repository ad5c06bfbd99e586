import Foundation
import Operations
import Store
import TestSupport
import Testing

/// Creating, renaming, re-keying and deleting the account through the application layer.
@Suite("Account")
struct AccountTests {
    @Test("An account is created once per data directory; a second is a conflict, said before any passphrase")
    func createOnce() throws {
        try TestStore.withDirectory { directory in
            let gateway = try directory.open()
            try Account.requireNoAccount(in: gateway)
            let store = try Account.create(
                in: gateway, username: "  field-user ", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
            #expect(store.username == "field-user")
            let exists = AccountError.accountExists(directory: gateway.directory.path)
            #expect(throws: exists) { try Account.requireNoAccount(in: gateway) }
            #expect(throws: exists) {
                _ = try Account.create(in: gateway, username: "other", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
            }
            #expect(exists.category == .conflict)
        }
    }

    @Test("A short passphrase and weak parameters are the store's invalid input")
    func refusedInput() throws {
        try TestStore.withDirectory { directory in
            let gateway = try directory.open()
            #expect(throws: StoreError.self) {
                _ = try Account.create(in: gateway, username: "u", passphrase: "short", parameters: TestStore.parameters)
            }
            let weak = Argon2Parameters(memoryKiB: 8 * 1024, iterations: 1, parallelism: 1)
            #expect(throws: StoreError.self) {
                _ = try Account.create(in: gateway, username: "u", passphrase: TestStore.passphrase, parameters: weak)
            }
            #expect(try !gateway.accountExists)
        }
    }

    @Test("Rename returns the name as stored; a new passphrase unlocks and the old one no longer does")
    func renameAndPassphrase() throws {
        try TestStore.withAccount { _, gateway, store in
            #expect(try Account.rename(store, to: " base station ") == "base station")
            try Account.preparePassphraseChange(store, rotatingDataKey: false)
            try Account.changePassphrase(store, to: "another long passphrase", rotatingDataKey: true)
            let now = Date()
            let login = try Login.begin(gateway, now: now)
            #expect(throws: StoreError.authenticationFailed(remainingAttempts: 2)) {
                _ = try login.unlock(passphrase: TestStore.passphrase, code: nil, now: now)
            }
            #expect(try login.unlock(passphrase: "another long passphrase", code: nil, now: now).username == "base station")
        }
    }

    @Test("A key rotation is refused while a daemon holds the data directory, before a passphrase is asked")
    func rotationNeedsTheDaemonStopped() throws {
        try TestStore.withAccount { _, gateway, store in
            let lock = try #require(try DaemonLock.acquire(directory: gateway.directory))
            defer { lock.release() }
            #expect(throws: StoreError.self) { try Account.preparePassphraseChange(store, rotatingDataKey: true) }
            try Account.preparePassphraseChange(store, rotatingDataKey: false)
        }
    }

    @Test("Deleting the account leaves none to log in to")
    func delete() throws {
        try TestStore.withAccount { _, gateway, store in
            try Account.delete(store)
            #expect(throws: AccountError.noAccount(directory: gateway.directory.path)) { _ = try Login.begin(gateway, now: Date()) }
            try Account.requireNoAccount(in: gateway)
        }
    }
}
