import Foundation
import Operations
import Store
import TestSupport
import Testing

/// Idempotency keys belong to the API token that used them: two clients choosing the same key
/// each queue their own message, and each one's retry replays its own.
struct SubmitTokenTests {
    @Test(
        "Two tokens with one key queue two messages; each token's retry replays its own; another body is a conflict",
        arguments: StoreBackendKind.allCases)
    func twoTokensWithOneKeyQueueTwoMessages(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let shop = try token("shop", couple.alice, using: &rng)
        let crm = try token("crm", couple.alice, using: &rng)
        func submit(_ text: String, _ token: APIToken.ID) throws -> Messages.Submission {
            try Messages.submit(
                text, to: "bob", idempotencyKey: "order-4711", token: token, queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
        }
        let fromShop = try submit("from the shop", shop)
        let fromCRM = try submit("from the crm", crm)
        #expect(!fromShop.replayed && !fromCRM.replayed && fromShop.id != fromCRM.id, "each token queued its own message")
        let shopAgain = try submit("from the shop", shop)
        let crmAgain = try submit("from the crm", crm)
        #expect(shopAgain.replayed && shopAgain.id == fromShop.id)
        #expect(crmAgain.replayed && crmAgain.id == fromCRM.id)
        #expect(throws: SubmissionError.keyReused) { try submit("from the crm", shop) }
        #expect(try couple.alice.read { try $0.outboxItems() }.count == 2)
    }

    @Test(
        "A key saved without a token (as every key before keys belonged to tokens) is still found by a token's retry",
        arguments: StoreBackendKind.allCases)
    func aKeyWithoutATokenIsFoundByEveryToken(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let shop = try token("shop", couple.alice, using: &rng)
        let first = try Messages.submit(
            "hello", to: "bob", idempotencyKey: "k1", queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
        let retried = try Messages.submit(
            "hello", to: "bob", idempotencyKey: "k1", token: shop, queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
        #expect(retried.replayed && retried.id == first.id)
        #expect(throws: SubmissionError.keyReused) {
            try Messages.submit(
                "bye", to: "bob", idempotencyKey: "k1", token: shop, queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
        }
    }

    @Test("A token made again under a revoked one's name does not inherit its keys")
    func aNewTokenOfTheSameNameHasItsOwnKeys() throws {
        let couple = try Couple()
        var rng = SystemRandomNumberGenerator()
        let old = try token("shop", couple.alice, using: &rng)
        let first = try Messages.submit(
            "hello", to: "bob", idempotencyKey: "k1", token: old, queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
        try APITokens.revoke("shop", store: couple.alice)
        let new = try token("shop", couple.alice, using: &rng)
        let second = try Messages.submit(
            "hello", to: "bob", idempotencyKey: "k1", token: new, queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
        #expect(!second.replayed && second.id != first.id)
    }

    private func token(_ name: String, _ store: UnlockedStore, using rng: inout some RandomNumberGenerator) throws -> APIToken.ID {
        try APITokens.create(name: name, scopes: [.send], lifetime: nil, store: store, now: Date(), using: &rng).summary.id
    }
}
