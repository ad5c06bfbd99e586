import Failures
import Foundation
import Gateway
import Logging
import ModemSimulator
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

extension GatewayIntegrationTests {
    @Suite("Gateway recovery: hung, unplugged and wrong-PIN modems")
    struct RecoveryTests {
        @Test func hungAndUnpluggedModemsRecoverAndTheQueueDrains() async throws {
            let pair = try GatewayPair(test: "recovery", callTimeout: 4)
            try await pair.run {
                #expect(try await pair.waitUntilReady())

                // Hung: calls time out, the supervisor climbs the ladder; the queue waits, then drains.
                pair.a.sim.setHung(true)
                var queued: [QueuedMessage] = []
                for index in 0..<3 {
                    queued.append(try Messages.queue("while hung \(index)", to: "bob", store: pair.a.store))
                }
                let bodies = try queued.map { item in try pair.a.store.read { try $0.outboxItem(id: item.outboxID) }.body }
                let noticed = await eventually(timeout: .seconds(20)) {
                    try GatewayStatus.read(from: pair.a.store).modems.first?.state != .ready
                }
                #expect(noticed)
                try await Task.sleep(for: .seconds(2))
                pair.a.sim.setHung(false)
                #expect(
                    await eventually(timeout: .seconds(60)) {
                        try pair.b.store.incoming(.decrypted).filter { $0.text?.hasPrefix("while hung") == true }.count == 3
                    })
                #expect(try GatewayStatus.read(from: pair.a.store).modems.first?.state == .ready)
                // The send that timed out on the hung modem was retried with the same stored ciphertext.
                let items = try queued.map { item in try pair.a.store.read { try $0.outboxItem(id: item.outboxID) } }
                #expect(items.map(\.body) == bodies)
                #expect(items.contains { $0.attempts >= 2 })
                let received = try pair.b.store.incoming(.decrypted).filter { $0.text?.hasPrefix("while hung") == true }
                #expect(Set(received.compactMap(\.ciphertext)) == Set(bodies))

                // Unplugged: waits for the device, reopens when it is back; SMS for it waited at the SMSC.
                pair.a.sim.unplug()
                let waiting = await eventually(timeout: .seconds(20)) {
                    let modem = try GatewayStatus.read(from: pair.a.store).modems.first
                    return modem?.state == .waitingForDevice || modem?.state == .recovering || modem?.state == .connecting
                }
                #expect(waiting)
                try Messages.queue("while unplugged", to: "bob", store: pair.a.store)
                try Messages.queue("to the unplugged side", to: "alice", store: pair.b.store)
                try await Task.sleep(for: .seconds(2))
                try pair.a.sim.replug()
                #expect(
                    await eventually(timeout: .seconds(60)) {
                        try pair.b.store.incoming(.decrypted).contains { $0.text == "while unplugged" }
                            && pair.a.store.incoming(.decrypted).contains { $0.text == "to the unplugged side" }
                    })
                let modem = try #require(try GatewayStatus.read(from: pair.a.store).modems.first)
                #expect(modem.state == .ready)
                #expect(modem.lastError == nil)
            }
        }

        @Test func aWrongPINStopsTheModemAndSaysSo() async throws {
            let scratch = TemporaryDirectory(prefix: "smsgw-gateway-pin")
            let root = scratch.root
            defer { withExtendedLifetime(scratch) {} }
            let rig = SimulatorRig(seed: 7)
            let network = rig.network
            defer { rig.close() }
            let sim = try network.addModem(number: "+15550001", pin: "1234")
            try network.start()
            let pinFile = root.appendingPathComponent("pin")
            try writeSecret("9999", to: pinFile)
            let store = try TestStore.unlockedStore(in: root.appendingPathComponent("data"))
            let configuration = GatewayConfiguration(
                dataDirectory: root.appendingPathComponent("data"), intervals: GatewayPair.fastIntervals,
                modems: [
                    ModemSettings(
                        name: "pinned", source: .device(path: sim.devicePath, connection: "at"), pinFile: pinFile.path,
                        callTimeoutSeconds: 5)
                ])
            let gateway = try Gateway(
                store: store, configuration: configuration, logger: quietLogger("smsgw.gateway.test"), handlesSignals: false)
            let task = Task { try await gateway.run() }
            #expect(
                await eventually(timeout: .seconds(30)) {
                    try GatewayStatus.read(from: store).modems.first?.state == .wrongPIN
                })
            let modem = try #require(try GatewayStatus.read(from: store).modems.first)
            #expect(modem.lastError?.contains("PIN") == true)
            #expect(modem.lastError?.contains("restart") == true)
            #expect(modem.lastError?.contains("9999") == false)
            // It is never offered again: the gateway keeps running, the modem stays stopped.
            try await Task.sleep(for: .seconds(2))
            #expect(try GatewayStatus.read(from: store).modems.first?.state == .wrongPIN)
            await gateway.shutdown()
            try await task.value
        }

        @Test func noModemMeansUnavailable() throws {
            let scratch = TemporaryDirectory(prefix: "smsgw-gateway-none")
            let root = scratch.url
            defer { withExtendedLifetime(scratch) {} }
            let store = try TestStore.unlockedStore(in: root)
            do {
                _ = try Gateway(
                    store: store, configuration: GatewayConfiguration(dataDirectory: root), logger: quietLogger("smsgw.gateway.test"))
                Issue.record("a gateway without modems was built")
            } catch let error as GatewayError {
                #expect(error == .noModem && error.category == .unavailable)
                #expect(error.description.contains("simulated network") && !error.description.contains("smsgw "))
            }
        }
    }
}
