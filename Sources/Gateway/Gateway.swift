import Foundation
public import Logging
public import Modem
import Operations
public import ServiceLifecycle
public import Store

#if canImport(Glibc)
    import Glibc
#endif

/// The gateway daemon: a `ServiceGroup` of one ``ModemSupervisor`` per modem, an ``InboxReceiver``,
/// an ``OutboxSender`` and a ``ResyncCoordinator`` (and on PostgreSQL a ``NoticeListener``, with
/// `[backup]` a ``BackupKeeper``), over one unlocked store.
///
/// ```swift
/// let gateway = try Gateway(store: store, configuration: configuration, logger: logger)
/// try await gateway.run()          // until SIGTERM or SIGINT, then a graceful shutdown
/// ```
/// It reaches its modems only through ``Modem/SMSModem``: the libgammu modem by default, any
/// other conforming modem through `makeModem` (tests use an in-memory one). It knows nothing of
/// the simulator: `serve --sim` builds the simulated network, then a gateway over its modems.
public final class Gateway: Sendable {
    /// Makes the modem for one `[[modem]]` table from its settings and the Modem module's
    /// configuration (PIN read already), with a logger that names the modem.
    public typealias ModemFactory = @Sendable (ModemSettings, ModemConfiguration, Logger) throws(ModemError) -> any SMSModem

    /// The configuration the gateway was built from.
    public let configuration: GatewayConfiguration
    /// The services in start order: supervisors, inbox receiver, outbox sender, resync coordinator
    /// (the webhook dispatcher, the status server, the front ends), and last ``StoreStop/Watch``.
    public let services: [any Service]
    /// Wakes the outbox sender: call ``OutboxWake/wake()`` (or ``wake()``) after queueing a message.
    public let outboxWake: OutboxWake

    private let group: ServiceGroup
    private let context: GatewayContext
    private let logger: Logger
    /// What the start-up line says: version, node, store and data directory.
    private let startFacts: Logger.Metadata

    /// Builds the services; nothing talks to a modem before ``run()``.
    ///
    /// - Parameters:
    ///   - store: The unlocked store (unlock it with ``Store/GatewayStore/unlockSerialized(passphrase:)``).
    ///   - configuration: Modems and timing; see ``GatewayConfiguration``.
    ///   - logger: Where the daemon logs; texts, keys and PINs never go there.
    ///   - handlesSignals: Whether SIGTERM and SIGINT shut the gateway down gracefully (the daemon);
    ///     tests that run several gateways in one process pass false and call ``shutdown()``.
    ///   - statusSocket: Where to answer ``StatusSocket`` requests (the daemon passes
    ///     ``StatusSocket/path(in:)`` while it holds the ``Store/DaemonLock``); nil for none.
    ///   - makeModem: Makes each modem; ``gammuModem`` (libgammu) unless a test passes a double.
    ///   - outboxWake: What wakes the outbox sender after a row was queued; make it first to hand
    ///     it to another service too (the default is a new one, also at ``outboxWake``).
    ///   - frontEnds: Services to run beside the gateway's own (the HTTP API), made from its
    ///     ``LiveStatus``; they start last and stop first.
    /// - Throws: ``GatewayError`` (unavailable) when no modem is configured or a modem cannot be
    ///   set up; ``ConfigurationError`` for an unreadable pin_file or gammurc, or a `[backup]`
    ///   directory it cannot use (``BackupSettings/prepare(dataDirectory:)``, or a PostgreSQL
    ///   store); ``StoreError``.
    public init(
        store: UnlockedStore, configuration: GatewayConfiguration, logger: Logger, handlesSignals: Bool = true,
        statusSocket: String? = nil, makeModem: ModemFactory = Gateway.gammuModem, outboxWake: OutboxWake = OutboxWake(),
        frontEnds: (LiveStatus) throws -> [any Service] = { _ in [] }
    ) throws {
        guard !configuration.modems.isEmpty else {
            throw GatewayError.noModem
        }
        var node = configuration.gatewayNode
        // The status socket is given only while this process holds the data directory's lock.
        node.place = statusSocket.map(Daemon.place(statusSocket:))
        var links: [ModemLink] = []
        for (offset, settings) in configuration.modems.enumerated() {
            var modemConfiguration = try settings.modemConfiguration(index: offset + 1)
            // The modem thread, woken by the port itself, looks at the device by the clock only as often as the health check.
            modemConfiguration.idleCheckInterval = .milliseconds(Int64(configuration.intervals.healthSeconds * 1000))
            var modemLogger = logger
            modemLogger[metadataKey: GatewayLog.modem] = "\(settings.name)"
            do {
                links.append(
                    ModemLink(settings: settings, modem: try makeModem(settings, modemConfiguration, modemLogger), node: node.name))
            } catch {
                throw GatewayError.modemSetup(modem: settings.name, reason: error.message)
            }
        }
        let backupDirectory = try configuration.backup.prepare(dataDirectory: configuration.dataDirectory)
        if backupDirectory != nil, store.gateway.backendName != StoreSettings.Backend.sqlite.rawValue {
            throw ConfigurationError(key: "backup.directory", BackupSettings.serverStoreRefusal)
        }
        let runner = StoreRunner(store: store, stop: StoreStop(logger: logger))
        let context = GatewayContext(
            store: runner, intervals: configuration.intervals, resync: configuration.resync, links: links,
            outbox: configuration.outbox, outboxWake: outboxWake, node: node, logger: logger)
        try store.write { tx in
            // Before anything of the node's is touched: another daemon of this name may be running.
            if let holder = try tx.claimNode(node, now: Date()) {
                throw GatewayError.nodeNameTaken(node: holder.name, leaseSeconds: holder.leaseSeconds)
            }
            try Self.refuseModemsOfOtherNodes(links.map(\.name), node: node.name, in: tx, now: Date())
            // This node's modems only: another node's stay in the status while it runs.
            try tx.clearModemStatuses(node: node.name)
            for link in links { try tx.saveModemStatus(link.record) }
            try Webhooks.register(configuration.webhooks, in: tx, now: Date())
        }
        // After the claim: a migration completing meanwhile either saw this node up and refused,
        // or recorded the move before the claim could commit.
        if let refusal = try store.gateway.movedRefusal() {
            try store.write { try $0.stopNode(named: node.name, instance: node.instance, now: Date()) }
            throw refusal
        }

        var services: [any Service] = links.map { ModemSupervisor(link: $0, context: context) }
        services.append(InboxReceiver(context: context))
        services.append(OutboxSender(context: context))
        services.append(ResyncCoordinator(context: context))
        if let notices = store.gateway.notices(logger: logger) {
            services.append(NoticeListener(notices: notices, outboxWake: outboxWake))
        }
        if !configuration.webhooks.isEmpty {
            services.append(WebhookDispatcher(endpoints: configuration.webhooks, runner: runner, logger: logger, node: node))
        }
        let backups = backupDirectory.map { BackupLedger(directory: $0, settings: configuration.backup, startedAt: Date()) }
        if let backupDirectory, let backups {
            services.append(
                BackupKeeper(
                    store: store.gateway, directory: backupDirectory, settings: configuration.backup, ledger: backups, logger: logger))
        }
        let live = LiveStatus(
            store: store, links: links, node: node, storeWrites: context.storeWrites,
            daemon: DaemonState(running: true, pid: getpid(), startedAt: Date(), modems: links.map(\.name)),
            arrivals: context.arrivals, backups: backups)
        if let statusSocket {
            services.append(
                try StatusServer(path: statusSocket, logger: logger) { request in
                    Self.answer(request, live: live, webhooks: configuration.webhooks, outboxWake: outboxWake)
                }
            )
        }
        services += try frontEnds(live)
        // Last, so the first a stop reaches: from then on a store call that hangs holds it for the grace at most.
        services.append(StoreStop.Watch(stop: runner.stop))

        self.configuration = configuration
        self.outboxWake = outboxWake
        self.services = services
        self.logger = logger
        self.startFacts = [
            GatewayLog.count: "\(configuration.modems.count)", GatewayLog.version: "\(node.version.isEmpty ? "-" : node.version)",
            GatewayLog.node: "\(node.name)", GatewayLog.store: "\(store.gateway.named)",
            GatewayLog.dataDirectory: "\(configuration.dataDirectory.path)",
        ]
        self.context = context
        self.group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: services, gracefulShutdownSignals: handlesSignals ? [.sigterm, .sigint] : [], logger: logger))
    }

    /// Wakes the outbox sender at once: for a front end in this process, after it queued a message.
    public func wake() {
        outboxWake.wake()
    }

    /// The names of the modems this gateway drives.
    public var modemNames: [String] { configuration.modems.map(\.name) }

    /// Runs every service until SIGTERM/SIGINT (or ``shutdown()``), then shuts them down in
    /// reverse order: new claims stop, an SMS being submitted finishes and is recorded, modems close.
    public func run() async throws {
        logger.notice("Gateway starting.", metadata: startFacts)
        context.started()
        // A daemon whose node another run took over stops as SIGTERM would stop it, then fails.
        let presence = context.presence
        let watch = Task { [group] in
            await presence.takeover.wait()
            if presence.isTakenOver || presence.movedRefusal != nil { await group.triggerGracefulShutdown() }
        }
        defer { watch.cancel() }
        do {
            try await group.run()
        } catch {
            await context.recordStop(now: Date())
            throw error
        }
        await context.recordStop(now: Date())
        if let refusal = presence.movedRefusal { throw refusal }
        if presence.isTakenOver { throw GatewayError.nodeTakenOver(node: presence.node.name) }
        logger.notice("Gateway stopped.")
    }

    /// Starts a graceful shutdown, as SIGTERM does.
    public func shutdown() async {
        await group.triggerGracefulShutdown()
    }

    /// The reply to one status socket request: the store's status with the modems' live state, or
    /// the webhook endpoints as this daemon's configuration has them.
    static func answer(_ request: String, live: LiveStatus, webhooks: [WebhookEndpoint], outboxWake: OutboxWake) -> DaemonReply {
        switch StatusSocket.Request(rawValue: request) {
        case .status:
            break
        case .webhooks:
            do {
                return DaemonReply(webhooks: try Webhooks.daemonList(configured: webhooks, store: live.store))
            } catch {
                return DaemonReply(error: "The daemon could not read its store (\(error)); see its log.")
            }
        case .wake:
            outboxWake.wake()
            return DaemonReply()
        case nil:
            let known = StatusSocket.Request.allCases.map(\.rawValue).joined(separator: ", ")
            return DaemonReply(error: "The daemon does not know the request \"\(request.prefix(40))\"; it answers: \(known).")
        }
        do {
            return DaemonReply(status: try live.read(now: Date()))
        } catch {
            return DaemonReply(error: "The daemon could not read its store (\(error)); see its log.")
        }
    }

    /// Throws when another node that is up drives a modem named like one of `modems`: contacts
    /// are pinned by modem name, and each modem's status row is one node's.
    static func refuseModemsOfOtherNodes(_ modems: [String], node: String, in tx: StoreTransaction, now: Date) throws {
        let up = Set(try tx.nodes().filter { $0.name != node && $0.liveness(at: now) == .up }.map(\.name))
        for record in try tx.modemStatuses() where modems.contains(record.name) {
            if let owner = record.node, up.contains(owner) { throw GatewayError.modemOfAnotherNode(modem: record.name, node: owner) }
        }
    }

    /// The libgammu modem for one `[[modem]]` table.
    public static let gammuModem: ModemFactory = { _, configuration, logger throws(ModemError) in
        try GammuModem(configuration: configuration, logger: logger)
    }
}
