import Foundation
import Gateway
import Modem
import Operations
import Store
import SystemCalls
import TerminalIO

#if canImport(Glibc)
import Glibc
#endif

/// `smsgw serve --check`: what serve would find, checked without opening a modem or touching the queue.
extension ServeCommand {
    /// One line of the check: a subject, what was found, and the exit status when it is a problem.
    struct Finding {
        var subject: String
        var detail: String
        var problem: CLIStatus?

        static func ok(_ subject: String, _ detail: String) -> Finding { Finding(subject: subject, detail: detail) }
        static func problem(_ subject: String, _ detail: String, _ status: CLIStatus) -> Finding {
            Finding(subject: subject, detail: detail, problem: status)
        }
    }

    /// Prints one line per finding and what serve would run; throws the first problem's status.
    func runCheck(_ configuration: GatewayConfiguration) throws {
        let source = configFile.configurationFile?.path ?? "no file (defaults and SMSGW_* variables)"
        var findings = [Finding.ok("configuration", "\(source): log_level \(configuration.logLevel), data_dir \(configuration.dataDirectory.path)")]
        findings += sim ? [.ok("modems", "the built-in simulator (--sim); no device to check")] : modemFindings(configuration)
        findings += storeFindings(configuration)
        for finding in findings {
            Output.line("\(finding.problem == nil ? "ok     " : "PROBLEM") \(finding.subject): \(finding.detail)")
        }
        let problems = findings.filter { $0.problem != nil }
        guard let first = problems.first?.problem else {
            let modems = sim ? "the simulator" : "\(configuration.modems.count) modem(s) (\(configuration.modems.map(\.name).joined(separator: ", ")))"
            Output.line(
                "smsgw serve would drive \(modems) on \(configuration.dataDirectory.path) at log level \(configuration.logLevel), answering status on \(StatusSocket.path(in: configuration.dataDirectory)).")
            return
        }
        throw CLIError("The check found \(problems.count) problem(s), listed above; fix them and check again.", status: first)
    }

    /// Each modem's settings, PIN file and device, without opening it.
    private func modemFindings(_ configuration: GatewayConfiguration) -> [Finding] {
        guard !configuration.modems.isEmpty else {
            return [.problem("modems", "none configured; add a [[modem]] table (see config/smsgw.toml.example) or use --sim", .unavailable)]
        }
        return configuration.modems.enumerated().map { offset, settings in
            let subject = "modem \(settings.name)"
            let modem: ModemConfiguration
            do {
                modem = try settings.modemConfiguration(index: offset + 1)
            } catch {
                return .problem(subject, ErrorReport.message(for: error), .configuration)
            }
            let pin = settings.pinFile.map { ", PIN from \($0)" } ?? ", no PIN"
            if let problem = Self.deviceProblem(modem.device) { return .problem(subject, problem, .unavailable) }
            return .ok(subject, "device \(modem.device) (a serial port this user can open), connection \(modem.connection)\(pin)")
        }
    }

    /// Why this user could not open `path` as a modem, or nil when it could.
    static func deviceProblem(_ path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }  // gammu also takes non-path devices
        guard let info = try? FileSystem.status(of: path) else {
            return "the device \(path) does not exist; plug the modem in or fix `device` (serve would wait for it)."
        }
        guard info.st_mode & S_IFMT == S_IFCHR else {
            return "\(path) is not a character device (a serial port); fix `device`."
        }
        guard FileSystem.isAccessible(path, R_OK | W_OK) else {
            return "this user cannot open \(path) for reading and writing; add it to the device's group (`adduser smsgw dialout`) or fix the udev rule."
        }
        return nil
    }

    /// The data directory, the running daemon, the account and the passphrase.
    private func storeFindings(_ configuration: GatewayConfiguration) -> [Finding] {
        let directory = configuration.dataDirectory
        guard let info = try? FileSystem.status(of: directory.path) else {
            return [.problem("data directory", "\(directory.path) does not exist; create it and the account with `smsgw init` (docs/OPERATIONS.md).", .notFound)]
        }
        // Opening the store as another user (root) would leave side files the service cannot open.
        guard info.st_uid == geteuid() else {
            return [.problem(
                "data directory",
                "\(directory.path) belongs to uid \(info.st_uid), not to this user (uid \(geteuid())); run the check as its owner, e.g. `runuser -u smsgw -- smsgw serve --check …`.",
                .configuration)]
        }
        var findings = [Finding.ok("data directory", "\(directory.path), mode \(String(info.st_mode & 0o777, radix: 8))")]
        if let pid = DaemonLock.probe(directory: directory) {
            findings.append(.ok("daemon", "running (PID \(pid)); a second serve would be refused, so restart the service to use a new configuration"))
        } else {
            findings.append(.ok("daemon", "not running"))
        }
        // Opening would create an empty database; a check changes nothing.
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent(GatewayStore.databaseFileName).path) else {
            findings.append(.problem("account", "no database in \(directory.path) yet; create the account with `smsgw init` (docs/OPERATIONS.md).", .notFound))
            return findings
        }
        var options = global
        options.dataDir = directory.path
        do {
            let store = try StoreAccess.unlock(options)
            findings.append(.ok("passphrase", "unlocks the account \(store.username)"))
            try? store.close()
        } catch {
            let status = ErrorReport.exitStatus(for: error).flatMap(CLIStatus.init(rawValue:)) ?? .configuration
            findings.append(.problem("account and passphrase", ErrorReport.message(for: error), status))
        }
        return findings
    }
}
