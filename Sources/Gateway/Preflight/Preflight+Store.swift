import Foundation
import Glibc
import Logging
import Store
import SystemCalls

extension Preflight {
    /// The data directory, the running daemon, the store's backend (with a PostgreSQL server's
    /// durability verdict), the account and the passphrase.
    static func store(_ directory: URL, settings: StoreSettings, unlock: () throws -> String) -> [PreflightFinding] {
        let found: stat?
        do throws(SystemCallError) {
            found = try FileSystem.status(of: directory.path)
        } catch {
            // Not "does not exist": a directory on the way this user may not search.
            return [
                PreflightFinding(
                    "data directory", "cannot look at \(directory.path) (\(error.reason))", .problem(.configuration),
                    remedy: error.code == EACCES ? .runAsOwner : nil)
            ]
        }
        guard let info = found else {
            return [PreflightFinding("data directory", "\(directory.path) does not exist", .problem(.notFound), remedy: .createAccount)]
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            return [
                PreflightFinding(
                    "data directory", "\(directory.path) is a file; choose a directory as the data directory", .problem(.configuration))
            ]
        }
        // Opening the store as another user (root) would leave side files the service cannot open.
        guard info.st_uid == geteuid() else {
            return [
                PreflightFinding(
                    "data directory", "\(directory.path) belongs to uid \(info.st_uid), not to this user (uid \(geteuid()))",
                    .problem(.configuration), remedy: .runAsOwner)
            ]
        }
        var findings = [PreflightFinding("data directory", "\(directory.path), mode \(String(info.st_mode & 0o777, radix: 8))")]
        if let pid = DaemonLock.probe(directory: directory) {
            findings.append(
                PreflightFinding(
                    "daemon", "running (PID \(pid)); a second serve would be refused, so restart the service to use a new configuration"))
        } else {
            findings.append(PreflightFinding("daemon", "not running"))
        }
        if settings.backend == .postgresql {
            let finding = postgres(directory, settings: settings)
            findings.append(finding)
            guard !finding.isProblem else { return findings }
        } else if FileManager.default.fileExists(atPath: directory.appendingPathComponent(GatewayStore.databaseFileName).path) {
            findings.append(PreflightFinding("store", "sqlite, \(directory.appendingPathComponent(GatewayStore.databaseFileName).path)"))
        }
        // Opening would create an empty database; a check changes nothing.
        guard
            settings.backend == .postgresql
                || FileManager.default.fileExists(atPath: directory.appendingPathComponent(GatewayStore.databaseFileName).path)
        else {
            findings.append(
                PreflightFinding("account", "no database in \(directory.path) yet", .problem(.notFound), remedy: .createAccount))
            return findings
        }
        do {
            findings.append(PreflightFinding("passphrase", "unlocks the account \(try unlock())"))
        } catch {
            findings.append(PreflightFinding("account and passphrase", "", .failed(error)))
        }
        return findings
    }

    /// The PostgreSQL store: reachable, migrated, and durable enough (``ServerDurability``), with
    /// a warning when its server's notification queue fills (``NotificationQueueUsage``).
    private static func postgres(_ directory: URL, settings: StoreSettings) -> PreflightFinding {
        do {
            let store = try settings.open(
                dataDirectory: directory, logger: Logger(label: "smsgw.preflight") { _ in SwiftLogNoOpLogHandler() })
            defer { try? store.close() }
            let verdict = try store.serverDurability()?.verdict(allowAsynchronousReplicas: settings.allowAsynchronousReplicas)
            let detail = "postgresql, \(store.location)"
            // A queue filling up is a warning: serve can start, and would fail only once it is full.
            let queue = try store.notificationQueueUsage().warning.map { "; notification queue warning: \($0)" } ?? ""
            switch verdict {
            case .refused(let sentence): return PreflightFinding("store", "\(detail): \(sentence)", .problem(.configuration))
            case .warning(let sentence): return PreflightFinding("store", "\(detail); durability warning: \(sentence)\(queue)")
            case .durable, nil: return PreflightFinding("store", "\(detail); durable (synchronous_commit and standbys checked)\(queue)")
            }
        } catch {
            return PreflightFinding("store", "", .failed(error))
        }
    }
}
