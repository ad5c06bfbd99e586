import Foundation
import Logging
import Modem
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// The warning of a contact pinned to a modem no node has: not logged at the start, when a node
/// started just before may not have recorded its modems yet, and logged once for a modem that
/// no node records by the first heartbeat after.
@Suite("A contact pinned to a modem no node has")
struct PinWarningTests {
    static let warning = "pinned to a modem that no node has"

    @Test("A node started just after another does not warn of its modem; a modem no node has is warned of once, after a heartbeat")
    func warnsOnlyOfModemsNoNodeHas() async throws {
        let rig = try await MemoryRig.make()
        try rig.store.write { tx in
            _ = try tx.setModem("north", forContactNamed: "bob")
            let carol = try tx.addContact(name: "carol", number: PhoneNumber("+15550003"), pairingCode: Data())
            _ = try tx.setModem("nowhere", forContactNamed: carol.name)
        }
        let lines = CapturingLogHandler.Lines()
        let context = GatewayContext(
            store: rig.context.store, intervals: MemoryRig.fastIntervals, resync: ResyncSettings(), links: [rig.link],
            node: GatewayNode(name: "beta", healthSeconds: 0.2),
            logger: Logger(label: "smsgw.gateway.test") { _ in CapturingLogHandler(store: lines) })

        // Beta starts while alpha, starting beside it, has not recorded its modem `north` yet.
        #expect(try rig.store.write { try $0.claimNode(context.presence.node, now: Date()) } == nil)
        context.started()
        let sender = Task { try await OutboxSender(context: context).run() }
        #expect(await eventually(timeout: MemoryRig.patience) { rig.link.outboxBell.hasWaiter })
        sender.cancel()
        _ = try? await sender.value
        #expect(!lines.all.contains { $0.contains(Self.warning) }, "\(lines.all)")

        // Alpha records its modem; at beta's next heartbeat only the modem no node has is named, once.
        try rig.store.write { tx in
            try tx.startNode(GatewayNode(name: "alpha", healthSeconds: 0.2), now: Date())
            try tx.saveModemStatus(ModemStatusRecord(name: "north", state: .ready, connected: true, node: "alpha"))
        }
        _ = await context.heartbeat(now: Date())
        _ = await context.heartbeat(now: Date())
        let warnings = lines.all.filter { $0.contains(Self.warning) }
        #expect(warnings.count == 1 && warnings[0].contains("nowhere") && warnings[0].contains("carol"), "\(warnings)")
    }
}
