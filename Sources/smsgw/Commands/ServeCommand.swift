import ArgumentParser
import Foundation
import Gateway
import HTTPAPI
import Logging
import Operations
import ServiceLifecycle
import SimulatedGateway
import StandardErrorLogging
import Store
import TerminalIO

/// `smsgw serve`: the gateway daemon, in the foreground until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the gateway daemon: send the queue, receive and decrypt, answer resyncs.",
        discussion: """
            Reads --config FILE (env SMSGW_CONFIG), unlocks the store (SMSGW_PASSPHRASE_FILE for \
            services) and runs until SIGTERM or SIGINT. One daemon per data directory; it answers `smsgw \
            status` without the passphrase. --check validates everything serve needs without opening a \
            modem; --sim runs on an in-process simulated network. See docs/CLI.md and docs/OPERATIONS.md.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions

    @OptionGroup var configFile: ConfigurationOption

    @Flag(help: "Run on an in-process simulated network (no modem needed).")
    var sim = false

    @Option(help: "With --sim: the simulated numbers, comma-separated (the gateway drives the first).")
    var simNumbers: String = "+15550001,+15550002"

    @Option(
        help:
            "With --sim: the directory for the network's device links, gammurc files, control socket and traffic log (default: a new temporary directory, removed when it stops)."
    )
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
        DaemonProcess.refuseDumps()  // first of all, before anything secret is read
        var configuration = try configFile.gatewayConfiguration(global)
        configuration.logLevel = global.verbose ? min(configuration.logLevel, .debug) : configuration.logLevel
        if sim { configuration = configuration.simulated(logLevel: global.verbose ? .debug : .info) }
        configuration.node.version = SMSGW.configuration.version
        if check { return try runCheck(configuration) }
        if let elsewhere = storeElsewhere(configuration) { throw CLIError(elsewhere, status: .notFound) }
        if !sim && configuration.modems.isEmpty {
            let source =
                configFile.configurationFile.map { "\($0.path) configures" }
                ?? "No --config file (or SMSGW_CONFIG) and no SMSGW_MODEM_1_* variables were given, so there is"
            throw CLIError(
                "\(source) no modem; add a [[modem]] table (see config/smsgw.toml.example) and pass it with --config, or try the gateway on the simulator with `smsgw serve --sim`.",
                status: .unavailable)
        }
        var options = global
        options.dataDir = configuration.dataDirectory.path
        // The store logs as the daemon does, at log_level, in the journal's form under systemd.
        var logger = Logger(label: "smsgw", factory: StandardErrorLogHandler.standardError(label:))
        logger.logLevel = configuration.logLevel
        let lock = try Self.lockDataDirectory(options, settings: configuration.store, logger: logger)
        defer { lock.release() }
        DaemonProcess.keepFreedMemoryReturnable()
        let store = try StoreAccess.unlock(options, settings: configuration.store, logger: logger)
        PassphraseSource.account.removeFromEnvironment()

        // A PostgreSQL server whose commits may vanish would let a pad be used twice.
        try configuration.store.checkDurability(of: store.gateway, logger: logger)
        let statusSocket = StatusSocket.path(in: options.dataDirectory)
        let run: () async throws -> Void
        let http = configuration.http
        // Made first, so the API wakes the sender as soon as it queued a message.
        let outboxWake = OutboxWake()
        // Said at start-up only while nobody could sign in to the console.
        let firstOperator =
            (try? Operators.list(in: store, now: Date()).isEmpty) == true
            ? " (no operator yet: add the first with `smsgw operator add NAME --role admin`)" : ""
        let frontEnds: (LiveStatus) throws -> [any Service] = { live in
            guard http.listen != nil else { return [] }
            let scheme = http.servesTLS ? "https" : "http"
            return [
                try APIServer(
                    settings: http, store: store, live: live, logger: logger, version: SMSGW.configuration.version,
                    webhooks: configuration.webhooks, queued: { outboxWake.wake() },
                    listening: { address in
                        // Under systemd stdout goes to the journal too: each line carries a priority there.
                        let notice = StandardErrorLogHandler.isJournal ? "<5>" : ""
                        Output.line(notice + "HTTP API on \(scheme)://\(address)")
                        Output.line(notice + "Console on \(scheme)://\(address)/\(firstOperator)")
                    })
            ]
        }
        if sim {
            let simulator = SimulatorSettings(directory: simDir.map { URL(fileURLWithPath: $0) }, numbers: numbers)
            let simulated = try SimulatedGateway(
                store: store, configuration: configuration, simulator: simulator, logger: logger, statusSocket: statusSocket,
                outboxWake: outboxWake, frontEnds: frontEnds)
            simulated.summary.forEach(Output.line)
            Output.line("Control it with `smsgw sim ctl --dir \(Shell.quote(simulated.network.directory.path)) status`; stop with Ctrl-C.")
            run = simulated.run
        } else {
            run = try Gateway(
                store: store, configuration: configuration, logger: logger, statusSocket: statusSocket, outboxWake: outboxWake,
                frontEnds: frontEnds
            ).run
        }
        // The store is unlocked and the status socket listens: `systemctl start` may return.
        ServiceNotification.send("READY=1")
        try await run()
        // Everything into the database file, so a copy of it alone after a stop is complete; a
        // store that does not answer (a hung PostgreSQL server) is abandoned after the stop's grace.
        await StoreClosing.close(store, logger: logger)
    }

    /// Takes the data directory's ``DaemonLock`` for this process, creating the directory first
    /// if needed; a second daemon on the same store is refused before it unlocks anything.
    ///
    /// - Throws: ``CLIError`` 75 naming the running daemon's PID.
    static func lockDataDirectory(_ options: GlobalOptions, settings: StoreSettings, logger: Logger) throws -> DaemonLock {
        let directory = options.dataDirectory
        if !FileManager.default.fileExists(atPath: directory.path) {
            // On PostgreSQL this creates it 0700, with the checks every command makes; on SQLite a
            // directory without a store is refused (`init` creates both). Closed at once: the
            // daemon opens its own store once it holds the lock, and this one's connections would
            // otherwise stay open beside it for as long as it runs.
            try StoreAccess.open(options, settings: settings, logger: logger).close()
        }
        if let lock = try DaemonLock.acquire(directory: directory) { return lock }
        // A restore holds the daemon's lock too.
        if StoreLock.isRestoring(directory: directory) { throw StoreError.inUse(.restoring(directory: directory.path)) }
        let pid = DaemonLock.probe(directory: directory).flatMap { $0 > 0 ? "PID \($0)" : nil } ?? "its PID is not known yet"
        throw CLIError(
            "Another smsgw serve (\(pid)) already serves \(directory.path); stop it first (`systemctl stop smsgw`, or kill that PID) or give this one its own --data-dir.",
            status: .temporaryFailure)
    }
}
