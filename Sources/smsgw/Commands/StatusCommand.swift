import ArgumentParser
import Foundation
import Gateway
import Operations
import Store
import TerminalIO

/// `smsgw status`: the modems, the queue and each contact's sync state, as the daemon left them.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the nodes, the modems, the outbox queue and each contact's sync state.",
        discussion: """
            While a daemon runs, everything comes from it over DATA_DIR/smsgw.serve.sock, without the \
            passphrase; otherwise the store is unlocked and modems are shown as the daemon last recorded \
            them, and [backup] (--config FILE, env SMSGW_CONFIG, SMSGW_BACKUP_*) as its directory holds \
            them. --config FILE also names the node as `serve --config FILE` does: its data_dir and \
            [store]. Exits 0 once it has the status. --json: one object, each contact as in `contact \
            show --json`. See docs/CLI.md.
            """
    )

    @OptionGroup(title: "Global options") var global: GlobalOptions
    @OptionGroup var configFile: ConfigurationOption

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let status = try Self.current(global, configFile: configFile)
        if json {
            Output.line(try Output.json(status))
            return
        }
        // Operator names, errors and names may come from the network or an SMS: escaped.
        for line in Self.render(status, now: Date()) { Output.line(TerminalText.escaped(line)) }
    }

    /// The running daemon's status over its socket (no passphrase), else the store's after an
    /// unlock with the backups of the configuration's `[backup]`. A file given as `--config`
    /// names the node as `serve --config` reads it, in one reading: its `data_dir` (/var/lib/smsgw
    /// when it sets none, unless --data-dir or SMSGW_DATA_DIR say otherwise), its `[store]` and
    /// its `[backup]`. Without it, SMSGW_CONFIG's file gives `[store]` and `[backup]`, read only
    /// when no daemon answers.
    static func current(_ options: GlobalOptions, configFile: ConfigurationOption) throws -> GatewayStatus {
        var options = options
        let node = configFile.isGiven ? try configFile.gatewayConfiguration(options) : nil
        if let node { options.dataDir = node.dataDirectory.path }
        let file = configFile.configurationFile
        return try GatewayStatus.current(
            in: options.dataDirectory, now: Date(),
            backups: { try node.map { $0.backup.status(now: Date()) } ?? BackupSettings.status(configurationFile: file, now: Date()) }
        ) { [options] in try StoreAccess.unlock(options, settings: node?.store) }
    }

    /// The plain report: a read-only store, the daemon, then one section each for nodes, modems,
    /// the outbox and contacts.
    static func render(_ status: GatewayStatus, now: Date) -> [String] {
        var lines: [String] = []
        if let reason = status.storeReadOnly {
            lines.append(
                "Store: read-only (\(reason.words)); nothing can be changed in it: back it up with `smsgw backup FILE` and restore it on a writable disk (`smsgw restore FILE`)."
            )
        }
        if let daemon = status.daemon {
            if daemon.running {
                let since = daemon.startedAt.map { ", started \(age(of: $0, now: now))" } ?? ""
                lines.append("Daemon: running" + (daemon.pid.map { " (PID \($0)\(since))" } ?? ""))
            } else {
                lines.append(
                    "Daemon: not running; modems are shown as it last recorded them. Start it with `systemctl start smsgw` or `smsgw serve`."
                )
            }
        }
        if let refusal = status.storeRefusal {
            let cause = refusal.error.map { " (\($0))" } ?? ""
            lines.append(
                "Store: refuses writes since \(Output.timestamp(refusal.since))\(cause); \(refusal.waiting) received SMS wait on the modem and are recorded once it takes writes again."
            )
        }
        if let fault = status.inboxFault { lines.append("Inbox: " + fault.sentence) }
        if let unconfirmed = status.unconfirmed { lines.append("Outbox: " + unconfirmed.sentence) }
        // Only above its threshold: a healthy queue is worth no line.
        if let warning = status.notificationQueueUsage.warning { lines.append("Store: \(warning)") }
        if let backup = status.backup.status { lines.append(describe(backup, now: now)) }
        if !status.nodes.isEmpty { lines.append("Nodes:") }
        for node in status.nodes { lines.append("  \(node.name): " + describe(node, now: now).joined(separator: ", ")) }
        lines.append("Modems:")
        if status.modems.isEmpty {
            lines.append("  none recorded; start the daemon with `smsgw serve --config FILE` (or `smsgw serve --sim`).")
        }
        for modem in status.modems {
            var facts = [modem.state.rawValue, modem.connected ? "connected" : "not connected"]
            if let signal = modem.signalPercent { facts.append("signal \(signal)%") }
            if let name = modem.networkOperator { facts.append(name) }
            facts.append("sent \(modem.sentCount)")
            facts.append("received \(modem.receivedCount)")
            facts.append("updated \(age(of: modem.updatedAt, now: now))")
            lines.append("  \(modem.name): " + facts.joined(separator: ", "))
            if let error = modem.lastError { lines.append("    last error: \(error)") }
        }

        let states = OutboxState.allCases.filter { status.outbox[$0] != nil }
        lines.append("Outbox: " + states.map { "\($0.rawValue) \(status.outbox[$0] ?? 0)" }.joined(separator: ", "))
        for entry in status.queue { lines.append("  " + describe(entry, now: now)) }

        lines.append("Contacts:")
        if status.contacts.isEmpty { lines.append("  none; add one with `smsgw contact add NAME --number +E164`.") }
        for contact in status.contacts {
            var facts = [contact.sync.state.rawValue]
            if contact.rePairing { facts.append("re-pairing pending (the current session is still in use)") }
            if !contact.numbers.isEmpty { facts.insert(contact.numbers.joined(separator: " "), at: 0) }
            if let modem = contact.modem {
                facts.append("via \(modem)" + (contact.modemMissing ? " (no such modem is configured: any modem sends)" : ""))
            }
            if let epoch = contact.epoch { facts.append("epoch \(epoch)") }
            if let last = contact.lastResync {
                facts.append("last resync \(last.completedAt.map { age(of: $0, now: now) } ?? "at an unknown time")")
            }
            if contact.sync.consecutiveFailures > 0 { facts.append("\(contact.sync.consecutiveFailures) failures in a row") }
            if contact.quarantined > 0 { facts.append("\(contact.quarantined) kept for after a resync") }
            facts.append("last sent \(contact.lastSentAt.map { age(of: $0, now: now) } ?? "never")")
            facts.append("last received \(contact.lastReceivedAt.map { age(of: $0, now: now) } ?? "never")")
            if contact.acknowledgements {
                facts.append("last acknowledged \(contact.lastAcknowledgedAt.map { age(of: $0, now: now) } ?? "never")")
            }
            lines.append("  \(contact.name): " + facts.joined(separator: ", "))
            if let advice = contact.sync.advice { lines.append("    \(advice.sentence(naming: contact.name))") }
        }
        return lines
    }

    /// A node's facts: its state as its lease says (or that it stopped without a clean shutdown),
    /// its heartbeat, its lease when it matters, its modems and version.
    static func describe(_ node: GatewayStatus.NodeStatus, now: Date) -> [String] {
        let lease = Output.timestamp(node.leaseEndsAt)
        var facts: [String]
        switch (node.stoppedUncleanly, node.state) {
        case (true, .up):
            facts = [
                "stopped without a clean shutdown", "heartbeat \(age(of: node.heartbeatAt, now: now))",
                "lease would have ended at \(lease) (until then other nodes leave its claims)",
            ]
        case (true, _):
            facts = [
                "down, stopped without a clean shutdown", "heartbeat \(age(of: node.heartbeatAt, now: now))",
                "lease ended at \(lease): the other nodes send its claims",
            ]
        case (false, .down):
            facts = [
                "down", "heartbeat \(age(of: node.heartbeatAt, now: now))",
                "lease \(Int(node.leaseSeconds)) s ended: the other nodes send its claims",
            ]
        case (false, _):
            facts = [node.state.rawValue, "heartbeat \(age(of: node.heartbeatAt, now: now))"]
        }
        facts.append(node.modems.isEmpty ? "no modems" : "modems " + node.modems.joined(separator: ", "))
        if !node.version.isEmpty { facts.append("version \(node.version)") }
        return facts
    }

    /// The one "Backups:" line: the newest backup, how many are kept, that the newest is overdue,
    /// the next due time, and last the error while the latest attempt failed; times relative to
    /// `now` as the other lines give them.
    static func describe(_ backup: GatewayStatus.BackupStatus, now: Date) -> String {
        var facts = [
            backup.lastSuccessAt.map { "last \(age(of: $0, now: now))" + (backup.lastFile.map { " \($0)" } ?? "") }
                ?? "none written yet"
        ]
        if let count = backup.count { facts.append("\(count) kept of \(backup.keep)") }
        if backup.overdue, backup.lastError == nil { facts.append("overdue (older than twice the interval)") }
        if let next = backup.nextDueAt { facts.append("next \(time(until: next, now: now))") }
        if let error = backup.lastError {
            facts.append(
                "the last \(backup.consecutiveFailures == 1 ? "attempt" : "\(backup.consecutiveFailures) attempts") failed: \(error)")
        }
        return "Backups: " + facts.joined(separator: "; ")
    }

    /// "message 42 to bob: queued, 5 attempts, 2 failed temporarily (…), last error: …", or a
    /// resync handshake.
    static func describe(_ entry: GatewayStatus.OutboxEntry, now: Date) -> String {
        let what = entry.id.map { "message \($0) to \(entry.contact)" } ?? "resync handshake to \(entry.contact)"
        var facts = [entry.state == .failed ? "failed \(age(of: entry.updatedAt, now: now))" : entry.state.rawValue]
        if entry.attempts > 0 { facts.append("\(entry.attempts) attempt\(entry.attempts == 1 ? "" : "s")") }
        // Attempts count modem trouble too; the limit counts only these.
        if entry.temporaryFailures > 0 { facts.append("\(entry.temporaryFailures) failed temporarily (max_attempts counts these)") }
        if let error = entry.lastError { facts.append("last error: \(error)") }
        return "\(what): " + facts.joined(separator: ", ")
    }

    /// "12 s ago", "5 min ago", or the local time for anything older than a day.
    static func age(of date: Date, now: Date) -> String {
        span(Int(now.timeIntervalSince(date).rounded())).map { "\($0) ago" } ?? Output.timestamp(date)
    }

    /// "in 12 s", "in 5 min", "in 3 h", or the local time for anything past, or a day or more ahead.
    static func time(until date: Date, now: Date) -> String {
        span(Int(date.timeIntervalSince(now).rounded())).map { "in \($0)" } ?? Output.timestamp(date)
    }

    /// "12 s", "5 min", "3 h"; nil for a negative span or one of a day or more.
    private static func span(_ seconds: Int) -> String? {
        switch seconds {
        case ..<0: nil
        case ..<120: "\(seconds) s"
        case ..<7200: "\(seconds / 60) min"
        case ..<86400: "\(seconds / 3600) h"
        default: nil
        }
    }
}
