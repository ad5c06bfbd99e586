import Foundation
import GSM7
import Logging
import Modem
import ModemSimulator
import Synchronization
import TestSupport
import Testing

@Suite("Logging", .serialized)
struct LoggingTests {
    @Test func thePINNeverReachesTheLogEvenAtTrace() async throws {
        let fixture = SimulatorRig()
        let sim = try fixture.network.addModem(number: "+15550001", pin: "8642")
        try fixture.network.start()
        let store = CapturingLogHandler.Lines()
        let logger = Logger(label: "smsgw.modem.test") { _ in CapturingLogHandler(store: store) }

        let right = try GammuModem(
            configuration: ModemConfiguration(name: "pin-test", device: sim.devicePath, pin: "8642"), logger: logger
        )
        try await right.connect()
        _ = try await right.status()
        await right.disconnect()

        sim.unplug()
        try sim.replug()  // power-on: the SIM asks for its PIN again
        let wrong = try GammuModem(
            configuration: ModemConfiguration(name: "pin-test", device: sim.devicePath, pin: "1357"), logger: logger
        )
        await #expect(throws: ModemError.self) { try await wrong.connect() }

        let lines = store.all
        #expect(lines.contains { $0.contains("libgammu:") && $0.contains("AT+CGMI") }, "no libgammu trace")
        #expect(!lines.contains { $0.contains("8642") })
        #expect(!lines.contains { $0.contains("1357") })
        #expect(!lines.contains { $0.contains("CPIN=") })
        #expect(lines.contains { $0.contains("smsgw.modem") })
    }

    @Test func theTraceNeverHoldsTextsPDUsIMSIOrIMEI() async throws {
        let fixture = SimulatorRig()
        let simA = try fixture.network.addModem(number: "+15550001")
        let simB = try fixture.network.addModem(number: "+15550002")
        try fixture.network.start()
        let store = CapturingLogHandler.Lines()
        let logger = Logger(label: "smsgw.modem.test") { _ in CapturingLogHandler(store: store) }
        let modem = try GammuModem(
            configuration: ModemConfiguration(name: "trace-test", device: simA.devicePath), logger: logger)
        try await modem.connect()
        let status = try await modem.status()
        let imsi = try #require(status.imsi)
        let imei = try #require(status.imei)

        let outgoing = "outgoing words nobody may log"
        _ = try await modem.send(text: outgoing, to: "+15550002", statusReport: false)
        #expect(await eventually(timeout: .seconds(15)) { simB.storedMessageCount == 1 })
        let incoming = "incoming words nobody may log"
        try fixture.network.inject(text: incoming, from: "+15559999", to: "+15550001")
        #expect(await eventually(timeout: .seconds(15)) { simA.storedMessageCount == 1 })
        let storedPDU = Hex.encode(try #require(simA.storedPDUs.first).pdu)
        let messages = try await modem.messages()
        #expect(messages.map(\.text) == [incoming])
        await modem.disconnect()

        let lines = store.all.filter { $0.contains("libgammu:") }
        #expect(lines.contains { $0.contains("AT+CMGL") }, "no libgammu trace")
        var secrets = [outgoing, incoming, storedPDU, imsi, imei]
        for text in [outgoing, incoming] {
            // The packed user data, as it appears inside every PDU that carries the text.
            secrets.append(String(Hex.encode(GSM7.pack(try GSM7.septets(for: text))).prefix(24)))
        }
        for secret in secrets {
            let found = lines.filter { $0.uppercased().contains(secret.uppercased()) }
            #expect(found.isEmpty, "\(secret) is in the trace: \(found.prefix(3))")
        }
        // A stored entry's raw form cannot forge a line of its own: controls are replaced.
        #expect(!lines.contains { $0.unicodeScalars.contains { $0.value < 0x20 } })
    }
}
