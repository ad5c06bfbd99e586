public import Foundation
public import Logging

/// Starting a whole network in one call, as `smsgw sim` does: its modems, their gammurc files,
/// and a private directory of its own when none is given.
extension SimulatedNetwork {
    /// The numbers of `count` modems when none are given: +15550001, +15550002, …
    public static func defaultNumbers(count: Int) -> [String] {
        (1...max(1, count)).map { "+1555000\($0)" }
    }

    /// A new directory under the system's temporary one, for a network given none.
    public static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-sim-\(UUID().uuidString.prefix(8))")
    }

    /// The control socket of the network running in `directory` (its ``controlSocketPath``).
    public static func controlSocketPath(in directory: URL) -> String {
        directory.appendingPathComponent("control.sock").path
    }

    /// Creates a network with a modem per number, starts it and writes each modem's gammurc.
    ///
    /// - Parameters:
    ///   - directory: Where its links, gammurc files, control socket and traffic log go
    ///     (``temporaryDirectory()`` when nil, removed again by ``stop()``).
    ///   - pin: A SIM PIN every modem asks for at power-on.
    ///   - storageCapacity: SMS each modem memory holds.
    /// - Returns: The running network; each modem's gammurc is ``gammurc(for:)``.
    /// - Throws: ``SimulatorError`` when a number repeats or the directory or a terminal cannot be set up.
    public static func launch(
        in directory: URL?, numbers: [String], pin: String? = nil, storageCapacity: Int = 30, faults: FaultPlan = FaultPlan(),
        seed: UInt64? = nil, logger: Logger = Logger(label: "smsgw.sim")
    ) throws -> SimulatedNetwork {
        let network = SimulatedNetwork(
            directory: directory ?? temporaryDirectory(), seed: seed, faults: faults, logger: logger, removesDirectory: directory == nil)
        for number in numbers {
            try network.addModem(number: number, pin: pin, storageCapacity: storageCapacity)
        }
        try network.start()
        for modem in network.modems { try network.writeGammurc(for: modem) }
        return network
    }

    /// What a person who started the network needs, one line each: its directory, each modem's
    /// number, device and gammurc, the control socket and the traffic log.
    public var summary: [String] {
        ["Simulated GSM network in \(directory.path)"]
            + modems.map { "modem \($0.number)  device \($0.devicePath)  gammurc \(gammurc(for: $0).path)" }
            + ["control socket \(controlSocketPath)", "traffic log \(trafficLogPath)"]
    }

    /// The gammurc file ``writeGammurc(for:)`` writes for `modem`.
    public func gammurc(for modem: SimulatedModem) -> URL {
        directory.appendingPathComponent("gammurc-\(modem.index)")
    }
}

extension FaultPlan {
    /// A delay range in seconds as written on a command line: `MIN-MAX` or one value, e.g. `0.5-3`;
    /// nil when it is neither, or negative, or MIN exceeds MAX.
    public static func delay(parsing text: String) -> ClosedRange<Double>? {
        // "-1" would split into just "1": a sign is never part of a delay.
        guard !text.trimmingCharacters(in: .whitespaces).hasPrefix("-"), !text.hasSuffix("-") else { return nil }
        let parts = text.split(separator: "-").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(parts.count), let low = parts.first ?? nil, let high = parts.last ?? nil, low >= 0, high >= low
        else { return nil }
        return low...high
    }
}
