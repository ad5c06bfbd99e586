import Gateway
import Operations
import TerminalIO

/// `smsgw serve --check`: Gateway's ``Preflight``, printed as one "ok"/"PROBLEM" line per finding.
extension ServeCommand {
    /// Prints one line per finding and what serve would run; throws the first problem's status.
    func runCheck(_ configuration: GatewayConfiguration) throws {
        var options = global
        options.dataDir = configuration.dataDirectory.path
        let source = configFile.configurationFile?.path ?? "no file (defaults and SMSGW_* variables)"
        let findings = Preflight.findings(configuration, source: source, simulated: sim) {
            let store = try StoreAccess.unlock(options, settings: configuration.store)
            defer { try? store.close() }
            return store.username
        }
        var problems: [CLIStatus] = []
        for finding in findings {
            let (detail, status) = Self.rendered(finding)
            Output.line("\(status == nil ? "ok     " : "PROBLEM") \(finding.subject): \(detail)")
            if let status { problems.append(status) }
        }
        guard let first = problems.first else {
            let modems =
                sim
                ? "the simulator" : "\(configuration.modems.count) modem(s) (\(configuration.modems.map(\.name).joined(separator: ", ")))"
            Output.line(
                "smsgw serve would drive \(modems) on \(configuration.dataDirectory.path) at log level \(configuration.logLevel), answering status on \(StatusSocket.path(in: configuration.dataDirectory))."
            )
            return
        }
        let elsewhere = storeElsewhere(configuration).map { " " + $0 } ?? ""
        throw CLIError("The check found \(problems.count) problem(s), listed above; fix them and check again.\(elsewhere)", status: first)
    }

    /// A finding's sentence with the command that helps, and its exit status when it is a problem.
    static func rendered(_ finding: PreflightFinding) -> (String, CLIStatus?) {
        let remedy: String
        switch finding.remedy {
        case .createAccount: remedy = "; create the account with `smsgw init` (docs/OPERATIONS.md)."
        case .runAsOwner: remedy = "; run the check as its owner, e.g. `runuser -u smsgw -- smsgw serve --check …`."
        case .grantDevice: remedy = "; add it to the device's group (`adduser smsgw dialout`) or fix the udev rule."
        case nil: remedy = ""
        }
        switch finding.outcome {
        case .ok: return (finding.detail, nil)
        case .problem(let category): return (finding.detail + remedy, CLIStatus(category))
        case .failed(let error):
            return (
                ErrorReport.message(for: error), ErrorReport.exitStatus(for: error).flatMap(CLIStatus.init(rawValue:)) ?? .configuration
            )
        }
    }
}
