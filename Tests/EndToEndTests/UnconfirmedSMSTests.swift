import Foundation
import GRDB
import TestSupport
import Testing

/// An SMS the network drops stays `sent` with no delivery report; `status` counts it once it
/// is older than the threshold (6 hours), which the test reaches by moving the send back in time.
@Suite("Sent SMS never confirmed")
struct UnconfirmedSMSTests {
    @Test("A dropped SMS shows in status, plain and JSON, once 6 hours passed, until marked checked; a delivered one never does")
    func droppedSMSIsReported() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            try await rig.startBoth()
            let arrives = try rig.send("this one arrives", from: rig.alice, to: rig.bob)
            try await GatewayRig.wait("the delivery report", timeout: 90) {
                try rig.log(rig.alice).contains { $0.id == arrives && $0.status == "delivered" }
            }
            try rig.control("drop", "1")
            let dropped = try rig.send("the network drops this one", from: rig.alice, to: rig.bob)
            try await GatewayRig.wait("the dropped SMS to leave", timeout: 90) {
                try rig.log(rig.alice).contains { $0.id == dropped && $0.status == "sent" }
            }
            #expect(try rig.alice.expect(["status", "--json"]).stdout.contains("\"unconfirmed\"") == false)
            try await rig.stopBoth()

            // Seven hours later, as far as the store knows.
            let store = try DatabaseQueue(path: rig.alice.dataDir.appendingPathComponent("smsgw.sqlite").path)
            try await store.write { db in
                try db.execute(
                    sql: "UPDATE outbox SET sent_at = sent_at - 25200 WHERE message_id IN (?, ?)", arguments: [arrives, dropped])
            }
            try store.close()
            let json = try rig.alice.expect(["status", "--json"]).stdout
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let unconfirmed = try #require(object["unconfirmed"] as? [String: Any], "\(json)")
            #expect(unconfirmed["count"] as? Int == 1 && unconfirmed["thresholdSeconds"] as? Int == 21_600)
            #expect(unconfirmed["oldestSentAt"] is String)
            let plain = try rig.alice.expect(["status"]).stdout
            #expect(plain.contains("Outbox: 1 sent SMS has had no delivery report or acknowledgement for over 6 hours"), "\(plain)")

            // The operator asked bob: marked checked, it no longer counts; the audit list says so.
            #expect(try rig.alice.run(["log", "checked"]).status == 64)
            #expect(try rig.alice.run(["log", "checked", "99999"]).status == 66)
            let delivered = try rig.alice.run(["log", "checked", "\(arrives)"])
            #expect(delivered.status == 65 && delivered.stderr.contains("has no sent SMS waiting"), "\(delivered.stderr)")
            #expect(try rig.alice.expect(["log", "checked", "--all"]).stdout == "Marked 1 SMS as checked.\n")
            #expect(try rig.alice.expect(["status", "--json"]).stdout.contains("\"unconfirmed\"") == false)
            #expect(try rig.alice.expect(["log", "checked", "--all"]).stdout.hasPrefix("No SMS is counted as unconfirmed"))
            #expect(try rig.alice.run(["log", "checked", "\(dropped)"]).status == 65)
            let audit = try rig.alice.expect(["audit"]).stdout
            #expect(audit.contains("command-line\tunconfirmed-checked\tall\tdone"), "\(audit)")
        }
    }
}
