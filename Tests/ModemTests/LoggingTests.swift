import Foundation
import Logging
import Modem
import ModemSimulator
import Synchronization
import Testing

/// Keeps every log line, with its metadata, for inspection.
struct CapturingLogHandler: LogHandler {
    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    let store: Lines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.lines.withLock { $0.append("\(event.level) \(event.message) \(merged)") }
    }
}

@Suite("Logging", .serialized)
struct LoggingTests {
    @Test func thePINNeverReachesTheLogEvenAtTrace() async throws {
        let fixture = SimulatorFixture()
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
}
