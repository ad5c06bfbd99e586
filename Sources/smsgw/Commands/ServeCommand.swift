import ArgumentParser
import CMalloc
import Foundation
import Gateway
import Logging
import ModemSimulator
import Store

/// `smsgw serve`: the gateway daemon, in the foreground until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the gateway daemon: send the queue, receive and decrypt, answer resyncs.",
        discussion: """
            Reads the configuration from --config FILE (env SMSGW_CONFIG; see \
            config/smsgw.toml.example), unlocks the store (SMSGW_PASSPHRASE_FILE for services) and \
            runs until SIGTERM or SIGINT, then shuts down gracefully: an SMS being submitted is \
            finished and recorded, the modems are closed, and the exit status is 0. Logs go to \
            stderr (journald under systemd) at the configuration's log_level (--verbose: debug).

            --sim runs the gateway on an in-process simulated network instead of real modems and \
            prints the simulated numbers; the gateway drives the first one, the others are peers \
            to reach with `smsgw sim ctl --dir DIR`.

            --data-dir (or SMSGW_DATA_DIR) overrides the configuration's data_dir. Exit status: 69 \
            when no modem is configured or one cannot be set up, 78 for a bad configuration (the \
            message names the key), 77 when the passphrase is missing or wrong.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @OptionGroup var configFile: ConfigurationOption

    @Flag(help: "Run on an in-process simulated network (no modem needed).")
    var sim = false

    @Option(help: "With --sim: the simulated numbers, comma-separated (the gateway drives the first).")
    var simNumbers: String = "+15550001,+15550002"

    @Option(help: "With --sim: the directory for the network's device links, gammurc files and control socket.")
    var simDir: String?

    func validate() throws {
        if !sim, simDir != nil || simNumbers != "+15550001,+15550002" {
            throw ValidationError("--sim-numbers and --sim-dir only apply with --sim.")
        }
        guard numbers.count >= 1 else { throw ValidationError("--sim-numbers needs at least one number.") }
    }

    private var numbers: [String] {
        simNumbers.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() async throws {
        var configuration = try loadConfiguration()
        if sim {
            let resync = configuration.resync
            configuration = .simulated(
                dataDirectory: configuration.dataDirectory, numbers: numbers,
                directory: simDir.map { URL(fileURLWithPath: $0) })
            configuration.resync = resync
            configuration.logLevel = logLevel(configured: configuration.logLevel)
        } else if configuration.modems.isEmpty {
            let source = configFile.configurationFile.map { "\($0.path) configures" } ?? "No --config file (or SMSGW_CONFIG) and no SMSGW_MODEM_1_* variables were given, so there is"
            throw CLIError(
                "\(source) no modem; add a [[modem]] table (see config/smsgw.toml.example) and pass it with --config, or try the gateway on the simulator with `smsgw serve --sim`.",
                status: .unavailable)
        }
        var options = global
        options.dataDir = configuration.dataDirectory.path
        Self.keepFreedMemoryReturnable()
        let store = try StoreAccess.unlock(options)

        var logger = Logger(label: "smsgw", factory: StreamLogHandler.standardError(label:))
        logger.logLevel = configuration.logLevel
        let gateway = try Gateway(store: store, configuration: configuration, logger: logger)
        if let network = gateway.simulatedNetwork {
            announce(network: network, driven: gateway.modemNames)
        }
        try await gateway.run()
        // Everything into the database file, so a copy of it alone after a stop is complete.
        do {
            try store.close()
        } catch {
            logger.warning("Could not fold the write-ahead log into the database; copy smsgw.sqlite with its -wal file.",
                           metadata: ["smsgw.error": "\(error)"])
        }
    }

    /// Fixes glibc's thresholds before the unlock. Left dynamic, freeing Argon2id's buffer (19 to
    /// 64 MiB) raises the mmap threshold to its size and the trim threshold to twice that, so the
    /// long-running daemon would keep every later freed block in its heap instead of returning it
    /// (about 6 MiB more resident after a few SMS, measured with Benchmarks/gateway).
    private static func keepFreedMemoryReturnable() {
        _ = mallopt(M_MMAP_THRESHOLD, 256 << 10)
        _ = mallopt(M_TRIM_THRESHOLD, 512 << 10)
    }

    /// The file's configuration, or the defaults, with the environment's overrides.
    private func loadConfiguration() throws -> GatewayConfiguration {
        var configuration: GatewayConfiguration
        if let file = configFile.configurationFile {
            configuration = try GatewayConfiguration.load(from: file)
        } else {
            // No file: the defaults with the environment's overrides (SMSGW_LOG_LEVEL,
            // SMSGW_INTERVALS_*, SMSGW_MODEM_<N>_*), so a modem can be configured without a file.
            configuration = try GatewayConfiguration(
                toml: "", environment: ProcessInfo.processInfo.environment, source: "the environment")
            configuration.dataDirectory = global.dataDirectory
        }
        // An explicit --data-dir (or SMSGW_DATA_DIR, already applied by the loader) wins over data_dir.
        if let dataDir = global.dataDir, !dataDir.isEmpty {
            configuration.dataDirectory = URL(fileURLWithPath: dataDir)
        }
        configuration.logLevel = logLevel(configured: configuration.logLevel)
        return configuration
    }

    private func logLevel(configured: Logger.Level) -> Logger.Level {
        global.verbose ? min(configured, .debug) : configured
    }

    /// Prints the simulated numbers, so a user knows whom to add as contacts.
    private func announce(network: SimulatedNetwork, driven: [String]) {
        Output.line("Simulated GSM network in \(network.directory.path)")
        for modem in network.modems {
            let role = driven.contains(modem.number) ? "driven by this gateway" : "peer"
            Output.line("modem \(modem.number)  \(role)  gammurc \(network.directory.appendingPathComponent("gammurc-\(modem.index)").path)")
        }
        Output.line("Control it with `smsgw sim ctl --dir \(Shell.quote(network.directory.path)) status`; stop with Ctrl-C.")
    }
}
