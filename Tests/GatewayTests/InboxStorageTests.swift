import Foundation
import Gateway
import ModemSimulator
import Operations
import SimulatedGateway
import Store
import TestSupport
import Testing

/// One gateway on its own simulated network (`serve --sim`), with a paired contact "bob" at
/// +15550002, for what the inbox must never leave on the modem.
final class SoloGateway: @unchecked Sendable {
    let root: URL
    let store: UnlockedStore
    let gateway: SimulatedGateway
    let network: SimulatedNetwork
    let sim: SimulatedModem
    private var task: Task<Void, any Error>?

    init(partTimeout: Double = 600, capacity: Int? = nil, direct: Bool = false) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-inbox-\(UUID().uuidString.prefix(8))")
        store = try TestStore.unlockedStore(in: root.appendingPathComponent("data"))
        let peer = try TestStore.unlockedStore(in: root.appendingPathComponent("peer"))
        try GatewayPair.pair(store, named: "bob", number: "+15550002", with: peer, named: "alice", number: "+15550001")
        var intervals = GatewayPair.fastIntervals
        intervals.partTimeoutSeconds = partTimeout
        gateway = try SimulatedGateway(
            store: store, configuration: GatewayConfiguration(dataDirectory: root.appendingPathComponent("data"), intervals: intervals),
            simulator: SimulatorSettings(directory: root.appendingPathComponent("sim"), seed: 5),
            logger: quietLogger("smsgw.gateway.test"), handlesSignals: false)
        network = gateway.network
        sim = try #require(network.modem(number: "+15550001"))
        if let capacity { sim.storageCapacity = capacity }
        sim.deliversDirectly = direct
    }

    func start() async -> Bool {
        let gateway = self.gateway
        task = Task { try await gateway.run() }
        return await eventually(timeout: .seconds(30)) { try GatewayStatus.read(from: self.store).hasReadyModem }
    }

    func stop() async {
        await gateway.shutdown()
        _ = try? await task?.value
        try? FileManager.default.removeItem(at: root)
    }

    /// Incoming log rows whose note (error) contains `fragment`.
    func noted(_ fragment: String) throws -> [LogEntry] {
        try store.log(limit: 10_000).filter { $0.direction == .incoming && ($0.error ?? "").contains(fragment) }
    }
}

extension GatewayIntegrationTests {
    @Suite("The inbox never leaves junk on the modem")
    struct InboxStorageTests {
        @Test func aLonePartIsLoggedAsPartialAndDeletedAfterTheTimeout() async throws {
            let solo = try SoloGateway(partTimeout: 2)
            #expect(await solo.start())
            try solo.network.inject(part: 1, of: 3, reference: 7, text: "first third", from: "+15559999", to: "+15550001")
            #expect(await eventually { try solo.noted("only part 1 of 3 arrived").count == 1 })
            let row = try #require(try solo.noted("only part 1 of 3 arrived").first)
            #expect(row.status == .plain && row.text == "first third" && row.remoteNumber == "+15559999")
            #expect(await eventually { solo.sim.storedMessageCount == 0 })
            await solo.stop()
        }

        @Test func oneSenderCannotFillTheSIMWithParts() async throws {
            let solo = try SoloGateway()
            #expect(await solo.start())
            for reference in 1...14 {
                try solo.network.inject(part: 1, of: 2, reference: reference, text: "junk \(reference)", from: "+15559999", to: "+15550001")
            }
            #expect(await eventually { try solo.noted("more than 10 parts from this sender").count == 4 })
            #expect(await eventually { solo.sim.storedMessageCount == 10 })
            await solo.stop()
        }

        @Test func aFullStorageIsFreedAndTheContactsNextMessageArrives() async throws {
            let solo = try SoloGateway(capacity: 6)
            #expect(await solo.start())
            // Three strangers, two lone parts each: within every per-sender cap, and the SIM is full.
            for (offset, sender) in ["+15559991", "+15559992", "+15559993"].enumerated() {
                for part in 1...2 {
                    try solo.network.inject(
                        part: part, of: 3, reference: offset, text: "stray \(offset)/\(part)", from: sender, to: "+15550001")
                }
            }
            try solo.network.inject(text: "bob's next message", from: "+15550002", to: "+15550001")
            #expect(
                await eventually { try solo.store.incoming(.plain).contains { $0.text == "bob's next message" && $0.contactName == "bob" } }
            )
            #expect(try solo.noted("the modem's storage was full").count >= 1)
            await solo.stop()
        }

        @Test func anUnreadableEntryIsLoggedOnceWithItsRawFormAndDeleted() async throws {
            let solo = try SoloGateway()
            try solo.sim.store(line: "0791ZZZZ", status: 0)
            #expect(await solo.start())
            try solo.network.inject(text: "still received", from: "+15559999", to: "+15550001")
            #expect(await eventually { try solo.store.incoming(.plain).contains { $0.text == "still received" } })
            #expect(await eventually { try solo.store.incoming(.unreadable).count == 1 })
            #expect(await eventually { solo.sim.storedMessageCount == 0 })
            try await Task.sleep(for: .seconds(3))  // a few more polls
            let rows = try solo.store.incoming(.unreadable)
            #expect(rows.count == 1)
            #expect(rows.first?.text?.contains("0791ZZZZ") == true)
            #expect(rows.first?.error?.contains("could not be read") == true)
            await solo.stop()
        }

        @Test func aDirectDeliveryIsLogged() async throws {
            let solo = try SoloGateway(direct: true)
            #expect(await solo.start())
            try solo.network.inject(text: "handed over at once", from: "+15559999", to: "+15550001")
            #expect(await eventually { try solo.store.incoming(.plain).contains { $0.text == "handed over at once" } })
            #expect(solo.sim.storedMessageCount == 0)
            await solo.stop()
        }

        @Test func outboxCopiesAreNeitherLoggedNorDeleted() async throws {
            let solo = try SoloGateway()
            let submit = SMSSubmit(destination: PhoneAddress("+15550002"), userData: try UserData(text: "a draft"))
            try solo.sim.store(line: "00" + Hex.encode(try submit.encoded()), status: 2)
            #expect(await solo.start())
            try solo.network.inject(text: "received", from: "+15559999", to: "+15550001")
            #expect(await eventually { try solo.store.incoming(.plain).contains { $0.text == "received" } })
            try await Task.sleep(for: .seconds(2))
            #expect(try solo.store.log(limit: 100).filter { $0.direction == .incoming }.map(\.text) == ["received"])
            #expect(solo.sim.storedMessageCount == 1)
            await solo.stop()
        }

        @Test func statusShowsNoStaleSignalWhileWaitingForTheDevice() async throws {
            let solo = try SoloGateway()
            #expect(await solo.start())
            #expect(await eventually { try GatewayStatus.read(from: solo.store).modems.first?.signalPercent != nil })
            solo.sim.unplug()
            #expect(await eventually { try GatewayStatus.read(from: solo.store).modems.first?.state == .waitingForDevice })
            let modem = try #require(try GatewayStatus.read(from: solo.store).modems.first)
            #expect(modem.signalPercent == nil && modem.networkOperator == nil)
            await solo.stop()
        }
    }
}
