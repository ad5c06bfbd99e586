import Foundation
import Operations
import Store
import TestSupport
import Testing

/// The delivery rules: which event an endpoint gets next, and what each answer does.
struct WebhookDeliveryTests {
    let couple: Couple
    let endpoint: WebhookEndpoint
    let contact: Contact

    init() throws {
        couple = try Couple()
        endpoint = WebhookEndpoint(
            url: URL(string: "http://127.0.0.1:9/hook")!, events: [.messageReceived, .modemUp],
            secrets: [try WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")])
        contact = try couple.bob.read { try $0.contact(named: "alice") }
    }

    private func receive(_ text: String) throws -> Int64 {
        try couple.bob.write { tx in try tx.appendLog(NewLogEntry(direction: .incoming, contact: contact, status: .decrypted, text: text)) }
    }

    private func next(_ endpoint: WebhookEndpoint? = nil, at now: Date = Date()) throws -> Webhooks.Work {
        try couple.bob.write { tx in try Webhooks.next(for: endpoint ?? self.endpoint, in: tx, now: now) }
    }

    private func prepared(_ work: Webhooks.Work, sourceLocation: SourceLocation = #_sourceLocation) throws -> Webhooks.PreparedDelivery {
        guard case .deliver(let delivery) = work else {
            Issue.record("expected a delivery, got \(work)", sourceLocation: sourceLocation)
            throw Unexpected()
        }
        return delivery
    }

    private func record(_ outcome: Webhooks.Outcome, _ delivery: Webhooks.PreparedDelivery, at now: Date = Date()) throws -> WebhookDelivery
    {
        try couple.bob.write { tx in
            var rng = SystemRandomNumberGenerator()
            return try Webhooks.record(outcome, of: delivery.deliveryID, to: endpoint, in: tx, now: now, using: &rng)
        }
    }

    struct Unexpected: Error {}

    @Test func anEndpointStartsAtTheJournalsEndAndGetsOnlyItsTypesInOrder() throws {
        _ = try receive("before the endpoint existed")
        #expect(try next() == .idle)
        try couple.bob.write { tx in try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .ready, connected: true)) }
        try couple.bob.write { tx in try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .stopped, connected: false)) }
        let first = try receive("first")
        _ = try receive("second")
        let up = try prepared(try next())
        #expect(up.eventType == "modem.up" && up.attempt == 1 && up.webhookID == "evt_\(up.eventID)")
        #expect(try next() == .deliver(up), "the same delivery until it is answered")
        #expect(try record(.status(204), up).state == .delivered)
        let received = try prepared(try next())
        #expect(received.eventType == "message.received")
        let body = try JSONSerialization.jsonObject(with: received.body) as? [String: Any]
        let message = (body?["data"] as? [String: Any])?["message"] as? [String: Any]
        #expect(message?["id"] as? Int == Int(first) && message?["text"] == nil, "no text without include_text")
        #expect(
            body?["type"] as? String == "message.received" && body?["timestamp"] is String && body?["id"] as? Int == Int(received.eventID))
        try record(.status(200), received)
        #expect(try prepared(try next()).eventID > received.eventID)
    }

    @Test func failuresRetryTheSameEventWithItsIdLaterWhileLaterEventsWait() throws {
        #expect(try next() == .idle)
        _ = try receive("one")
        _ = try receive("two")
        let start = Date()
        let delivery = try prepared(try next(at: start))
        let failed = try record(.status(500), delivery, at: start)
        #expect(failed.state == .pending && failed.lastStatus == 500 && failed.attempts == 1)
        let due = try #require(failed.nextAttemptAt)
        #expect(due > start && due <= start.addingTimeInterval(10))
        #expect(try next(at: start.addingTimeInterval(1)) == .wait(until: due), "the next event waits behind it")
        let retry = try prepared(try next(at: due))
        #expect(retry.webhookID == delivery.webhookID && retry.body == delivery.body && retry.attempt == 2)
        let timedOut = try record(.noAnswer("No answer within 15.0 seconds."), retry, at: due)
        #expect(timedOut.state == .pending && timedOut.lastStatus == nil && timedOut.lastError?.contains("No answer") == true)
        let third = try prepared(try next(at: try #require(timedOut.nextAttemptAt)))
        #expect(third.eventID == delivery.eventID && third.attempt == 3)
    }

    @Test func afterTwentyFourHoursOfFailuresTheDeliveryFailsAndTheNextEventGoes() throws {
        #expect(try next() == .idle)
        _ = try receive("one")
        _ = try receive("two")
        let start = Date()
        let delivery = try prepared(try next(at: start))
        var now = start
        var state = try record(.status(503), delivery, at: now)
        while state.state == .pending {
            now = try #require(state.nextAttemptAt)
            let again = try prepared(try next(at: now))
            #expect(again.eventID == delivery.eventID)
            state = try record(.status(503), again, at: now)
        }
        #expect(state.state == .failed && now.timeIntervalSince(start) <= 24 * 3600 && state.attempts > 8)
        #expect(state.lastError?.contains("given up") == true)
        #expect(try prepared(try next(at: now)).eventID > delivery.eventID)
        #expect(try Webhooks.deliveries(failed: true, store: couple.bob).map(\.id) == [delivery.deliveryID])
    }

    @Test func aGoneEndpointIsDisabledUntilADeliveryIsRedelivered() throws {
        #expect(try next() == .idle)
        _ = try receive("one")
        let delivery = try prepared(try next())
        let gone = try record(.status(410), delivery)
        #expect(gone.state == .pending && gone.lastStatus == 410)
        guard case .disabled(let reason) = try next() else { throw Unexpected() }
        #expect(reason.contains("410"))
        _ = try receive("two")
        #expect(try Webhooks.list(configured: [endpoint], store: couple.bob).first?.state == "disabled")
        let redelivered = try Webhooks.redeliver(delivery.deliveryID, store: couple.bob, now: Date())
        #expect(redelivered.state == .pending)
        #expect(try prepared(try next()).eventID == delivery.eventID)
        #expect(try Webhooks.list(configured: [endpoint], store: couple.bob).first?.state == "active")
        #expect(throws: StoreError.self) { try Webhooks.redeliver(999, store: couple.bob, now: Date()) }
        let audit = try Audit.list(in: couple.bob)
        #expect(audit.map(\.action) == ["webhook-redelivered"] && audit.first?.target == "delivery \(delivery.deliveryID)")
    }

    @Test func includeTextAddsTheDecryptedTextAtDeliveryTime() throws {
        var withText = endpoint
        withText.includeText = true
        #expect(try next(withText) == .idle)
        _ = try receive("the text")
        let delivery = try prepared(try next(withText))
        let body = try JSONSerialization.jsonObject(with: delivery.body) as? [String: Any]
        let message = (body?["data"] as? [String: Any])?["message"] as? [String: Any]
        #expect(message?["text"] as? String == "the text")
    }

    @Test func theListingShowsEachEndpointsProgressAndNoSecret() throws {
        #expect(try Webhooks.list(configured: [endpoint], store: couple.bob).first?.state == "new")
        #expect(try next() == .idle)
        _ = try receive("one")
        try record(.status(200), try prepared(try next()))
        let status = try #require(try Webhooks.list(configured: [endpoint], store: couple.bob).first)
        #expect(status.delivered == 1 && status.pending == 0 && status.state == "active" && status.secrets == 1)
        #expect(status.events == ["message.received", "modem.up"])
        let json = try OperationsJSON.string(status)
        #expect(!json.contains("whsec") && json.contains("\"disabledReason\":null"))
        let gone = try Webhooks.list(configured: [], store: couple.bob)
        #expect(gone.map(\.configured) == [false] && gone.first?.url == endpoint.key)
        let line = try OperationsJSON.string(try #require(try Webhooks.deliveries(store: couple.bob).first))
        #expect(
            line.contains("\"state\":\"delivered\"") && line.contains("\"nextAttemptAt\":null") && line.contains("\"webhookId\":\"evt_"))
    }

    @Test func theListingCountsTheEventsWaitingBehindARetryingDelivery() throws {
        #expect(try next() == .idle)
        _ = try receive("one")
        let first = try prepared(try next())
        #expect(try record(.status(500), first).state == .pending)
        for text in ["two", "three", "four"] { _ = try receive(text) }
        try couple.bob.write { tx in try tx.saveModemStatus(ModemStatusRecord(name: "m1", state: .stopped, connected: false)) }
        let status = try #require(try Webhooks.list(configured: [endpoint], store: couple.bob).first)
        #expect(status.pending == 1 && status.waiting == 3, "three texts wait behind the retrying one; modem.down is not its type")
        #expect(try OperationsJSON.string(status).contains("\"waiting\":3"))
        #expect(try Webhooks.list(configured: [], store: couple.bob).first?.waiting == 0, "no longer configured: nothing waits")
    }
}
