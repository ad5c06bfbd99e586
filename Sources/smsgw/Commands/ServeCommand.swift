import ArgumentParser
import CDaemon
import Foundation
import Gateway
import Logging
import ModemSimulator
import Operations
import SimulatedGateway
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

            --check reads and validates the configuration, the data directory and account, the \
            passphrase (it unlocks the account once, as serve would) and each modem's device and \
            PIN file, then says what serve would run; it opens no modem and leaves the queue alone.

            One daemon per data directory: it holds DATA_DIR/smsgw.serve.lock while it runs, and a \
            second serve on the same directory exits 75 naming the first one's PID. While it runs \
            it answers `smsgw status` on DATA_DIR/smsgw.serve.sock (0600), so status needs no \
            passphrase. It removes SMSGW_PASSPHRASE from its environment once read and makes \
            itself non-dumpable (no core file, no ptrace or /proc reading by the same user).

            --data-dir (or SMSGW_DATA_DIR) overrides the configuration's data_dir. Exit status: 69 \
            when no modem is configured or one cannot be set up, 78 for a bad configuration (the \
            message names the key), 77 when the passphrase is missing or wrong, 75 when another \
            daemon serves the data directory.
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

    @Flag(help: "Check the configuration, passphrase and devices, say what would run, and exit.")
    var check = false

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
        // First of all: nothing read from here on (the passphrase, the data key) may end in a
        // core file or be read through /proc or ptrace by another process of the same user.
        _ = smsgw_set_non_dumpable()
        var configuration = try loadConfiguration()
        if sim {
            // The simulator's modems and timing; of the file, only data_dir and [resync] count.
            configuration = GatewayConfiguration(
                dataDirectory: configuration.dataDirectory, logLevel: logLevel(configured: .info), intervals: .simulated,
                resync: configuration.resync)
        }
        if check { return try runCheck(configuration) }
        if !sim && configuration.modems.isEmpty {
            let source = configFile.configurationFile.map { "\($0.path) configures" } ?? "No --config file (or SMSGW_CONFIG) and no SMSGW_MODEM_1_* variables were given, so there is"
            throw CLIError(
                "\(source) no modem; add a [[modem]] table (see config/smsgw.toml.example) and pass it with --config, or try the gateway on the simulator with `smsgw serve --sim`.",
                status: .unavailable)
        }
        var options = global
        options.dataDir = configuration.dataDirectory.path
        let lock = try Self.lockDataDirectory(options)
        defer { lock.release() }
        Self.keepFreedMemoryReturnable()
        let store = try StoreAccess.unlock(options)
        PassphraseSource.account.removeFromEnvironment()

        var logger = Logger(label: "smsgw", factory: StandardErrorLogHandler.standardError(label:))
        logger.logLevel = configuration.logLevel
        let statusSocket = StatusSocket.path(in: options.dataDirectory)
        let run: () async throws -> Void
        if sim {
            let simulator = SimulatorSettings(directory: simDir.map { URL(fileURLWithPath: $0) }, numbers: numbers)
            let simulated = try SimulatedGateway(
                store: store, configuration: configuration, simulator: simulator, logger: logger, statusSocket: statusSocket)
            announce(network: simulated.network, driven: simulated.modemNames)
            run = simulated.run
        } else {
            run = try Gateway(store: store, configuration: configuration, logger: logger, statusSocket: statusSocket).run
        }
        // The store is unlocked and the status socket listens: `systemctl start` may return.
        ServiceNotification.send("READY=1")
        try await run()
        // Everything into the database file, so a copy of it alone after a stop is complete.
        do {
            try store.close()
        } catch {
            logger.warning("Could not fold the write-ahead log into the database; copy smsgw.sqlite with its -wal file.",
                           metadata: [LogKey.error: "\(error)"])
        }
    }

    /// Takes the data directory's ``DaemonLock`` for this process, creating the directory first
    /// if needed; a second daemon on the same store is refused before it unlocks anything.
    ///
    /// - Throws: ``CLIError`` 75 naming the running daemon's PID.
    static func lockDataDirectory(_ options: GlobalOptions) throws -> DaemonLock {
        let directory = options.dataDirectory
        if !FileManager.default.fileExists(atPath: directory.path) {
            _ = try StoreAccess.open(options)  // creates it 0700, with the checks every command makes
        }
        if let lock = try DaemonLock.acquire(directory: directory) { return lock }
        let pid = DaemonLock.probe(directory: directory).flatMap { $0 > 0 ? "PID \($0)" : nil } ?? "its PID is not known yet"
        throw CLIError(
            "Another smsgw serve (\(pid)) already serves \(directory.path); stop it first (`systemctl stop smsgw`, or kill that PID) or give this one its own --data-dir.",
            status: .temporaryFailure)
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
