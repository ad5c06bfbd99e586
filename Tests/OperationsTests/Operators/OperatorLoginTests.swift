import Foundation
import OTP
import Operations
import Store
import TestSupport
import Testing

/// Operators logging in (``Operators/authenticate(_:password:code:in:now:policy:)``): the lockout,
/// the second factor, and answers that never say which of name and password was wrong.
@Suite("Operator login")
struct OperatorLoginTests {
    static let now = Date(timeIntervalSince1970: 1_900_000_000)
    static let password = "correct horse battery"

    @Test("A right password logs in and is recorded; a wrong one and an unknown name fail alike")
    func passwords() throws {
        try TestStore.withAccount { _, _, store in
            try Operators.add("ops", role: .operator, password: Self.password, by: .commandLine, in: store, now: Self.now)
            let who = try Operators.authenticate("OPS", password: Self.password, code: nil, in: store, now: Self.now)
            #expect(who.name == "ops" && who.role == .operator)
            #expect(try Operators.find("ops", in: store, now: Self.now).lastLoginAt == Self.now)
            #expect(throws: OperatorError.loginFailed) {
                try Operators.authenticate("ops", password: "wrong password!", code: nil, in: store, now: Self.now)
            }
            #expect(throws: OperatorError.loginFailed) {
                try Operators.authenticate("nobody", password: Self.password, code: nil, in: store, now: Self.now)
            }
        }
    }

    @Test("Failures lock the operator for a growing time, persisted; a right password within the lock is refused")
    func lockout() throws {
        try TestStore.withAccount { _, _, store in
            try Operators.add("ops", role: .viewer, password: Self.password, by: .commandLine, in: store, now: Self.now)
            for _ in 0..<3 {
                #expect(throws: OperatorError.loginFailed) {
                    try Operators.authenticate("ops", password: "not the password", code: nil, in: store, now: Self.now)
                }
            }
            let until = Self.now.addingTimeInterval(60)
            #expect(try Operators.find("ops", in: store, now: Self.now).lockedUntil == until)
            #expect(throws: OperatorError.lockedOut(until: until)) {
                try Operators.authenticate("ops", password: Self.password, code: nil, in: store, now: Self.now.addingTimeInterval(30))
            }
            // After the lock, one more failure doubles it.
            let later = Self.now.addingTimeInterval(61)
            #expect(throws: OperatorError.loginFailed) {
                try Operators.authenticate("ops", password: "still not it", code: nil, in: store, now: later)
            }
            #expect(try Operators.find("ops", in: store, now: later).lockedUntil == later.addingTimeInterval(120))
            // A new password set by an admin lifts the lock.
            try Operators.setPassword("ops", to: "another good password", by: .commandLine, in: store, now: later)
            #expect(try Operators.authenticate("ops", password: "another good password", code: nil, in: store, now: later).role == .viewer)
        }
    }

    @Test("With two-factor login on, the code is asked for after a right password and accepted once")
    func secondFactor() throws {
        try TestStore.withAccount { _, _, store in
            try Operators.add("ops", role: .admin, password: Self.password, by: .commandLine, in: store, now: Self.now)
            var rng = SystemRandomNumberGenerator()
            let proposal = try Operators.proposeTwoFactor(for: "ops", in: store, using: &rng)
            #expect(proposal.uri.string.hasPrefix("otpauth://totp/smsgw%20console:ops?"))
            let totp = try #require(proposal.uri.totp)
            let wrong = String(format: "%06d", (Int(try totp.code(at: Self.now))! + 1) % 1_000_000)
            #expect(throws: OperatorError.enrolmentCodeMismatch) {
                try Operators.enableTwoFactor("ops", proposal: proposal, code: wrong, by: .commandLine, in: store, now: Self.now)
            }
            try Operators.enableTwoFactor(
                "ops", proposal: proposal, code: try totp.code(at: Self.now), by: .commandLine, in: store, now: Self.now)
            #expect(throws: OperatorError.twoFactorAlreadyOn("ops")) {
                _ = try Operators.proposeTwoFactor(for: "ops", in: store, using: &rng)
            }
            #expect(try Operators.find("ops", in: store, now: Self.now).twoFactor)

            let next = Self.now.addingTimeInterval(30)
            // Asking for the code after a right password counts nothing, however often.
            for _ in 0..<4 {
                #expect(throws: OperatorError.codeRequired) {
                    try Operators.authenticate("ops", password: Self.password, code: nil, in: store, now: next)
                }
            }
            #expect(try Operators.find("ops", in: store, now: next).lockedUntil == nil)
            #expect(throws: OperatorError.codeRejected) {
                try Operators.authenticate("ops", password: Self.password, code: wrong, in: store, now: next)
            }
            let code = try totp.code(at: next)
            #expect(try Operators.authenticate("ops", password: Self.password, code: code, in: store, now: next).name == "ops")
            #expect(throws: OperatorError.codeReplayed) {
                try Operators.authenticate("ops", password: Self.password, code: code, in: store, now: next)
            }
            #expect(try Operators.disableTwoFactor("ops", by: .commandLine, in: store, now: next))
            #expect(try Operators.authenticate("ops", password: Self.password, code: nil, in: store, now: next).role == .admin)
        }
    }

    @Test("A used code with the right password is refused but never counted: no lock, however often, even right after a lock ended")
    func replayedCodeDoesNotLock() throws {
        try TestStore.withAccount { _, _, store in
            try Operators.add("ops", role: .operator, password: Self.password, by: .commandLine, in: store, now: Self.now)
            var rng = SystemRandomNumberGenerator()
            let proposal = try Operators.proposeTwoFactor(for: "ops", in: store, using: &rng)
            let totp = try #require(proposal.uri.totp)
            let used = try totp.code(at: Self.now)
            try Operators.enableTwoFactor("ops", proposal: proposal, code: used, by: .commandLine, in: store, now: Self.now)
            // Three failures lock for ten seconds; the lock then ends, the used code's step not yet.
            let policy = LockoutPolicy(threshold: 3, baseDelay: 10, maximumDelay: 60)
            for _ in 0..<3 {
                #expect(throws: OperatorError.loginFailed) {
                    try Operators.authenticate("ops", password: "not the password", code: used, in: store, now: Self.now, policy: policy)
                }
            }
            let after = Self.now.addingTimeInterval(11)
            for _ in 0..<5 {
                #expect(throws: OperatorError.codeReplayed) {
                    try Operators.authenticate("ops", password: Self.password, code: used, in: store, now: after, policy: policy)
                }
                #expect(throws: OperatorError.codeRequired) {
                    try Operators.authenticate("ops", password: Self.password, code: nil, in: store, now: after, policy: policy)
                }
            }
            #expect(try Operators.find("ops", in: store, now: after).lockedUntil == nil, "neither started the ended lock again")
            let next = try totp.code(at: after.addingTimeInterval(30))
            #expect(
                try Operators.authenticate("ops", password: Self.password, code: next, in: store, now: after, policy: policy).name == "ops")
            // A replay with a wrong password is a failed login like any other.
            #expect(throws: OperatorError.loginFailed) {
                try Operators.authenticate("ops", password: "not the password", code: next, in: store, now: after, policy: policy)
            }
            let audit = try Audit.list(in: store).filter { $0.action == "login" && $0.outcome == "failed" }
            #expect(audit.count == 9, "the replays are audited as failed logins: \(audit.count)")
        }
    }
}
