public import Foundation
public import ModemSimulator

/// A simulated network in its own temporary directory, stopped and removed when the rig goes away
/// or on ``close()``. Not started: add modems, then `network.start()`.
///
/// Keep the rig alive while the test uses its modems: the network stops when it is released,
/// which may be right after its last use in the test, not at the end of the scope.
public final class SimulatorRig: Sendable {
    public let network: SimulatedNetwork
    /// Where the network keeps its device links, control socket and traffic log.
    public let directory: URL

    /// - Parameters:
    ///   - seed: The network's seed; tests that print it can be replayed.
    ///   - faults: Loss, duplication and delay to start with.
    public init(seed: UInt64 = 1, faults: FaultPlan = .none) {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("smsgw-sim-\(UUID().uuidString.prefix(8))", isDirectory: true)
        network = SimulatedNetwork(directory: directory, seed: seed, faults: faults, logger: quietLogger("smsgw.sim.test"))
    }

    deinit {
        close()
    }

    /// Stops the network and removes its directory; a second call does nothing.
    public func close() {
        network.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
