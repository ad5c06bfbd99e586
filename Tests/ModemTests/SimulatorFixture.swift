import Foundation
import Logging
import Modem
import ModemSimulator

/// A simulated network in its own temporary directory, stopped and removed when the test ends.
final class SimulatorFixture {
    let network: SimulatedNetwork
    let directory: URL

    init(seed: UInt64 = 1) {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("smsgw-modem-tests-\(UUID().uuidString.prefix(8))")
        var simLogger = Logger(label: "smsgw.sim.test")
        simLogger.logLevel = .critical
        network = SimulatedNetwork(directory: directory, seed: seed, logger: simLogger)
    }

    deinit {
        network.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A ``GammuModem`` for a simulated modem, not yet connected.
    func modem(
        for sim: SimulatedModem, pin: String? = nil, callTimeout: Duration = .seconds(15),
        watchdogTimeout: Duration = .seconds(5)
    ) throws -> GammuModem {
        var logger = Logger(label: "smsgw.modem.test")
        logger.logLevel = .critical
        let configuration = ModemConfiguration(
            name: sim.number, device: sim.devicePath, connection: "at", pin: pin,
            callTimeout: callTimeout, watchdogTimeout: watchdogTimeout, pollingInterval: .milliseconds(100)
        )
        return try GammuModem(configuration: configuration, logger: logger)
    }

    /// Polls `condition` until it holds or `timeout` passes.
    static func eventually(
        timeout: Duration = .seconds(15), _ condition: () async throws -> Bool
    ) async rethrows -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return try await condition()
    }
}

/// Collects a modem's events in the background.
final class EventRecorder: Sendable {
    private let box = EventBox()
    private let task: Task<Void, Never>

    init(_ modem: GammuModem) {
        let box = self.box
        task = Task { for await event in modem.events { await box.append(event) } }
    }

    deinit { task.cancel() }

    var events: [ModemEvent] { get async { await box.events } }
}

private actor EventBox {
    var events: [ModemEvent] = []
    func append(_ event: ModemEvent) { events.append(event) }
}
