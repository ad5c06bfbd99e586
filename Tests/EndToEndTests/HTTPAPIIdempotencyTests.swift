import Foundation
import TestSupport
import Testing

/// Idempotency keys of `POST /v1/messages` per API token, against a real `smsgw serve --sim`.
@Suite("HTTP API idempotency keys per token", .serialized)
struct HTTPAPIIdempotencyTests {
    @Test("Two tokens sending with one key queue two messages; one token's retry replays; its other body gets 409")
    func keysBelongToTheirToken() async throws {
        try await withTemporaryDirectory { root in
            let fixture = try await HTTPAPITests.Fixture.start(in: root)
            let shop = try fixture.client(scopes: "send,read", name: "shop")
            let crm = try fixture.client(scopes: "send,read", name: "crm")
            let key = "order-4711"
            let fromShop = try await shop.post(text: "from the shop", to: "bob", key: key)
            let fromCRM = try await crm.post(text: "from the crm", to: "bob", key: key)
            #expect(fromShop.status == 202 && fromCRM.status == 202, "\(fromShop.text) \(fromCRM.text)")
            #expect(fromCRM.headers.first(name: "Idempotent-Replayed") == nil, "the second token's send is its own")
            let shopID = try #require(fromShop.object["id"] as? Int)
            let crmID = try #require(fromCRM.object["id"] as? Int)
            #expect(shopID != crmID)
            #expect(fromCRM.object["text"] as? String == "from the crm", "never the other client's message")

            let retry = try await shop.post(text: "from the shop", to: "bob", key: key)
            #expect(retry.status == 202 && retry.headers.first(name: "Idempotent-Replayed") == "true")
            #expect(retry.object["id"] as? Int == shopID)
            let conflict = try await shop.post(text: "something else", to: "bob", key: key)
            #expect(conflict.status == 409, "\(conflict.text)")

            let log = try fixture.alice.expect(["log", "--json", "--limit", "1000"])
            #expect(log.lines.filter { $0.contains("\"from the shop\"") || $0.contains("\"from the crm\"") }.count == 2)
        }
    }
}
