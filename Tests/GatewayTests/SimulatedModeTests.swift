import Foundation
import Gateway
import Operations
import SimulatedGateway
import Store
import TestSupport
import Testing

extension GatewayIntegrationTests {
    @Suite("serve --sim: the gateway on its own simulated network")
    struct SimulatedModeTests {
        @Test func plainUnknownAndConcatenatedSMSAreLoggedWithoutTouchingKeys() async throws {
            let scratch = TemporaryDirectory(prefix: "smsgw-gateway-sim")
            let root = scratch.root
            defer { withExtendedLifetime(scratch) {} }
            let store = try TestStore.unlockedStore(in: root.appendingPathComponent("data"))
            // A paired contact at the peer number, to show that a plain SMS from it changes no key state.
            let peerStore = try TestStore.unlockedStore(in: root.appendingPathComponent("peer"))
            try GatewayPair.pair(store, named: "bob", number: "+15550002", with: peerStore, named: "alice", number: "+15550001")
            let before = try store.read { try $0.session(for: $0.contact(named: "bob")) }

            let configuration = GatewayConfiguration(
                dataDirectory: root.appendingPathComponent("data"), intervals: GatewayPair.fastIntervals)
            let gateway = try SimulatedGateway(
                store: store, configuration: configuration,
                simulator: SimulatorSettings(directory: root.appendingPathComponent("sim"), seed: 3),
                logger: quietLogger("smsgw.gateway.test"), handlesSignals: false)
            let network = gateway.network
            #expect(gateway.modemNames == ["+15550001"])
            #expect(gateway.summary.count == 3 && gateway.summary[1].hasPrefix("modem +15550001  driven by this gateway  gammurc "))
            #expect(gateway.summary.last?.hasPrefix("modem +15550002  peer  gammurc ") == true, "\(gateway.summary)")
            let task = Task { try await gateway.run() }
            #expect(await eventually(timeout: .seconds(30)) { try GatewayStatus.read(from: store).hasReadyModem })

            let long = String(repeating: "A long plain text that needs several parts. ", count: 6)
            try network.inject(text: "hello from a stranger", from: "+15559999", to: "+15550001")
            try network.inject(text: "just plain, not encrypted", from: "+15550002", to: "+15550001")
            try network.inject(text: long, from: "+15550002", to: "+15550001")
            #expect(await eventually(timeout: .seconds(20)) { try store.incoming(.plain).count == 3 })
            let plain = try store.incoming(.plain)
            let stranger = try #require(plain.first { $0.remoteNumber == "+15559999" })
            #expect(stranger.contactName == nil && stranger.text == "hello from a stranger")
            #expect(plain.contains { $0.contactName == "bob" && $0.text == "just plain, not encrypted" })
            #expect(plain.contains { $0.contactName == "bob" && $0.text == long })
            #expect(try store.read { try $0.session(for: $0.contact(named: "bob")) } == before)
            #expect(try store.read { try $0.contact(named: "bob") }.verificationFailures == 0)
            // Processed SMS are deleted from the modem, only after they were logged.
            #expect(await eventually { network.modem(number: "+15550001")?.storedMessageCount == 0 })

            await gateway.shutdown()
            try await task.value
            #expect(try GatewayStatus.read(from: store).modems.first?.state == .stopped)
        }
    }
}
