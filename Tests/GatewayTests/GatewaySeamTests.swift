import Foundation
import Gateway
import Modem
import Operations
import Store
import Synchronization
import TestSupport
import Testing

/// The whole daemon through its public face, with its modem made by the test: the gateway needs
/// nothing of a modem but ``SMSModem``.
@Suite("Gateway over an in-memory modem")
struct GatewaySeamTests {
    /// A gateway over the rig's in-memory modem, not yet running.
    static func gateway() async throws -> (MemoryRig, GatewayConfiguration, Gateway) {
        let rig = try await MemoryRig.make(ready: false)
        let modem = rig.modem
        let configuration = GatewayConfiguration(
            dataDirectory: rig.directory.url, intervals: MemoryRig.fastIntervals,
            modems: [ModemSettings(name: "m1", source: .device(path: modem.device, connection: "at"))])
        let gateway = try Gateway(
            store: rig.store, configuration: configuration, logger: quietLogger("smsgw.gateway.test"), handlesSignals: false,
            makeModem: { _, _, _ in modem })
        return (rig, configuration, gateway)
    }

    @Test func aGatewaySendsAndReceivesThroughAnyModem() async throws {
        let (rig, _, gateway) = try await Self.gateway()
        let modem = rig.modem
        let task = Task { try await gateway.run() }
        #expect(await eventually(timeout: MemoryRig.patience) { try GatewayStatus.read(from: rig.store).hasReadyModem })

        let queued = try Messages.queue("through the seam", to: "bob", store: rig.store)
        #expect(
            await eventually(timeout: MemoryRig.patience) { try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.state == .sent })
        #expect(modem.sent.count == 1)
        modem.deliver(rig.sms(try rig.sealedByBob("and back")))
        #expect(await eventually(timeout: MemoryRig.patience) { try rig.incoming(.decrypted).map(\.text) == ["and back"] })

        await gateway.shutdown()
        try await task.value
        #expect(try GatewayStatus.read(from: rig.store).modems.first?.state == .stopped)
        #expect(modem.calls.last == .disconnect)
    }

    @Test("The node's row is claimed once, when the gateway is made, not again when it runs")
    func theNodeIsClaimedOnce() async throws {
        let (rig, configuration, gateway) = try await Self.gateway()
        let name = configuration.gatewayNode.name
        let claimed = try #require(try rig.store.read { try $0.nodes() }.first { $0.name == name })
        let task = Task { try await gateway.run() }
        #expect(await eventually(timeout: MemoryRig.patience) { try GatewayStatus.read(from: rig.store).hasReadyModem })
        // A second claim would have written the row again, with a later start.
        let running = try #require(try rig.store.read { try $0.nodes() }.first { $0.name == name })
        #expect(running.startedAt == claimed.startedAt)
        await gateway.shutdown()
        try await task.value
    }

    /// A migration that completed while this daemon started recorded the move before the claim
    /// could commit: the daemon finds the record after its claim and does not run.
    @Test("A store recorded as moved after it was opened refuses the gateway once its node is claimed, and the node shows stopped")
    func movedStoreRefusedAfterTheClaim() async throws {
        let rig = try await MemoryRig.make(ready: false)
        let modem = rig.modem
        let configuration = GatewayConfiguration(
            dataDirectory: rig.directory.url, intervals: MemoryRig.fastIntervals,
            modems: [ModemSettings(name: "m1", source: .device(path: modem.device, connection: "at"))])
        let record = rig.directory.url.appendingPathComponent(GatewayStore.movedMarkerFileName)
        #expect(FileManager.default.createFile(atPath: record.path, contents: Data("Copied to sqlite /elsewhere.\n".utf8)))
        #expect {
            _ = try Gateway(
                store: rig.store, configuration: configuration, logger: quietLogger("smsgw.gateway.test"), handlesSignals: false,
                makeModem: { _, _, _ in modem })
        } throws: { error in
            (error as? StoreError)?.category == .configuration && "\(error)".contains("is an old copy: Copied to sqlite /elsewhere.")
        }
        let node = try #require(try rig.store.read { try $0.nodes() }.first { $0.name == configuration.gatewayNode.name })
        #expect(node.stoppedAt != nil)
    }

    /// Runs a gateway that beats no heartbeat after its start's until its modem is ready, records
    /// that its store moved, runs `act` and expects the daemon to stop at once, refused as an old
    /// copy, with bob's key state as before.
    static func expectStopOnceMoved(_ act: (MemoryRig) throws -> Void) async throws -> MemoryRig {
        var intervals = MemoryRig.fastIntervals
        intervals.healthSeconds = 3600  // no heartbeat after the start's
        let rig = try await MemoryRig.make(ready: false, intervals: intervals)
        let modem = rig.modem
        let configuration = GatewayConfiguration(
            dataDirectory: rig.directory.url, intervals: intervals,
            modems: [ModemSettings(name: "m1", source: .device(path: modem.device, connection: "at"))])
        let gateway = try Gateway(
            store: rig.store, configuration: configuration, logger: quietLogger("smsgw.gateway.test"), handlesSignals: false,
            makeModem: { _, _, _ in modem })
        let ended = Mutex(false)
        let task = Task {
            defer { ended.withLock { $0 = true } }
            try await gateway.run()
        }
        #expect(await eventually(timeout: MemoryRig.patience) { try GatewayStatus.read(from: rig.store).hasReadyModem })
        let before = try rig.store.read { try $0.session(for: $0.contact(named: "bob")) }
        let record = rig.directory.url.appendingPathComponent(GatewayStore.movedMarkerFileName)
        #expect(FileManager.default.createFile(atPath: record.path, contents: Data("Copied to sqlite /elsewhere.\n".utf8)))
        try act(rig)
        #expect(await eventually(timeout: MemoryRig.patience) { ended.withLock { $0 } })
        if !ended.withLock({ $0 }) { await gateway.shutdown() }
        await #expect {
            try await task.value
        } throws: { error in
            (error as? StoreError)?.category == .configuration && "\(error)".contains("is an old copy")
        }
        #expect(try rig.store.read { try $0.session(for: $0.contact(named: "bob")) } == before)
        return rig
    }

    /// A node down or cut off during a migration comes back on the old store: its first step of a
    /// key state finds the record and is refused, and the daemon stops then, not at a heartbeat.
    @Test("A store moved while the daemon runs refuses its next key step, keeps the key state, and stops the daemon without a heartbeat")
    func movedStoreStopsTheDaemonAtARefusedStep() async throws {
        let rig = try await Self.expectStopOnceMoved { rig in rig.modem.deliver(rig.sms(try rig.sealedByBob("after the move"))) }
        #expect(try rig.incoming(.decrypted).isEmpty)
    }

    /// The HTTP API and the console seal on the daemon's store without its runner (through the
    /// application layer): a seal they ask for after a move is refused, and the daemon stops then too.
    @Test("A seal of a front end refused on a moved store stops the daemon without a heartbeat, and steps no key state")
    func movedStoreStopsTheDaemonAtAFrontEndsRefusedSeal() async throws {
        _ = try await Self.expectStopOnceMoved { rig in
            var rng = SystemRandomNumberGenerator()
            #expect {
                try Messages.queue("after the move", to: "bob", store: rig.store, now: Date(), using: &rng)
            } throws: { error in
                (error as? StoreError)?.category == .configuration && "\(error)".contains("is an old copy")
            }
        }
    }
}
