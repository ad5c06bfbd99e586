import Failures
import Foundation
import GRDB
import TestSupport
import Testing

@testable import Store

@Suite("Two-factor login bound into the key wrapping")
struct TwoFactorLoginTests {
    /// A store with two-factor login on, and its directory.
    func enrolled(on backend: StoreBackendKind = .sqlite) throws -> (TestStoreLocation, GatewayStore) {
        let (directory, store, unlocked) = try unlockedStore(on: backend)
        try unlocked.enableTwoFactor(FakeSecondFactor.enrolment)
        return (directory, store)
    }

    @Test("The setting is readable before unlocking, and every unlock needs a right, fresh code", arguments: StoreBackendKind.allCases)
    func codeRequired(_ backend: StoreBackendKind) throws {
        let (_, store) = try enrolled(on: backend)
        #expect(try store.twoFactorEnabled)
        #expect(throws: StoreError.secondFactorFailed(.missing, remainingAttempts: 2)) {
            _ = try store.unlock(passphrase: TestStore.passphrase)
        }
        _ = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("111111"))
        // A used code with the right passphrase is refused but not counted; a wrong one is.
        #expect(throws: StoreError.secondFactorFailed(.replayed, remainingAttempts: 3)) {
            _ = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("111111"))
        }
        #expect(throws: StoreError.secondFactorFailed(.wrong, remainingAttempts: 2)) {
            _ = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("999999"))
        }
        let unlocked = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("222222"))
        #expect(try unlocked.twoFactorEnabled)
    }

    @Test("Wrong and replayed codes have their own sentences, none about the passphrase")
    func distinctMessages() {
        let wrong = StoreError.secondFactorFailed(.wrong, remainingAttempts: 2).description
        let replayed = StoreError.secondFactorFailed(.replayed, remainingAttempts: 1).description
        let missing = StoreError.secondFactorFailed(.missing, remainingAttempts: 1).description
        #expect(wrong.contains("code is wrong") && replayed.contains("already used") && missing.contains("no code"))
        for text in [wrong, replayed, missing] { #expect(!text.contains("passphrase")) }
        #expect(StoreError.secondFactorFailed(.wrong, remainingAttempts: 2).category == .authentication)
    }

    @Test("A wrong passphrase is reported as such and the code is never compared", arguments: StoreBackendKind.allCases)
    func wrongPassphraseFirst(_ backend: StoreBackendKind) throws {
        let (_, store) = try enrolled(on: backend)
        let calls = FakeSecondFactor.Counter()
        #expect(throws: StoreError.authenticationFailed(remainingAttempts: 2)) {
            _ = try store.unlock(passphrase: "not the passphrase", secondFactor: FakeSecondFactor.check("111111", calls: calls))
        }
        #expect(calls.value == 0)
    }

    @Test("Wrong codes count toward the lockout like wrong passphrases", arguments: StoreBackendKind.allCases)
    func codesLockTheAccount(_ backend: StoreBackendKind) throws {
        let (_, store) = try enrolled(on: backend)
        let start = Date(timeIntervalSince1970: 1_900_000_000)
        _ = try? store.unlock(passphrase: TestStore.passphrase, now: start, secondFactor: FakeSecondFactor.check("0"))
        _ = try? store.unlock(passphrase: "not the passphrase", now: start + 1)
        #expect(throws: StoreError.lockedByThisAttempt(until: start + 2 + 60, secondFactor: true)) {
            _ = try store.unlock(passphrase: TestStore.passphrase, now: start + 2, secondFactor: FakeSecondFactor.check("1"))
        }
        #expect(throws: StoreError.lockedOut(until: start + 62)) {
            _ = try store.unlock(passphrase: TestStore.passphrase, now: start + 3, secondFactor: FakeSecondFactor.check("111111"))
        }
    }

    @Test("A used code with the right passphrase is not counted, even where a failure would lock", arguments: StoreBackendKind.allCases)
    func replaysAreNotCounted(_ backend: StoreBackendKind) throws {
        let (_, store) = try enrolled(on: backend)
        let start = Date(timeIntervalSince1970: 1_900_000_000)
        _ = try store.unlock(passphrase: TestStore.passphrase, now: start, secondFactor: FakeSecondFactor.check("111111"))
        _ = try? store.unlock(passphrase: "not the passphrase", now: start + 1)
        _ = try? store.unlock(passphrase: TestStore.passphrase, now: start + 2, secondFactor: FakeSecondFactor.check("0"))
        for offset in 3...6 {
            #expect(throws: StoreError.secondFactorFailed(.replayed, remainingAttempts: 1)) {
                _ = try store.unlock(
                    passphrase: TestStore.passphrase, now: start + Double(offset), secondFactor: FakeSecondFactor.check("111111"))
            }
        }
        // The two failures before the replays still count: the next wrong code locks.
        #expect(throws: StoreError.lockedByThisAttempt(until: start + 7 + 60, secondFactor: true)) {
            _ = try store.unlock(passphrase: TestStore.passphrase, now: start + 7, secondFactor: FakeSecondFactor.check("0"))
        }
    }

    @Test("Clearing the setting and deleting the secret in a copy of the file makes unlock fail")
    func tamperingBreaksTheUnlock() throws {
        let (directory, store) = try enrolled()
        try store.pool.write { db in
            try db.execute(sql: "UPDATE account SET two_factor = 0, two_factor_secret = NULL, two_factor_state = NULL")
            try db.execute(sql: "DELETE FROM otp_entries")
        }
        let reopened = try directory.open()
        #expect(try reopened.twoFactorEnabled == false)
        #expect(throws: StoreError.twoFactorSettingAltered) { _ = try reopened.unlock(passphrase: TestStore.passphrase) }
        #expect(StoreError.twoFactorSettingAltered.category == .corrupted)
    }

    @Test("Deleting only the secret makes unlock fail, code or not")
    func deletedSecret() throws {
        let (_, store) = try enrolled()
        try store.pool.write { db in try db.execute(sql: "UPDATE account SET two_factor_secret = NULL") }
        #expect(throws: StoreError.twoFactorSecretMissing) {
            _ = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("111111"))
        }
    }

    @Test("A passphrase change keeps the setting bound; disabling unbinds it")
    func passphraseChangeAndDisable() throws {
        let (directory, store) = try enrolled()
        let unlocked = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("111111"))
        try unlocked.changePassphrase(to: "another long passphrase")
        #expect(throws: StoreError.secondFactorFailed(.missing, remainingAttempts: 2)) {
            _ = try directory.open().unlock(passphrase: "another long passphrase")
        }
        let again = try directory.open().unlock(passphrase: "another long passphrase", secondFactor: FakeSecondFactor.check("222222"))
        #expect(try again.disableTwoFactor())
        #expect(try again.disableTwoFactor() == false)
        #expect(try directory.open().twoFactorEnabled == false)
        _ = try directory.open().unlock(passphrase: "another long passphrase")
        // Turned off, the key is wrapped without the setting: switching it on in the file breaks nothing
        // silently (the code is asked, and there is no secret to check it against).
        try store.pool.write { db in try db.execute(sql: "UPDATE account SET two_factor = 1") }
        #expect(throws: StoreError.twoFactorSecretMissing) {
            _ = try directory.open().unlock(passphrase: "another long passphrase", secondFactor: FakeSecondFactor.check("333333"))
        }
    }

    @Test("Enabling twice is refused, and the login secret is no OTP entry")
    func enableTwiceAndReservedName() throws {
        let (_, store) = try enrolled()
        let unlocked = try store.unlock(passphrase: TestStore.passphrase, secondFactor: FakeSecondFactor.check("111111"))
        #expect(throws: StoreError.self) { try unlocked.enableTwoFactor(FakeSecondFactor.enrolment) }
        #expect(try unlocked.otpEntries().isEmpty)
        let secret = Data(FakeSecondFactor.codes.joined(separator: ",").utf8)
        #expect(try store.pool.read { db in try Data.fetchOne(db, sql: "SELECT two_factor_secret FROM account") } != secret)
    }

    @Test("No spelling of the reserved login name reaches, creates or lists an OTP entry", arguments: StoreBackendKind.allCases)
    func reservedNameSpellings(_ backend: StoreBackendKind) throws {
        let (_, _, unlocked) = try unlockedStore(on: backend)
        for name in ["smsgw-login", "SMSGW-Login", "  smsgw-login\t", "ｓｍｓｇｗ-ｌｏｇｉｎ", "ＳＭＳＧＷ－ＬＯＧＩＮ"] {
            #expect(OTPEntry.isReservedName(name), "\(name)")
            #expect(throws: StoreError.self) { try unlocked.addOTPEntry(name: name, secret: Data("s".utf8)) }
            #expect(throws: StoreError.self) { _ = try unlocked.otpEntry(named: name) }
        }
        #expect(!OTPEntry.isReservedName("smsgw-login2"))
        #expect(try unlocked.otpEntries().isEmpty)
    }
}
