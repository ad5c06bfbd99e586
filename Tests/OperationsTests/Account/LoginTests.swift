import Foundation
import OTP
import Operations
import Store
import TestSupport
import Testing

/// The unlock sequence (``Login``): an account first, the lock before any passphrase, the code
/// whatever the passphrase, and errors that stay distinct.
@Suite("Login")
struct LoginTests {
    static let secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    static let start = Date(timeIntervalSince1970: 1_900_000_000)

    /// The login secret's code at `date`, as an authenticator app shows it.
    static func code(at date: Date) throws -> String {
        try TOTP(secret: OTPSecret(base32: secret)).code(at: date)
    }

    /// Runs `body` with a store whose account has two-factor login on with ``secret``, enrolled at `start`.
    static func withEnrolledAccount(_ body: (GatewayStore) throws -> Void) throws {
        try TestStore.withAccount { _, gateway, store in
            var rng = SystemRandomNumberGenerator()
            let proposal = try TwoFactorLogin.propose(for: store, secret: secret, using: &rng)
            try TwoFactorLogin.enable(proposal, code: code(at: start), in: store, now: start)
            try body(gateway)
        }
    }

    @Test("No account: not found, before anything is asked")
    func noAccount() throws {
        try TestStore.withDirectory { directory in
            let gateway = try directory.open()
            #expect(throws: AccountError.noAccount(directory: gateway.directory.path)) { _ = try Login.begin(gateway, now: Self.start) }
            #expect(AccountError.noAccount(directory: "/x").category == .notFound)
        }
    }

    @Test("Without two-factor login the passphrase alone unlocks, and a wrong one says how many tries are left")
    func passphraseOnly() throws {
        try TestStore.withAccount { _, gateway, _ in
            let login = try Login.begin(gateway, now: Self.start)
            #expect(!login.requiresCode)
            #expect(throws: StoreError.authenticationFailed(remainingAttempts: 2)) {
                _ = try login.unlock(passphrase: "not the passphrase", code: nil, now: Self.start)
            }
            let store = try login.unlock(passphrase: TestStore.passphrase, code: nil, now: Self.start)
            #expect(store.username == "field-user")
        }
    }

    @Test("A locked account is refused by begin, before a passphrase is asked, until the lock ends")
    func lockedBeforeAsking() throws {
        try TestStore.withAccount { _, gateway, _ in
            let login = try Login.begin(gateway, now: Self.start)
            for attempt in 0..<3 {
                _ = try? login.unlock(passphrase: "not the passphrase", code: nil, now: Self.start + Double(attempt))
            }
            #expect(throws: StoreError.lockedOut(until: Self.start + 2 + 60)) { _ = try Login.begin(gateway, now: Self.start + 10) }
            #expect(StoreError.lockedOut(until: Self.start).category == .locked)
            let later = try Login.begin(gateway, now: Self.start + 120)
            _ = try later.unlock(passphrase: TestStore.passphrase, code: nil, now: Self.start + 120)
        }
    }

    @Test("With two-factor login on, a missing code is refused before the passphrase is checked and counts nothing")
    func codeRequiredFirst() throws {
        try Self.withEnrolledAccount { gateway in
            let login = try Login.begin(gateway, now: Self.start + 30)
            #expect(login.requiresCode)
            for passphrase in [TestStore.passphrase, "not the passphrase"] {
                #expect(throws: AccountError.codeRequired) { _ = try login.unlock(passphrase: passphrase, code: nil, now: Self.start + 30) }
            }
            // Nothing was counted: the first wrong passphrase still leaves two attempts.
            #expect(throws: StoreError.authenticationFailed(remainingAttempts: 2)) {
                _ = try login.unlock(passphrase: "not the passphrase", code: Self.code(at: Self.start + 30), now: Self.start + 30)
            }
        }
    }

    @Test("The right passphrase with a wrong, a replayed and a fresh code: distinct errors, then an unlock")
    func distinctCodeErrors() throws {
        try Self.withEnrolledAccount { gateway in
            let now = Self.start + 30
            let login = try Login.begin(gateway, now: now)
            // The enrolment's own code was spent when it was enabled; its replay is not counted.
            #expect(throws: StoreError.secondFactorFailed(.replayed, remainingAttempts: 3)) {
                _ = try login.unlock(passphrase: TestStore.passphrase, code: Self.code(at: Self.start), now: now)
            }
            let store = try login.unlock(passphrase: TestStore.passphrase, code: Self.code(at: now), now: now)
            #expect(try TwoFactorLogin.isEnabled(store))
            let wrong = String(format: "%06d", (Int(try Self.code(at: now + 30))! + 1) % 1_000_000)
            #expect(throws: StoreError.secondFactorFailed(.wrong, remainingAttempts: 2)) {
                _ = try login.unlock(passphrase: TestStore.passphrase, code: wrong, now: now + 30)
            }
            #expect(throws: StoreError.secondFactorFailed(.replayed, remainingAttempts: 2)) {
                _ = try login.unlock(passphrase: TestStore.passphrase, code: Self.code(at: now), now: now + 30)
            }
        }
    }

    @Test("The code just used, given again with the right passphrase, never locks; wrong codes between still do")
    func replaysDoNotLock() throws {
        try Self.withEnrolledAccount { gateway in
            // `account 2fa enable`, then commands within the same 30 s, each with the enable's code.
            let login = try Login.begin(gateway, now: Self.start)
            for offset in 1...5 {
                #expect(throws: StoreError.secondFactorFailed(.replayed, remainingAttempts: 3)) {
                    _ = try login.unlock(
                        passphrase: TestStore.passphrase, code: Self.code(at: Self.start), now: Self.start + Double(offset))
                }
            }
            _ = try Login.begin(gateway, now: Self.start + 6)
            // With a wrong passphrase it is a wrong passphrase, counted as always.
            #expect(throws: StoreError.authenticationFailed(remainingAttempts: 2)) {
                _ = try login.unlock(passphrase: "not the passphrase", code: Self.code(at: Self.start), now: Self.start + 6)
            }
            // A replay takes back only itself: the wrong codes around it still add up to the lock.
            let wrong = String(format: "%06d", (Int(try Self.code(at: Self.start))! + 1) % 1_000_000)
            #expect(throws: StoreError.secondFactorFailed(.wrong, remainingAttempts: 1)) {
                _ = try login.unlock(passphrase: TestStore.passphrase, code: wrong, now: Self.start + 7)
            }
            #expect(throws: StoreError.secondFactorFailed(.replayed, remainingAttempts: 1)) {
                _ = try login.unlock(passphrase: TestStore.passphrase, code: Self.code(at: Self.start), now: Self.start + 7)
            }
            #expect(throws: StoreError.lockedByThisAttempt(until: Self.start + 8 + 60, secondFactor: true)) {
                _ = try login.unlock(passphrase: TestStore.passphrase, code: wrong, now: Self.start + 8)
            }
            #expect(throws: StoreError.lockedOut(until: Self.start + 8 + 60)) { _ = try Login.begin(gateway, now: Self.start + 10) }
        }
    }
}
