import Failures
import Foundation
import Operations
import Store
import TestSupport
import Testing

/// API tokens: random, stored as a hash only, scoped, expiring, revocable; failures throttled per address.
struct APITokensTests {
    @Test(arguments: StoreBackendKind.allCases)
    func aTokenIsRandomIsStoredOnlyAsAHashAndAuthenticatesWithItsScopes(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let now = Date()
        let created = try APITokens.create(name: "dispatch", scopes: [.send], lifetime: nil, store: couple.alice, now: now, using: &rng)
        let other = try APITokens.create(name: "monitor", scopes: [.read], lifetime: nil, store: couple.alice, now: now, using: &rng)
        #expect(created.token.hasPrefix("smsgw_") && created.token.count == 6 + 43)
        #expect(created.token != other.token)
        let records = try couple.alice.read { try $0.apiTokens() }
        #expect(records.count == 2)
        #expect(records.allSatisfy { $0.hash.count == 32 && !$0.hash.elementsEqual(Data(created.token.utf8)) })

        let token = try APITokens.authenticate(created.token, store: couple.alice, now: now)
        #expect(token.name == "dispatch" && token.allows(.send) && !token.allows(.read))
        #expect(throws: APITokenError.missingScope(.read)) { try token.requiring(.read) }
        #expect(APITokenError.missingScope(.read).category == .forbidden)
        #expect(try APITokens.list(store: couple.alice).first { $0.name == "dispatch" }?.lastUsedAt != nil)
        #expect(throws: APITokenError.invalid) { try APITokens.authenticate(created.token + "x", store: couple.alice, now: now) }
        #expect(throws: StoreError.self) {
            try APITokens.create(name: "DISPATCH", scopes: [.read], lifetime: nil, store: couple.alice, now: now, using: &rng)
        }

        try APITokens.revoke("dispatch", store: couple.alice)
        #expect(throws: APITokenError.invalid) { try APITokens.authenticate(created.token, store: couple.alice, now: now) }
        #expect(throws: APITokenError.notFound("dispatch")) { try APITokens.revoke("dispatch", store: couple.alice) }
        // Each change is in the audit list (the command line's by default), never the token.
        let audit = try Audit.list(in: couple.alice).map { "\($0.action) \($0.actor) \($0.target ?? "-")" }
        #expect(
            audit == ["token-revoked command-line dispatch", "token-created command-line monitor", "token-created command-line dispatch"],
            "\(audit)")
    }

    @Test(arguments: StoreBackendKind.allCases)
    func anExpiredTokenIsRefusedAndAdminCoversEveryScope(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let now = Date()
        let created = try APITokens.create(
            name: "ops", scopes: [.admin], lifetime: try APITokens.lifetime(parsing: "2h"), store: couple.alice, now: now, using: &rng)
        let token = try APITokens.authenticate(created.token, store: couple.alice, now: now.addingTimeInterval(7100))
        #expect(APIScope.allCases.allSatisfy(token.allows))
        let error = #expect(throws: APITokenError.self) {
            try APITokens.authenticate(created.token, store: couple.alice, now: now.addingTimeInterval(7201))
        }
        guard case .expired(let expiry)? = error else {
            Issue.record("expected the token to have expired, got \(String(describing: error))")
            return
        }
        #expect(abs(expiry.timeIntervalSince(now) - 7200) < 0.01)
        #expect(error?.category == .authentication)
        #expect(try APITokens.lifetime(parsing: "30d") == 30 * 86_400)
        #expect(throws: APITokenError.invalidExpiry) { try APITokens.lifetime(parsing: "-5m") }
        #expect(throws: APITokenError.unknownScope("write")) { try APIScope.parse("read,write") }
        #expect(try APIScope.parse(" send , READ ") == [.send, .read])
        let scraper = try APITokens.create(name: "scraper", scopes: [.metrics], lifetime: nil, store: couple.alice, now: now, using: &rng)
        #expect(scraper.summary.allows(.metrics) && !scraper.summary.allows(.read) && !scraper.summary.allows(.send))
        let reader = try APITokens.create(name: "reader", scopes: [.read], lifetime: nil, store: couple.alice, now: now, using: &rng)
        #expect(reader.summary.allows(.metrics), "read includes the metrics")
        #expect(throws: APITokenError.invalidName) {
            try APITokens.create(name: "no spaces", scopes: [.read], lifetime: nil, store: couple.alice, now: now, using: &rng)
        }
    }

    @Test func failuresFromOneAddressAreThrottledUntilTheWindowPasses() {
        let throttle = AuthenticationThrottle(limit: 3, window: 60)
        let now = Date()
        for _ in 0..<3 {
            #expect(throttle.refusal(.invalid, from: "192.0.2.1", now: now) == .invalid)
        }
        #expect(throttle.refusal(.invalid, from: "192.0.2.1", now: now) == .throttled(until: now.addingTimeInterval(60)))
        #expect(throttle.refusal(.missing, from: "192.0.2.1", now: now) == .throttled(until: now.addingTimeInterval(60)))
        #expect(throttle.refusal(.missing, from: "192.0.2.2", now: now) == .missing, "another address is not throttled")
        #expect(throttle.refusal(.invalid, from: "192.0.2.1", now: now.addingTimeInterval(61)) == .invalid, "the window passed")
    }
}
