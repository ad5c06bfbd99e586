import Foundation
import Logging
import ModemSimulator
import Testing

/// Starting a whole network in one call, as `smsgw sim` does, and its command-line delay ranges.
struct LaunchTests {
    @Test func aLaunchedNetworkRunsEveryModemWithItsGammurcAndControlSocket() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-launch-\(UUID().uuidString.prefix(8))")
        var logger = Logger(label: "smsgw.sim.test")
        logger.logLevel = .warning
        let network = try SimulatedNetwork.launch(
            in: directory, numbers: SimulatedNetwork.defaultNumbers(count: 2), faults: FaultPlan(dropRate: 0.5), seed: 7, logger: logger)
        defer {
            network.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        #expect(network.modems.map(\.number) == ["+15550001", "+15550002"])
        for modem in network.modems {
            let gammurc = try String(contentsOf: network.gammurc(for: modem), encoding: .utf8)
            #expect(gammurc.contains("device = \(modem.devicePath)"))
        }
        #expect(network.faults.dropRate == 0.5)
        #expect(network.summary.first == "Simulated GSM network in \(directory.path)")
        #expect(
            network.summary.contains(
                "modem +15550002  device \(network.modems[1].devicePath)  gammurc \(network.gammurc(for: network.modems[1]).path)"))
        #expect(network.summary.last == "traffic log \(network.trafficLogPath)")
        #expect(network.controlSocketPath == SimulatedNetwork.controlSocketPath(in: directory))
        #expect(try ControlClient.send("status", socketPath: SimulatedNetwork.controlSocketPath(in: directory)).contains("+15550002"))
    }

    @Test func aNetworkWithoutADirectoryGetsAFreshOne() {
        #expect(SimulatedNetwork.temporaryDirectory() != SimulatedNetwork.temporaryDirectory())
        #expect(SimulatedNetwork.temporaryDirectory().lastPathComponent.hasPrefix("smsgw-sim-"))
    }

    @Test(arguments: [("0.5-3", 0.5...3.0), ("2", 2.0...2.0), (" 1 - 4 ", 1.0...4.0)])
    func aDelayIsOneValueOrARange(text: String, expected: ClosedRange<Double>) {
        #expect(FaultPlan.delay(parsing: text) == expected)
    }

    @Test(arguments: ["", "3-1", "a-b", "1-2-3", "0.5-x", "-1", "1-"])
    func aMalformedDelayIsRefused(text: String) {
        #expect(FaultPlan.delay(parsing: text) == nil)
    }
}
