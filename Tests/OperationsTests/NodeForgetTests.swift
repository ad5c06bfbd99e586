import Foundation
import Operations
import Store
import TestSupport
import Testing

/// `smsgw node forget`: a node that stopped or went down for good leaves the status's list.
@Suite("Forgetting a node")
struct NodeForgetTests {
    @Test("A stopped or down node is forgotten with its modems' status, audited; an up one is refused naming its lease")
    func forget() throws {
        try TestStore.withAccount { _, _, store in
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            let north = GatewayNode(name: "north", healthSeconds: 10)
            let south = GatewayNode(name: "south", healthSeconds: 10)
            let west = GatewayNode(name: "west", healthSeconds: 10)
            try store.write { tx in
                for node in [north, south, west] { try tx.startNode(node, now: start) }
                try tx.stopNode(named: "south", now: start)
                try tx.saveModemStatus(ModemStatusRecord(name: "n1", state: .ready, connected: true, node: "north"))
                try tx.saveModemStatus(ModemStatusRecord(name: "w1", state: .ready, connected: true, node: "west"))
            }
            // west beats again later, so at `now` its lease (30 s) still holds; north's ended.
            _ = try store.write { tx in try tx.recordHeartbeat(west, now: start.addingTimeInterval(50)) }
            let now = start.addingTimeInterval(60)
            let refusal = MaintenanceError.nodeUp(
                name: "west", heartbeatAt: start.addingTimeInterval(50), leaseEndsAt: start.addingTimeInterval(80))
            #expect(throws: refusal) { try Nodes.forget("west", store: store, now: now) }
            #expect(refusal.category == .busy && refusal.description.contains("2027-01-15T08:00:50Z"))
            #expect(throws: StoreError.notFound(.node(named: "east"))) { try Nodes.forget("east", store: store, now: now) }
            #expect(try Nodes.forgettable("north", store: store, now: now).name == "north")

            #expect(try Nodes.forget("north", store: store, now: now).name == "north")
            #expect(try Nodes.forget("south", store: store, now: now).name == "south")
            let status = try GatewayStatus.read(from: store, now: now)
            #expect(status.nodes.map(\.name) == ["west"])
            #expect(status.modems.map(\.name) == ["w1"])
            let audit = try Audit.list(in: store).filter { $0.action == "node-forgotten" }
            #expect(
                audit.map(\.target) == ["node south", "node north"]
                    && audit.allSatisfy { $0.actor == "command-line" && $0.outcome == "done" })
            // Forgotten: the name is unknown now, and a node starting under it is recorded afresh.
            #expect(throws: StoreError.notFound(.node(named: "north"))) { try Nodes.forget("north", store: store, now: now) }
        }
    }
}
