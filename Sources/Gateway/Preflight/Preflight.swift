import Foundation
import Glibc
import Modem
import Store
import SystemCalls

/// What `serve` would find, checked without opening a modem or touching the queue: the
/// configuration, each modem's device and PIN file, the data directory, a running daemon, the
/// account and the passphrase. The daemon's preflight, as values; a front end prints them.
public enum Preflight {
    /// Every finding, in the order a reader checks them.
    ///
    /// - Parameters:
    ///   - source: Where the configuration came from, for the first line ("/etc/smsgw/smsgw.toml").
    ///   - simulated: The gateway would run on the built-in simulator: no device to check.
    ///   - unlock: Unlocks the account as `serve` would (the passphrase, the code) and returns its
    ///     username; only called when a database exists, since opening one would create it.
    public static func findings(
        _ configuration: GatewayConfiguration, source: String, simulated: Bool, unlock: () throws -> String
    ) -> [PreflightFinding] {
        let summary = "\(source): log_level \(configuration.logLevel), data_dir \(configuration.dataDirectory.path)"
        var findings = [PreflightFinding("configuration", summary)]
        findings += simulated ? [PreflightFinding("modems", "the built-in simulator (--sim); no device to check")] : modems(configuration)
        findings += store(configuration.dataDirectory, settings: configuration.store, unlock: unlock)
        findings += backups(configuration)
        return findings
    }

    /// The `[backup]` directory as serve would prepare it, without making it; nothing when off.
    static func backups(_ configuration: GatewayConfiguration) -> [PreflightFinding] {
        let settings = configuration.backup
        guard let directory = settings.directory else { return [] }
        do {
            _ = try settings.prepare(dataDirectory: configuration.dataDirectory, creating: false)
        } catch {
            return [PreflightFinding("backups", error.message, .problem(.configuration))]
        }
        let made = FileManager.default.fileExists(atPath: directory.path) ? "" : " (made 0700 at start-up)"
        return [
            PreflightFinding(
                "backups", "every \(Int(settings.intervalSeconds)) s into \(directory.path)\(made), keeping the newest \(settings.keep)")
        ]
    }

    /// Each modem's settings, PIN file and device, without opening it.
    static func modems(_ configuration: GatewayConfiguration) -> [PreflightFinding] {
        guard !configuration.modems.isEmpty else {
            return [
                PreflightFinding(
                    "modems", "none configured; add a [[modem]] table (see config/smsgw.toml.example) or use --sim", .problem(.unavailable))
            ]
        }
        return configuration.modems.enumerated().map { offset, settings in
            let subject = "modem \(settings.name)"
            let modem: ModemConfiguration
            do {
                modem = try settings.modemConfiguration(index: offset + 1)
            } catch {
                return PreflightFinding(subject, "\(error)", .problem(.configuration))  // ConfigurationError: its message
            }
            let pin = settings.pinFile.map { ", PIN from \($0)" } ?? ", no PIN"
            if let problem = deviceProblem(modem.device) {
                return PreflightFinding(subject, problem.detail, .problem(.unavailable), remedy: problem.remedy)
            }
            return PreflightFinding(
                subject, "device \(modem.device) (a serial port this user can open), connection \(modem.connection)\(pin)")
        }
    }

    /// Why this user could not open `path` as a modem, or nil when it could.
    public static func deviceProblem(_ path: String) -> (detail: String, remedy: PreflightFinding.Remedy?)? {
        guard path.hasPrefix("/") else { return nil }  // gammu also takes non-path devices
        guard let info = try? FileSystem.status(of: path) else {
            return ("the device \(path) does not exist; plug the modem in or fix `device` (serve would wait for it).", nil)
        }
        guard info.st_mode & S_IFMT == S_IFCHR else {
            return ("\(path) is not a character device (a serial port); fix `device`.", nil)
        }
        guard FileSystem.isAccessible(path, R_OK | W_OK) else {
            return ("this user cannot open \(path) for reading and writing", .grantDevice)
        }
        return nil
    }
}
