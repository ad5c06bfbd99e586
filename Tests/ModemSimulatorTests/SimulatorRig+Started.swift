import Foundation
import ModemSimulator
import TestSupport
import Testing

extension SimulatorRig {
    /// A rig whose network `configure` set up (modems, faults), started.
    static func started(seed: UInt64 = 1, _ configure: (SimulatedNetwork) throws -> Void) throws -> SimulatorRig {
        let rig = SimulatorRig(seed: seed)
        try configure(rig.network)
        try rig.network.start()
        return rig
    }

    func gammurc(_ number: String) throws -> URL {
        try network.writeGammurc(for: try #require(network.modem(number: number)))
    }

    func modem(_ number: String) throws -> SimulatedModem {
        try #require(network.modem(number: number))
    }
}
