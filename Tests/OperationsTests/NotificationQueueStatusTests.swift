import Foundation
import Operations
import Store
import TestSupport
import Testing

/// The PostgreSQL server's notification queue in the status (``Store/NotificationQueueUsage``):
/// read on PostgreSQL, none on SQLite, always in the JSON, a warning only above its threshold.
@Suite("The notification queue in the status")
struct NotificationQueueStatusTests {
    /// The status's JSON as `status --json` prints it, decoded as a dictionary.
    private static func json(_ status: GatewayStatus) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OperationsJSON.string(status).utf8)) as? [String: Any])
    }

    /// `status` through JSON and back, as the daemon's status socket carries it.
    private static func carried(_ status: GatewayStatus) throws -> GatewayStatus {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(GatewayStatus.self, from: try encoder.encode(status))
    }

    @Test("PostgreSQL: the queue's usage is read (healthy, far below the warning) and carried in the JSON")
    func readOnPostgreSQL() throws {
        try TestStore.withAccount(on: .postgresql) { _, _, store in
            let status = try GatewayStatus.read(from: store, now: Date())
            let fraction = try #require(status.notificationQueueUsage.fraction)
            // The shared test cluster's other tests notify too: a few pages at most, never near 0.5 %.
            #expect(fraction >= 0 && fraction < NotificationQueueUsage.warningFraction)
            #expect(status.notificationQueueUsage.warning == nil)
            #expect(try Self.json(status)["notificationQueueUsage"] as? Double == fraction)
            #expect(try Self.carried(status) == status)
            // The console's banners come from the small read: it reads the queue too.
            #expect(try GatewayStatus.readForBanners(from: store, now: Date()).notificationQueueUsage.fraction != nil)
        }
    }

    @Test("SQLite: no queue, and the JSON says so with null")
    func noneOnSQLite() throws {
        try TestStore.withAccount(on: .sqlite) { _, _, store in
            let status = try GatewayStatus.read(from: store, now: Date())
            #expect(status.notificationQueueUsage.fraction == nil && status.notificationQueueUsage.warning == nil)
            let json = try Self.json(status)
            #expect(json.keys.contains("notificationQueueUsage") && json["notificationQueueUsage"] is NSNull)
            #expect(try Self.carried(status) == status)
        }
    }

    @Test("A status from an smsgw that did not report the queue decodes as none")
    func missingDecodesAsNone() throws {
        var json = try Self.json(GatewayStatus(modems: [], outbox: [:], contacts: []))
        json["notificationQueueUsage"] = nil
        let status = try JSONDecoder().decode(GatewayStatus.self, from: try JSONSerialization.data(withJSONObject: json))
        #expect(status.notificationQueueUsage == NotificationQueueUsage(nil))
    }

    @Test(
        "Above 0.5 % the status warns, with the fraction and what to do; at or below it, it does not",
        arguments: [
            (0.0, nil), (0.004, nil), (0.005, nil), (0.0051, "0.5 % full"), (0.25, "25.0 % full"), (1.0, "100.0 % full"),
        ] as [(Double, String?)])
    func warningAboveTheThreshold(fraction: Double, expected: String?) {
        let warning = NotificationQueueUsage(fraction).warning
        #expect(warning.map { $0.contains("notification queue is \(expected ?? "")") } ?? (expected == nil), "\(fraction)")
        #expect(warning.map { $0.contains("pg_stat_activity") && $0.contains("every write on every node fails") } ?? true)
    }
}
