import Foundation
import Operations
import SplitMix
import Store
import TestSupport
import Testing

/// Console sessions (``ConsoleSessions``) and the audit list (``Audit``): tokens stored only as
/// hashes, timeouts, logout, sessions ended by a new password or a removal, CSRF tokens, and a
/// line for each login, logout and operator change.
@Suite("Console sessions and audit")
struct ConsoleSessionsTests {
    static let now = Date(timeIntervalSince1970: 1_900_000_000)
    static let password = "correct horse battery"

    /// A store with one operator "ops" signed in at ``now``.
    func withSession(_ body: (TemporaryDirectory, UnlockedStore, String) throws -> Void) throws {
        try TestStore.withAccount { directory, _, store in
            try Operators.add("ops", role: .operator, password: Self.password, by: .commandLine, in: store, now: Self.now)
            let who = try Operators.authenticate("ops", password: Self.password, code: nil, address: "192.0.2.7", in: store, now: Self.now)
            var rng = SplitMix64(seed: 7)
            let (token, session) = try ConsoleSessions.start(for: who, address: "192.0.2.7", in: store, now: Self.now, using: &rng)
            #expect(session.operatorName == "ops" && session.role == .operator)
            try body(directory, store, token)
        }
    }

    @Test("A session resumes by its token, which is not stored; its CSRF token checks in constant time")
    func resume() throws {
        try withSession { directory, store, token in
            #expect(token.count == 43)
            let session = try ConsoleSessions.resume(token, in: store, now: Self.now.addingTimeInterval(60))
            #expect(session.operatorName == "ops")
            #expect(ConsoleSessions.checkCSRF(session.csrfToken, token: token))
            #expect(!ConsoleSessions.checkCSRF(session.csrfToken.uppercased(), token: token))
            #expect(!ConsoleSessions.checkCSRF("", token: token))
            #expect(throws: OperatorError.notSignedIn) { try ConsoleSessions.resume(token + "x", in: store, now: Self.now) }
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
                let data = try Data(contentsOf: directory.url.appendingPathComponent(file))
                #expect(data.range(of: Data(token.utf8)) == nil)
            }
            // A change of role applies to the open session.
            try Operators.setRole("ops", to: .viewer, by: .commandLine, in: store, now: Self.now)
            #expect(try ConsoleSessions.resume(token, in: store, now: Self.now.addingTimeInterval(120)).role == .viewer)
        }
    }

    @Test("Idle and absolute timeouts end a session; use keeps it alive until the absolute one")
    func timeouts() throws {
        try withSession { _, store, token in
            var time = Self.now
            // Used every 20 minutes: alive past the idle timeout, ended at 12 hours.
            while time < Self.now.addingTimeInterval(12 * 3600 - 1200) {
                time.addTimeInterval(1200)
                _ = try ConsoleSessions.resume(token, in: store, now: time)
            }
            #expect(throws: OperatorError.notSignedIn) {
                try ConsoleSessions.resume(token, in: store, now: Self.now.addingTimeInterval(12 * 3600 + 1))
            }
        }
        try withSession { _, store, token in
            #expect(throws: OperatorError.notSignedIn) {
                try ConsoleSessions.resume(token, in: store, now: Self.now.addingTimeInterval(31 * 60))
            }
            // Once expired it stays gone, even at a time it would have been alive.
            #expect(throws: OperatorError.notSignedIn) { try ConsoleSessions.resume(token, in: store, now: Self.now) }
        }
    }

    @Test("Logout, a new password and a removal end sessions")
    func endings() throws {
        try withSession { _, store, token in
            try ConsoleSessions.end(token, address: nil, in: store, now: Self.now)
            #expect(throws: OperatorError.notSignedIn) { try ConsoleSessions.resume(token, in: store, now: Self.now) }
            try ConsoleSessions.end(token, address: nil, in: store, now: Self.now)
        }
        try withSession { _, store, token in
            try Operators.setPassword("ops", to: "a brand new password", by: .commandLine, in: store, now: Self.now)
            #expect(throws: OperatorError.notSignedIn) { try ConsoleSessions.resume(token, in: store, now: Self.now) }
        }
        try withSession { _, store, token in
            try Operators.remove("ops", by: .commandLine, in: store, now: Self.now)
            #expect(throws: OperatorError.notSignedIn) { try ConsoleSessions.resume(token, in: store, now: Self.now) }
        }
    }

    @Test("The audit list has the logins, failures, refusals, logouts and changes, newest first, never a password")
    func audit() throws {
        try withSession { _, store, token in
            #expect(throws: OperatorError.loginFailed) {
                try Operators.authenticate("ops", password: "wrong password!", code: nil, address: "198.51.100.9", in: store, now: Self.now)
            }
            try ConsoleSessions.end(token, address: "192.0.2.7", in: store, now: Self.now)
            let entries = try Audit.list(in: store)
            #expect(entries.map(\.action) == ["logout", "login", "login", "operator-added"])
            #expect(entries.map(\.outcome) == ["done", "failed", "done", "done"])
            #expect(entries[1].address == "198.51.100.9" && entries[1].actorName == "ops" && entries[1].actor == "operator")
            #expect(entries[3].actor == "command-line" && entries[3].actorName == nil && entries[3].target == "ops (operator)")
            let page = try Audit.list(limit: 2, before: entries[1].id, in: store)
            #expect(page.map(\.id) == [entries[2].id, entries[3].id])
            let json = String(decoding: try OperationsJSON.encoder.encode(entries), as: UTF8.self)
            #expect(!json.contains(Self.password) && !json.contains("wrong password") && json.contains("\"actorName\":null"))
        }
    }
}
