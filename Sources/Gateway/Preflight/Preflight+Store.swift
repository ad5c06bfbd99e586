import Foundation
import Glibc
import Store
import SystemCalls

extension Preflight {
    /// The data directory, the running daemon, the account and the passphrase.
    static func store(_ directory: URL, unlock: () throws -> String) -> [PreflightFinding] {
        guard let info = try? FileSystem.status(of: directory.path) else {
            return [PreflightFinding("data directory", "\(directory.path) does not exist", .problem(.notFound), remedy: .createAccount)]
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
        // Opening would create an empty database; a check changes nothing.
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(GatewayStore.databaseFileName).path) else {
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
}
