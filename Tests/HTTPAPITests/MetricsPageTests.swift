import Foundation
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

@testable import HTTPAPI

/// The Prometheus page's series read from the store: each appears from the start and moves with
/// what the store records.
@Suite("The metrics page")
struct MetricsPageTests {
    private func page(_ store: UnlockedStore, webhooks: [WebhookEndpoint] = []) throws -> String {
        let figures = try store.read { try APIMetrics.figures(from: $0, webhooks: webhooks) }
        return APIMetrics().page(status: try GatewayStatus.read(from: store, now: Date()), figures: figures, arrivals: ([], 0, 0))
    }

    private func reject(_ error: String, from contact: Contact, in store: UnlockedStore) throws {
        try store.write { tx in
            _ = try tx.appendLog(NewLogEntry(direction: .incoming, contact: contact, status: .rejected, ciphertext: "x", error: error))
        }
    }

    @Test("Decryption failures by reason, from the sentences the receive path logs")
    func decryptFailuresByReason() throws {
        let (directory, _, store) = try TestStore.unlockedStore()
        defer { _ = directory }
        let contact = try store.write { tx in try tx.addContact(name: "bob", number: try PhoneNumber("+15550002"), pairingCode: Data([1])) }
        let before = try page(store)
        for reason in DecryptFailureReason.allCases {
            #expect(before.contains("smsgw_decrypt_failures{reason=\"\(reason.rawValue)\"} 0"), "\(reason) is there from the start")
        }
        try reject(CipherError.notAuthentic.description + " 3 messages in a row failed; resynchronise with bob.", from: contact, in: store)
        try reject(CipherError.notAuthentic.description, from: contact, in: store)
        try reject(CipherError.beyondWindow(ahead: 99).description, from: contact, in: store)
        try reject(CipherError.malformed(.invalidCharacter("é", position: 7)).description, from: contact, in: store)
        try reject(CipherError.conflictingHandshake.description, from: contact, in: store)
        try reject(IncomingMessage.reflectedNote(message: 4, contact: "bob"), from: contact, in: store)
        try reject("A sentence of a later version.", from: contact, in: store)
        let after = try page(store)
        for (reason, count) in [
            ("not_authentic", 2), ("beyond_window", 1), ("malformed", 1), ("replayed_handshake", 0), ("conflicting_handshake", 1),
            ("own_message", 1), ("other", 1),
        ] {
            #expect(after.contains("smsgw_decrypt_failures{reason=\"\(reason)\"} \(count)"), "\(reason): \(after)")
        }
    }

    @Test("Resyncs: completed ones from the log, requested, pending and unanswered ones from the contacts")
    func resyncs() throws {
        let (directory, _, store) = try TestStore.unlockedStore()
        defer { _ = directory }
        let contact = try store.write { tx in try tx.addContact(name: "bob", number: try PhoneNumber("+15550002"), pairingCode: Data([1])) }
        let before = try page(store)
        for state in ["completed", "requested", "pending", "unanswered"] {
            #expect(before.contains("smsgw_resyncs{state=\"\(state)\"} 0"), "\(state) is there from the start: \(before)")
        }
        try store.write { tx in
            for _ in 0..<2 { _ = try tx.appendLog(NewLogEntry(direction: .incoming, contact: contact, status: .resynced)) }
        }
        #expect(try page(store).contains("smsgw_resyncs{state=\"completed\"} 2"))
    }

    @Test("Webhook deliveries by outcome: pending, delivered, retrying, gave up, disabled")
    func webhookDeliveriesByOutcome() throws {
        let (directory, _, store) = try TestStore.unlockedStore()
        defer { _ = directory }
        #expect(try page(store).contains("smsgw_webhook_deliveries{outcome=\"delivered\"} 0"))
        let now = Date()
        try store.write { tx in
            for url in ["http://127.0.0.1:1/a", "http://127.0.0.1:1/gone"] { _ = try tx.ensureWebhookEndpoint(url: url, now: now) }
            var deliveries: [WebhookDeliveryRecord] = []
            for index in 0..<6 {
                let event = try tx.appendEvent(type: "modem.up", time: now, payload: "{}")
                deliveries.append(
                    try tx.insertWebhookDelivery(
                        endpoint: index == 5 ? "http://127.0.0.1:1/gone" : "http://127.0.0.1:1/a", eventID: event, now: now))
            }
            deliveries[1].state = .delivered
            deliveries[2].state = .delivered
            deliveries[3].attempts = 2
            deliveries[4].state = .failed
            deliveries[5].attempts = 1
            for delivery in deliveries { try tx.saveWebhookDelivery(delivery, now: now) }
            try tx.setWebhookEndpointDisabled(url: "http://127.0.0.1:1/gone", reason: "410", now: now)
        }
        let text = try page(store)
        for (outcome, count) in [("pending", 1), ("delivered", 2), ("retrying", 1), ("gave_up", 1), ("disabled", 1)] {
            #expect(text.contains("smsgw_webhook_deliveries{outcome=\"\(outcome)\"} \(count)"), "\(outcome): \(text)")
        }
    }

    @Test("Each configured endpoint's backlog: the events of its types after its cursor")
    func webhookBacklog() throws {
        let (directory, _, store) = try TestStore.unlockedStore()
        defer { _ = directory }
        let endpoint = WebhookEndpoint(
            url: URL(string: "http://127.0.0.1:1/a")!, events: [.modemUp],
            secrets: [try WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")])
        try store.write { tx in try Webhooks.register([endpoint], in: tx, now: Date()) }
        let series = "smsgw_webhook_waiting{endpoint=\"http://127.0.0.1:1/a\"}"
        #expect(try page(store, webhooks: [endpoint]).contains(series + " 0"))
        try store.write { tx in
            for type in ["modem.up", "modem.down", "modem.up"] { try tx.appendEvent(type: type, time: Date(), payload: "{}") }
        }
        let text = try page(store, webhooks: [endpoint])
        #expect(text.contains(series + " 2"), "two modem.up wait, modem.down is not its type: \(text)")
        #expect(!(try page(store)).contains("smsgw_webhook_waiting"), "no series for an endpoint the configuration does not name")
    }

    @Test("Scrapes of an unchanged gateway read the same line for line, each family once, every state from the start")
    func stableOrder() throws {
        let (directory, _, store) = try TestStore.unlockedStore()
        defer { _ = directory }
        let endpoints = try ["a", "b", "c"].map { name in
            WebhookEndpoint(
                url: URL(string: "http://127.0.0.1:1/\(name)")!, events: [.modemUp],
                secrets: [try WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")])
        }
        try store.write { tx in
            try Webhooks.register(endpoints, in: tx, now: Date())
            for (index, name) in ["bob", "carol", "dave"].enumerated() {
                let contact = try tx.addContact(name: name, number: try PhoneNumber("+1555000\(index)"), pairingCode: Data([1]))
                for status in [MessageStatus.rejected, .resynced] {
                    _ = try tx.appendLog(NewLogEntry(direction: .incoming, contact: contact, status: status))
                }
            }
        }
        let first = try page(store, webhooks: endpoints)
        for _ in 0..<8 { #expect(try page(store, webhooks: endpoints) == first) }
        let types = first.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }
        #expect(Set(types).count == types.count, "each family once: \(types)")
        for state in GatewayStatus.SyncState.State.allCases {
            #expect(first.contains("smsgw_contacts{sync_state=\"\(state.rawValue)\"} "), "\(state) is there from the start")
        }
        for state in OutboxState.allCases { #expect(first.contains("smsgw_outbox{state=\"\(state.rawValue)\"} 0")) }
    }

    @Test(
        "The PostgreSQL server's notification queue is a gauge, read at each scrape; SQLite has none", arguments: StoreBackendKind.allCases)
    func notificationQueue(backend: StoreBackendKind) throws {
        try TestStore.withAccount(on: backend) { _, _, store in
            let lines = try page(store).split(separator: "\n").filter { $0.contains("smsgw_postgres_notification_queue_usage_ratio") }
            guard backend == .postgresql else {
                #expect(lines.isEmpty)
                return
            }
            #expect(lines.count == 3 && lines[1] == "# TYPE smsgw_postgres_notification_queue_usage_ratio gauge")
            // A healthy queue: 0, or the few pages the shared test cluster's other tests fill.
            let value = try #require(lines.last?.split(separator: " ").last.flatMap { Double($0) })
            #expect(value >= 0 && value < NotificationQueueUsage.warningFraction)
        }
    }

    @Test("Automatic backups are two gauges while they are on: the newest backup's time and the failures since it; off, none")
    func backups() throws {
        try TestStore.withAccount { _, _, store in
            let figures = try store.read { try APIMetrics.figures(from: $0, webhooks: []) }
            var status = try GatewayStatus.read(from: store, now: Date())
            let off = APIMetrics().page(status: status, figures: figures, arrivals: ([], 0, 0))
            #expect(!off.contains("smsgw_backup_"))
            status.backup = GatewayStatus.Backups(
                GatewayStatus.BackupStatus(
                    directory: "/var/backups/smsgw", intervalSeconds: 86_400, keep: 7,
                    lastSuccessAt: Date(timeIntervalSince1970: 1_795_570_496),
                    lastFile: "/var/backups/smsgw/smsgw-20261125-013456.sqlite", lastError: "disk full", consecutiveFailures: 3))
            let on = APIMetrics().page(status: status, figures: figures, arrivals: ([], 0, 0)).split(separator: "\n")
            #expect(on.contains("# TYPE smsgw_backup_last_success_timestamp_seconds gauge"))
            #expect(on.contains("smsgw_backup_last_success_timestamp_seconds 1795570496"))
            #expect(on.contains("smsgw_backup_consecutive_failures 3"))
        }
    }

    @Test("Sent SMS never confirmed past the threshold are a gauge, 0 while there are none")
    func unconfirmed() throws {
        try TestStore.withAccount { _, _, store in
            let figures = try store.read { try APIMetrics.figures(from: $0, webhooks: []) }
            var status = try GatewayStatus.read(from: store, now: Date())
            let none = APIMetrics().page(status: status, figures: figures, arrivals: ([], 0, 0)).split(separator: "\n")
            #expect(none.contains("# TYPE smsgw_outbox_unconfirmed gauge") && none.contains("smsgw_outbox_unconfirmed 0"))
            status.unconfirmed = GatewayStatus.Unconfirmed(count: 2, oldestSentAt: Date())
            let two = APIMetrics().page(status: status, figures: figures, arrivals: ([], 0, 0)).split(separator: "\n")
            #expect(two.contains("smsgw_outbox_unconfirmed 2"))
        }
    }

    @Test("A label value and help text are escaped as the text format wants them")
    func escaping() {
        var page = GaugePage()
        page.set("modem_up", [("modem", "a\"b\\c\nd")], "Help \\ with\na line feed.", 1)
        let expected = [
            "# HELP smsgw_modem_up Help \\\\ with\\na line feed.", "# TYPE smsgw_modem_up gauge",
            "smsgw_modem_up{modem=\"a\\\"b\\\\c\\nd\"} 1",
        ]
        #expect(page.text == expected.map { $0 + "\n" }.joined())
    }
}
