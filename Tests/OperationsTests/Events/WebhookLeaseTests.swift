import Foundation
import Operations
import Store
import TestSupport
import Testing

/// One node at a time delivers an endpoint's events: the one holding its lease, taken over once
/// that node stops, goes down, or lets the lease end.
struct WebhookLeaseTests {
    let couple: Couple
    let endpoint: WebhookEndpoint
    let now = Date()
    let alpha = GatewayNode(name: "alpha", healthSeconds: 10)
    let beta = GatewayNode(name: "beta", healthSeconds: 10)

    init() throws {
        couple = try Couple()
        endpoint = WebhookEndpoint(
            url: URL(string: "http://127.0.0.1:9/hook")!, events: [.messageReceived],
            secrets: [try WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")], timeoutSeconds: 15)
        let contact = try couple.bob.read { try $0.contact(named: "alice") }
        try couple.bob.write { [alpha, beta, now, endpoint] tx in
            try tx.startNode(alpha, now: now)
            try tx.startNode(beta, now: now)
            try Webhooks.register([endpoint], in: tx, now: now)
            _ = try tx.appendLog(NewLogEntry(direction: .incoming, contact: contact, status: .decrypted, text: "one event"))
        }
    }

    private func next(_ node: GatewayNode, at time: Date) throws -> Webhooks.Work {
        try couple.bob.write { [endpoint] tx in try Webhooks.next(for: endpoint, node: node, in: tx, now: time) }
    }

    @Test func theHolderDeliversTheOtherWaitsUntilItStops() throws {
        guard case .deliver(let delivery) = try next(alpha, at: now) else { throw WebhookDeliveryTests.Unexpected() }
        // The same pending delivery is not handed to beta while alpha holds the lease.
        #expect(try next(beta, at: now + 1) == .elsewhere(node: "alpha"))
        #expect(try next(alpha, at: now + 2) == .deliver(delivery))
        try couple.bob.write { [now] tx in try tx.stopNode(named: "alpha", now: now + 3) }
        #expect(try next(beta, at: now + 4) == .deliver(delivery), "taken over at once from a node that stopped")
        #expect(try next(alpha, at: now + 5) == .elsewhere(node: "beta"))
    }

    @Test func aDownNodesOrAnEndedLeaseIsTakenOver() throws {
        guard case .deliver = try next(alpha, at: now) else { throw WebhookDeliveryTests.Unexpected() }
        // Alpha's heartbeat (at `now`) holds for its lease of 30 s: beta waits, then takes over.
        _ = try couple.bob.write { [beta, now] tx in try tx.recordHeartbeat(beta, now: now + 29) }
        #expect(try next(beta, at: now + 29) == .elsewhere(node: "alpha"))
        #expect(try next(beta, at: now + 31) != .elsewhere(node: "alpha"), "alpha is down")
        // Beta's lease (30 + 15 s from +31) holds against alpha back up, until it ends.
        _ = try couple.bob.write { [alpha, now] tx in try tx.recordHeartbeat(alpha, now: now + 60) }
        _ = try couple.bob.write { [beta, now] tx in try tx.recordHeartbeat(beta, now: now + 60) }
        #expect(try next(alpha, at: now + 60) == .elsewhere(node: "beta"))
        #expect(try next(alpha, at: now + 77) != .elsewhere(node: "beta"), "beta's lease ended at +76")
    }
}
