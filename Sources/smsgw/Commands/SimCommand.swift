import ArgumentParser
import Foundation
import Logging
import ModemSimulator
import StandardErrorLogging
import TerminalIO
import UnixSignals

/// `smsgw sim`: runs a simulated GSM network of AT modems until interrupted.
struct SimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Run a simulated GSM network of AT modems.",
        discussion: """
            Each modem is a pseudo-terminal that gammu and smsgw open through a stable path \
            (DIR/modem-N, with DIR/gammurc-N beside it). Control a running network with \
            `smsgw sim ctl --dir DIR COMMAND`, e.g. `drop 0.1`, `hang +15550001 on`, `status`.
            """,
        subcommands: [Control.self]
    )

    @Option(name: .long, parsing: .unconditional, help: "Number of modems, numbered +15550001, +15550002, …")
    var modems: Int = 2

    @Option(name: .customLong("number"), help: "A modem's number in +E164 form (repeatable; replaces --modems).")
    var numbers: [String] = []

    @Option(help: "A SIM PIN every modem asks for at power-on.")
    var pin: String?

    @Option(
        help:
            "Directory for the device symlinks, gammurc files, control socket and traffic log (default: a new temporary directory, removed when it stops)."
    )
    var dir: String?

    @Option(parsing: .unconditional, help: "Probability (0-1) that an SMS is lost.")
    var drop: Double = 0

    @Option(parsing: .unconditional, help: "Probability (0-1) that an SMS arrives twice.")
    var duplicate: Double = 0

    @Option(
        parsing: .unconditional, help: "Random delivery delay in seconds, MIN-MAX or one value (reorders SMS).",
        transform: DeliveryDelay.parsing)
    var delay: DeliveryDelay?

    @Option(parsing: .unconditional, help: "Probability (0-1) that one character of an SMS is changed.")
    var corrupt: Double = 0

    @Option(parsing: .unconditional, help: "SMS each modem memory (SM, ME) holds.")
    var capacity: Int = 30

    @Option(parsing: .unconditional, help: "Seed for repeatable fault decisions.", transform: WholeNumber.zeroOrMore)
    var seed: UInt64?

    func validate() throws {
        guard modems >= 1 || !numbers.isEmpty else { throw ValidationError("--modems must be at least 1.") }
        guard capacity >= 1 else { throw ValidationError("--capacity must be at least 1.") }
        for (name, p) in [("--drop", drop), ("--duplicate", duplicate), ("--corrupt", corrupt)] where !(0...1).contains(p) {
            throw ValidationError("\(name) is a probability between 0 and 1, not \(p).")
        }
    }

    func run() async throws {
        let faults = FaultPlan(
            dropRate: drop, duplicateRate: duplicate, delay: delay?.seconds, corruptRate: corrupt)
        // Its events are what it is run for, logged as serve logs: escaped, in the journal's form under systemd.
        var logger = Logger(label: "smsgw.sim", factory: StandardErrorLogHandler.standardError(label:))
        logger.logLevel = .info
        let network = try SimulatedNetwork.launch(
            in: dir.map { URL(fileURLWithPath: $0) }, numbers: numbers.isEmpty ? SimulatedNetwork.defaultNumbers(count: modems) : numbers,
            pin: pin, storageCapacity: capacity, faults: faults, seed: seed, logger: logger)
        // Output.line writes at once, even to a file or pipe: a script waits for these lines.
        network.summary.forEach(Output.line)
        Output.line("Press Ctrl-C to stop.")
        for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm) { break }
        network.stop()
        Output.line("Stopped.")
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
            let socket = SimulatedNetwork.controlSocketPath(in: URL(fileURLWithPath: dir))
            let answer: String
            do {
                answer = try ControlClient.send(command.joined(separator: " "), socketPath: socket)
            } catch {
                // The simulator's sentence names no command; the CLI says which one starts it.
                throw CLIError("\(error) `smsgw sim --dir \(Shell.quote(dir))` starts one.", status: .unavailable)
            }
            // 1: the simulator refused the command; 69 (EX_UNAVAILABLE): no simulator answered.
            guard answer.hasPrefix("ERROR") else {
                print(answer)
                return
            }
            // A refusal quotes what was given (a sender, a text), controls and all: escaped.
            print(TerminalText.escaped(answer))
            throw ExitCode(1)
        }
    }
}
