import Failures
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Account, passphrase and lockout")
struct AccountTests {
    @Test("Create, then unlock with the right passphrase", arguments: StoreBackendKind.allCases)
    func createAndUnlock(_ backend: StoreBackendKind) throws {
        let (directory, store, unlocked) = try unlockedStore(on: backend)
        #expect(unlocked.username == "field-user")
        #expect(try store.accountExists)
        _ = try unlocked.addContact(name: "alice", number: nil, pairingCode: Data("code".utf8))

        let reopened = try directory.open()
        let again = try reopened.unlock(passphrase: TestStore.passphrase)
        #expect(again.username == "field-user")
        #expect(try again.contacts().map(\.name) == ["alice"])
    }

    @Test("The Argon2 parameters and a 16-byte salt are stored beside the wrapped key", arguments: StoreBackendKind.allCases)
    func parametersStored(_ backend: StoreBackendKind) throws {
        let (_, store, _) = try unlockedStore(on: backend)
        let record = try store.readTransaction { try AccountRecord.require($0) }
        #expect(record.parameters == .minimum)
        #expect(record.salt.count == 16)
        #expect(record.wrappedDataKey.count == 12 + 32 + 16)
    }

    @Test("A second account in the same database is refused", arguments: StoreBackendKind.allCases)
    func secondAccountRefused(_ backend: StoreBackendKind) throws {
        let (_, store, _) = try unlockedStore(on: backend)
        #expect(throws: StoreError.accountExists) {
            _ = try store.createAccount(username: "b", passphrase: TestStore.passphrase, parameters: TestStore.parameters)
        }
    }

    @Test("Unlocking without an account says how to create one", arguments: StoreBackendKind.allCases)
    func unlockWithoutAccount(_ backend: StoreBackendKind) throws {
        let directory = try location(backend)
        let store = try directory.open()
        #expect(throws: StoreError.noAccount) { _ = try store.unlock(passphrase: TestStore.passphrase) }
        #expect(StoreError.noAccount.category == .notFound)
        #expect(StoreError.noAccount.description.contains("create one") && !StoreError.noAccount.description.contains("smsgw"))
    }

    @Test("Parameters below the OWASP minimum, short passphrases and bad usernames are refused", arguments: StoreBackendKind.allCases)
    func invalidInputs(_ backend: StoreBackendKind) throws {
        let directory = try location(backend)
        let store = try directory.open()
        let weak = [
            Argon2Parameters(memoryKiB: 19 * 1024 - 1, iterations: 2, parallelism: 1),
            Argon2Parameters(memoryKiB: 64 * 1024, iterations: 1, parallelism: 1),
            Argon2Parameters(memoryKiB: 64 * 1024, iterations: 3, parallelism: 0),
        ]
        for parameters in weak {
            #expect(throws: StoreError.self) {
                _ = try store.createAccount(username: "a", passphrase: TestStore.passphrase, parameters: parameters)
            }
        }
        #expect(throws: StoreError.self) {
            _ = try store.createAccount(username: "a", passphrase: "short", parameters: .minimum)
        }
        #expect(throws: StoreError.self) {
            _ = try store.createAccount(username: "   ", passphrase: TestStore.passphrase, parameters: .minimum)
        }
        #expect(try store.accountExists == false)
        #expect(Argon2Parameters.default == Argon2Parameters(memoryKiB: 65536, iterations: 3, parallelism: 1))
    }

    @Test("A wrong passphrase fails authentication and counts down", arguments: StoreBackendKind.allCases)
    func wrongPassphrase(_ backend: StoreBackendKind) throws {
        let (_, store, _) = try unlockedStore(on: backend)
        #expect(throws: StoreError.authenticationFailed(remainingAttempts: 2)) {
            _ = try store.unlock(passphrase: "not the passphrase")
        }
        #expect(StoreError.authenticationFailed(remainingAttempts: 2).category == .authentication)
        // Success resets the count.
        _ = try store.unlock(passphrase: TestStore.passphrase)
        #expect(throws: StoreError.authenticationFailed(remainingAttempts: 2)) {
            _ = try store.unlock(passphrase: "not the passphrase")
        }
    }

    @Test(
        "Three failures lock the account, persisted across reopen, growing with each further failure", arguments: StoreBackendKind.allCases)
    func lockout(_ backend: StoreBackendKind) throws {
        let (directory, store, _) = try unlockedStore(on: backend)
        let start = Date(timeIntervalSince1970: 1_900_000_000)
        let wrong = "definitely wrong"

        #expect(throws: StoreError.authenticationFailed(remainingAttempts: 2)) {
            _ = try store.unlock(passphrase: wrong, now: start)
        }
        #expect(throws: StoreError.authenticationFailed(remainingAttempts: 1)) {
            _ = try store.unlock(passphrase: wrong, now: start + 1)
        }
        #expect(throws: StoreError.lockedByThisAttempt(until: start + 2 + 60, secondFactor: false)) {
            _ = try store.unlock(passphrase: wrong, now: start + 2)
        }

        // Locked even for the right passphrase, and after reopening; checked before Argon2.
        let reopened = try directory.open()
        #expect(throws: StoreError.lockedOut(until: start + 62)) {
            _ = try reopened.unlock(passphrase: TestStore.passphrase, now: start + 30)
        }
        #expect(try reopened.lockedUntil(now: start + 30) == start + 62)

        // The fourth failure after the lock expires locks twice as long, the fifth four times.
        #expect(throws: StoreError.lockedByThisAttempt(until: start + 70 + 120, secondFactor: false)) {
            _ = try reopened.unlock(passphrase: wrong, now: start + 70)
        }
        #expect(throws: StoreError.lockedByThisAttempt(until: start + 200 + 240, secondFactor: false)) {
            _ = try reopened.unlock(passphrase: wrong, now: start + 200)
        }
        let state = try reopened.readTransaction { try AccountRecord.require($0) }
        #expect(state.failedAttempts == 5)

        // Success after the lock resets everything.
        _ = try reopened.unlock(passphrase: TestStore.passphrase, now: start + 500)
        let reset = try reopened.readTransaction { try AccountRecord.require($0) }
        #expect(reset.failedAttempts == 0 && reset.lockedUntil == nil)
    }

    @Test("The lock grows 1, 2, 4 … minutes and stops at 24 hours")
    func lockoutPolicy() {
        let policy = LockoutPolicy.standard
        #expect(policy.lockDuration(afterFailures: 2) == nil)
        #expect(policy.lockDuration(afterFailures: 3) == 60)
        #expect(policy.lockDuration(afterFailures: 4) == 120)
        #expect(policy.lockDuration(afterFailures: 6) == 480)
        #expect(policy.lockDuration(afterFailures: 40) == TimeInterval(86_400))
        #expect(policy.lockDuration(afterFailures: 1_000_000) == TimeInterval(86_400))
    }

    @Test("The lockout error says when to try again")
    func lockoutMessage() {
        let error = StoreError.lockedOut(until: Date() + 125)
        #expect(error.description.contains("try again after"))
        #expect(error.description.contains("3 minutes"))
        #expect(error.category == .locked)
    }

    @Test("Changing the passphrase keeps data readable and retires the old passphrase", arguments: StoreBackendKind.allCases)
    func changePassphrase(_ backend: StoreBackendKind) throws {
        let (directory, _, unlocked) = try unlockedStore(on: backend)
        let alice = try unlocked.addContact(name: "alice", number: nil, pairingCode: Data("code".utf8))
        try unlocked.write { try $0.setPaired(alice, session: Data("state-1".utf8)) }
        try unlocked.changePassphrase(to: "a new and longer passphrase")

        let store = try directory.open()
        #expect(throws: StoreError.authenticationFailed(remainingAttempts: 2)) {
            _ = try store.unlock(passphrase: TestStore.passphrase)
        }
        let again = try store.unlock(passphrase: "a new and longer passphrase")
        let session = try again.read { try $0.session(for: $0.contact(named: "alice")) }
        #expect(session == Data("state-1".utf8))
    }

    @Test("Changing the passphrase can raise the Argon2 parameters, read back on unlock", arguments: StoreBackendKind.allCases)
    func raiseParameters(_ backend: StoreBackendKind) throws {
        let (directory, _, unlocked) = try unlockedStore(on: backend)
        let stronger = Argon2Parameters(memoryKiB: 20 * 1024, iterations: 3, parallelism: 1)
        try unlocked.changePassphrase(to: TestStore.passphrase, parameters: stronger)
        let store = try directory.open()
        #expect(try store.readTransaction { try AccountRecord.require($0) }.parameters == stronger)
        _ = try store.unlock(passphrase: TestStore.passphrase)
    }

    @Test("Renaming the account persists", arguments: StoreBackendKind.allCases)
    func rename(_ backend: StoreBackendKind) throws {
        let (directory, _, unlocked) = try unlockedStore(on: backend)
        try unlocked.rename(to: "  base-operator ")
        #expect(unlocked.username == "base-operator")
        let again = try directory.open().unlock(passphrase: TestStore.passphrase)
        #expect(again.username == "base-operator")
    }

    @Test("Deleting the account wipes every row, and the wiped names leave the files")
    func deleteAccount() throws {
        let (directory, store, unlocked) = try TestStore.unlockedStore()
        let contact = try unlocked.addContact(
            name: "Zebedee-Unique-Name", number: TestStore.number("+447700900123"), pairingCode: Data("code".utf8)
        )
        try unlocked.write { tx in
            try tx.setPaired(contact, session: Data(repeating: 7, count: 64))
            let id = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: contact, status: .queued, text: "hello"))
            try tx.enqueueOutbox("CIPHERTEXT-MARKER", to: contact, messageID: id)
            _ = try tx.recordReceivedFingerprint("fp-1")
            try tx.addOTPEntry(name: "bank", secret: Data("s".utf8))
        }
        try unlocked.deleteAccount()

        #expect(try store.accountExists == false)
        let counts = try store.pool.read { db in
            try StoreSchema.tables.map { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)") ?? -1 }
        }
        #expect(counts.allSatisfy { $0 == 0 })
        #expect(directory.filesContaining(Data("Zebedee-Unique-Name".utf8)).isEmpty)
        #expect(directory.filesContaining(Data("CIPHERTEXT-MARKER".utf8)).isEmpty)
        #expect(throws: StoreError.noAccount) { _ = try unlocked.contacts() }
        // A new account can be created afterwards.
        _ = try store.createAccount(username: "next", passphrase: TestStore.passphrase, parameters: .minimum)
    }
}
