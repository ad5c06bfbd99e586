import Foundation
import Glibc
import Store
import TestSupport
import Testing

@testable import Gateway

/// The daemon's preflight as values, without a modem: each finding and when the account is unlocked.
struct PreflightTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-preflight-\(UUID().uuidString.prefix(8))")

    private func configuration(modems: [ModemSettings]) -> GatewayConfiguration {
        GatewayConfiguration(dataDirectory: root, modems: modems)
    }

    private func device(_ path: String, pinFile: String? = nil) -> ModemSettings {
        ModemSettings(name: "m1", source: .device(path: path, connection: "at"), pinFile: pinFile)
    }

    @Test func aMissingDataDirectoryIsAProblemAndNothingIsUnlockedOrCreated() {
        var unlocked = false
        let findings = Preflight.findings(configuration(modems: [device("/dev/null")]), source: "test", simulated: false) {
            unlocked = true
            return "alice"
        }
        #expect(!unlocked)
        #expect(findings.map(\.subject) == ["configuration", "modem m1", "data directory"])
        let last = findings.last
        #expect(last?.remedy == .createAccount)
        guard case .problem(.notFound) = last?.outcome else {
            Issue.record("\(String(describing: last?.outcome))")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: root.path))
    }

    @Test("[backup] is a finding when set: the directory as serve would take it, never made by the check")
    func backupsAreCheckedWithoutMakingTheDirectory() throws {
        try withTemporaryDirectory { root in
            var configuration = GatewayConfiguration(dataDirectory: root.appendingPathComponent("data"))
            #expect(Preflight.backups(configuration).isEmpty)
            let missing = root.appendingPathComponent("backups")
            configuration.backup = BackupSettings(directory: missing, intervalSeconds: 3600, keep: 5)
            let fine = try #require(Preflight.backups(configuration).first)
            #expect(
                fine.subject == "backups" && fine.detail.contains("made 0700 at start-up") && fine.detail.contains("keeping the newest 5"))
            if case .ok = fine.outcome {} else { Issue.record("\(fine.outcome)") }
            #expect(!FileManager.default.fileExists(atPath: missing.path))
            for (directory, words) in [
                (configuration.dataDirectory.appendingPathComponent("copies"), "inside the data directory"),
                (root.appendingPathComponent("gone/backups"), "its parent"),
            ] {
                configuration.backup.directory = directory
                let refused = try #require(Preflight.backups(configuration).first)
                #expect(refused.detail.contains(words), "\(refused.detail)")
                if case .problem(.configuration) = refused.outcome {} else { Issue.record("\(refused.outcome)") }
            }
        }
    }

    @Test func devicesAreCheckedWithoutOpeningThem() throws {
        #expect(Preflight.deviceProblem("/dev/null") == nil)
        #expect(Preflight.deviceProblem("/nonexistent/ttyUSB9")?.detail.contains("does not exist") == true)
        #expect(Preflight.deviceProblem("/etc/hostname")?.detail.contains("not a character device") == true)
        #expect(Preflight.deviceProblem("ttyUSB0") == nil, "gammu takes devices that are not paths")
        let findings = Preflight.findings(configuration(modems: []), source: "test", simulated: false) { "alice" }
        guard case .problem(.unavailable) = findings[1].outcome else {
            Issue.record("\(findings[1])")
            return
        }
        let simulated = Preflight.findings(configuration(modems: []), source: "test", simulated: true) { "alice" }
        #expect(!simulated[1].isProblem)
    }

    @Test func theAccountIsUnlockedOnlyWhenItsDatabaseExists() throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: root) }
        var calls = 0
        let empty = Preflight.findings(configuration(modems: [device("/dev/null")]), source: "test", simulated: false) {
            calls += 1
            return "alice"
        }
        #expect(calls == 0)
        #expect(empty.map(\.subject).suffix(3) == ["data directory", "daemon", "account"])
        #expect(empty.last?.remedy == .createAccount)

        let store = try TestStore.unlockedStore(in: root)
        try store.close()
        let ready = Preflight.findings(configuration(modems: [device("/dev/null")]), source: "test", simulated: false) { "tester" }
        #expect(ready.last?.detail == "unlocks the account tester")
        #expect(!ready.contains { $0.isProblem })

        struct WrongPassphrase: Error {}
        let refused = Preflight.findings(configuration(modems: [device("/dev/null")]), source: "test", simulated: false) {
            throw WrongPassphrase()
        }
        guard case .failed(let error) = refused.last?.outcome else {
            Issue.record("\(String(describing: refused.last))")
            return
        }
        #expect(error is WrongPassphrase)
    }
}
