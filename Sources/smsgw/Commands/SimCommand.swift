import ArgumentParser
import Foundation
import Logging
import ModemSimulator

/// `smsgw sim`: runs a simulated GSM network of AT modems until interrupted.
struct SimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Run a simulated GSM network of AT modems",
        discussion: """
            Each modem is a pseudo-terminal that gammu and smsgw open through a stable path \
            (DIR/modem-N, with DIR/gammurc-N beside it). Control a running network with \
            `smsgw sim ctl --dir DIR COMMAND`, e.g. `drop 0.1`, `hang +15550001 on`, `status`.
            """,
        subcommands: [Control.self]
    )

    @Option(name: .long, help: "Number of modems, numbered +15550001, +15550002, …")
    var modems: Int = 2

    @Option(name: .customLong("number"), help: "A modem's number in +E164 form (repeatable; replaces --modems).")
    var numbers: [String] = []

    @Option(help: "A SIM PIN every modem asks for at power-on.")
    var pin: String?

    @Option(help: "Directory for the device symlinks, gammurc files, control socket and traffic log (default: a new temporary directory).")
    var dir: String?

    @Option(help: "Probability (0-1) that an SMS is lost.")
    var drop: Double = 0

    @Option(help: "Probability (0-1) that an SMS arrives twice.")
    var duplicate: Double = 0

    @Option(help: "Random delivery delay in seconds, MIN-MAX or one value (reorders SMS).")
    var delay: String?

    @Option(help: "Probability (0-1) that one character of an SMS is changed.")
    var corrupt: Double = 0

    @Option(help: "SMS each modem memory (SM, ME) holds.")
    var capacity: Int = 30

    @Option(help: "Seed for repeatable fault decisions.")
    var seed: UInt64?

    func validate() throws {
        guard modems >= 1 || !numbers.isEmpty else { throw ValidationError("--modems must be at least 1.") }
        for (name, p) in [("--drop", drop), ("--duplicate", duplicate), ("--corrupt", corrupt)] where !(0...1).contains(p) {
            throw ValidationError("\(name) is a probability between 0 and 1, not \(p).")
        }
        _ = try parsedDelay()
    }

    private func parsedDelay() throws -> ClosedRange<Double>? {
        guard let delay else { return nil }
        let parts = delay.split(separator: "-").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard (1...2).contains(parts.count), let low = parts.first ?? nil, let high = parts.last ?? nil,
              low >= 0, high >= low
        else { throw ValidationError("--delay takes seconds as MIN-MAX or one value, e.g. 0.5-3.") }
        return low...high
    }

    func run() async throws {
        let directory = dir.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-sim-\(UUID().uuidString.prefix(8))")
        let faults = FaultPlan(
            dropRate: drop, duplicateRate: duplicate, delay: try parsedDelay(), corruptRate: corrupt)
        let network = SimulatedNetwork(directory: directory, seed: seed, faults: faults, logger: Logger(label: "smsgw.sim"))
        let list = numbers.isEmpty ? (1...modems).map { "+1555000\($0)" } : numbers
        for number in list {
            try network.addModem(number: number, pin: pin, storageCapacity: capacity)
        }
        try network.start()
        say("Simulated GSM network in \(directory.path)")
        for modem in network.modems {
            let gammurc = try network.writeGammurc(for: modem)
            say("modem \(modem.number)  device \(modem.devicePath)  gammurc \(gammurc.path)")
        }
        say("control socket \(network.controlSocketPath)")
        say("traffic log \(network.trafficLogPath)")
        say("Press Ctrl-C to stop.")
        await waitForTermination()
        network.stop()
        say("Stopped.")
    }

    /// Prints a line at once, even when stdout is a file or pipe (a script waits for these lines).
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Suspends until SIGINT or SIGTERM.
    private func waitForTermination() async {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let (signals, arrived) = AsyncStream<Void>.makeStream()
        let queue = DispatchQueue(label: "smsgw.sim.signals")
        // Held here until the first signal: a source that goes away stops delivering.
        let sources = [SIGINT, SIGTERM].map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { arrived.yield() }
            source.resume()
            return source
        }
        for await _ in signals { break }
        sources.forEach { $0.cancel() }
    }
}

extension SimCommand {
    /// `smsgw sim ctl`: sends one command to a running simulator and prints its answer.
    struct Control: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ctl",
            abstract: "Send one control command to a running simulated network",
            discussion: "Commands: " + SimulatedNetwork.controlHelp
        )

        @Option(help: "The directory the simulator runs in (its --dir).")
        var dir: String

        @Argument(parsing: .captureForPassthrough, help: "The command and its arguments, e.g. drop 0.1 +15550001.")
        var command: [String]

        func run() throws {
            let socket = URL(fileURLWithPath: dir).appendingPathComponent("control.sock").path
            let answer: String
            do {
                answer = try ControlClient.send(command.joined(separator: " "), socketPath: socket)
            } catch {
                // The simulator's sentence names no command; the CLI says which one starts it.
                FileHandle.standardError.write(Data("Error: \(error) (`smsgw sim --dir \(dir)` starts one.)\n".utf8))
                throw ExitCode(69)
            }
            print(answer)
            // 1: the simulator refused the command; 69 (EX_UNAVAILABLE): no simulator answered.
            if answer.hasPrefix("ERROR") { throw ExitCode(1) }
        }
    }
}
