import Foundation
import OTP
import Operations
import SplitMix
import Store
import TestSupport
import Testing

/// Two-factor enrolment, status and disabling (``TwoFactorLogin``).
@Suite("Two-factor login")
struct TwoFactorLoginTests {
    @Test("A proposal is stored only once its first code matches, and that code is spent")
    func enableNeedsTheCode() throws {
        try TestStore.withAccount { _, gateway, store in
            let now = Date(timeIntervalSince1970: 1_900_000_000)
            var rng = SplitMix64(seed: 12)
            let proposal = try TwoFactorLogin.propose(for: store, secret: nil, using: &rng)
            #expect(proposal.uri.string.hasPrefix("otpauth://totp/smsgw:field-user?"))
            let totp = try #require(proposal.uri.totp)
            #expect(totp.secret.byteCount == 20 && totp.digits == 6 && totp.period == 30)

            let wrong = String(format: "%06d", (Int(try totp.code(at: now))! + 1) % 1_000_000)
            #expect(throws: AccountError.enrolmentCodeMismatch) { try TwoFactorLogin.enable(proposal, code: wrong, in: store, now: now) }
            #expect(try !TwoFactorLogin.isEnabled(store))
            #expect(AccountError.enrolmentCodeMismatch.category == .verificationFailed)

            try TwoFactorLogin.enable(proposal, code: totp.code(at: now), in: store, now: now)
            #expect(try TwoFactorLogin.isEnabled(store))
            let login = try Login.begin(gateway, now: now)
            #expect(login.requiresCode)
            #expect(throws: StoreError.secondFactorFailed(.replayed, remainingAttempts: 3)) {
                _ = try login.unlock(passphrase: TestStore.passphrase, code: totp.code(at: now), now: now)
            }
        }
    }

    @Test("A second enrolment is refused before anything is shown; disabling turns it off once")
    func alreadyOnAndDisable() throws {
        try TestStore.withAccount { _, gateway, store in
            let now = Date(timeIntervalSince1970: 1_900_000_000)
            var rng = SystemRandomNumberGenerator()
            let proposal = try TwoFactorLogin.propose(for: store, secret: nil, using: &rng)
            let stale = try TwoFactorLogin.propose(for: store, secret: nil, using: &rng)
            try TwoFactorLogin.enable(proposal, code: try #require(proposal.uri.totp).code(at: now), in: store, now: now)
            #expect(throws: AccountError.twoFactorAlreadyOn) { try TwoFactorLogin.requireOff(store) }
            #expect(throws: AccountError.twoFactorAlreadyOn) { _ = try TwoFactorLogin.propose(for: store, secret: nil, using: &rng) }
            // A proposal made before another one was enabled is refused too, and leaves the first in force.
            #expect(throws: AccountError.twoFactorAlreadyOn) {
                try TwoFactorLogin.enable(stale, code: try #require(stale.uri.totp).code(at: now), in: store, now: now)
            }

            #expect(try TwoFactorLogin.disable(store))
            #expect(try TwoFactorLogin.disable(store) == false)
            #expect(try !Login.begin(gateway, now: now).requiresCode)
        }
    }

    @Test("A given secret is used as it is; a new one comes from the caller's randomness")
    func secrets() throws {
        try TestStore.withAccount { _, _, store in
            var rng = SplitMix64(seed: 7)
            let given = try TwoFactorLogin.propose(for: store, secret: "jbsw y3dp ehpk 3pxp", using: &rng)
            #expect(try #require(given.uri.totp).secret == OTPSecret(base32: "JBSWY3DPEHPK3PXP"))
            var first = SplitMix64(seed: 7)
            var second = SplitMix64(seed: 7)
            let a = try TwoFactorLogin.propose(for: store, secret: nil, using: &first)
            let b = try TwoFactorLogin.propose(for: store, secret: nil, using: &second)
            #expect(a.uri == b.uri)
            #expect(throws: OTPEntryError.self) { _ = try TwoFactorLogin.propose(for: store, secret: "not base32 1", using: &rng) }
        }
    }
}
