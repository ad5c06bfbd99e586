import Foundation
import Modem
import ModemSimulator
import TestSupport
import Testing

@Suite("Connection through libgammu's AT driver", .serialized)
struct ConnectionTests {
    @Test func connectsAndIdentifies() async throws {
        let fixture = SimulatorRig()
        let sim = try fixture.network.addModem(number: "+15550001")
        try fixture.network.start()
        let modem = try fixture.modem(for: sim)
        try await modem.connect()
        #expect(modem.isConnected)
        #expect(modem.supportsNotifications)
        let status = try await modem.status()
        #expect(status.manufacturer == "SMSGW-SIM")
        #expect(status.model == "SimModem 1")
        #expect(status.imei?.count == 15)
        #expect(status.imsi?.hasPrefix("00101") == true)
        #expect(status.registration == .home)
        #expect(status.smscNumber == SimulatedNetwork.serviceCentreNumber)
        #expect(status.signalStrength != nil)
        try await modem.probe()
        await modem.disconnect()
        #expect(!modem.isConnected)
    }
}
