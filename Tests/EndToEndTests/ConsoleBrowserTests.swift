import Foundation
import TestSupport
import Testing

/// The web console in a real browser: Debian's Chromium, driven by selenium from
/// Tests/Browser/console_browser.py, against a real `smsgw serve --sim` with an admin, an
/// operator who enrols TOTP, a viewer and an operator to lock out. The script's checks: sign-in
/// (by keyboard, and with a TOTP code), the live log, a send followed to delivered, hostile SMS,
/// a viewer's refused send, a cross-origin POST, banners that come and go without a reload, lockout, sign-out, and every page at 360 and
/// 1280 pixels (screenshots under `.build/console-screenshots`, copied to docs/screenshots by hand).
///
/// Skips, saying why on its output, only where chromium, chromedriver or selenium is missing;
/// scripts/install-deps.sh installs them, so CI runs it.
@Suite("Console in a real browser", .serialized)
struct ConsoleBrowserTests {
    static let password = "a long console password"
    /// The package's root, from this file's place in it.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("Chromium signs in, follows the live log and a send, renders hostile SMS inert; roles, origin, lockout, sign-out")
    func consoleInChromium() async throws {
        if let reason = try await offPool({ BrowserTools.missing() }) {
            // CI installs them: there a skip would pass for a run.
            try #require(ProcessInfo.processInfo.environment["CI"] == nil, "CI installs chromium, chromedriver and selenium: \(reason)")
            print("ConsoleBrowserTests skipped: \(reason) (scripts/install-deps.sh installs them).")
            return
        }
        try await withTemporaryDirectory { root in
            // Seconds of child processes: off the cooperative pool, which in-process gateways of other suites need.
            let (alice, bob) = try await offPool {
                let (alice, bob) = try Peer.pairedCouple(in: root)
                try alice.expect(["contact", "edit", "bob", "--number", "+15550002"])
                for (name, role) in [("chief", "admin"), ("ops", "operator"), ("watch", "viewer"), ("temp", "operator")] {
                    try alice.expect(["operator", "add", name, "--role", role], input: Self.password + "\n")
                }
                return (alice, bob)
            }
            let simulator = root.appendingPathComponent("sim")
            let daemon = try ServeProcess(alice, ["--sim", "--sim-dir", simulator.path], in: root)
            try await daemon.waitUntilServing(alice)
            let base = try await waitForAPI(log: daemon.log)
            let artefacts = Self.packageRoot.appendingPathComponent(".build/console-screenshots")
            try? FileManager.default.removeItem(at: artefacts)
            try FileManager.default.createDirectory(at: artefacts, withIntermediateDirectories: true)
            print("ConsoleBrowserTests: screenshots in \(artefacts.path)")

            let script = Self.packageRoot.appendingPathComponent("Tests/Browser/console_browser.py")
            let environment = alice.environment.merging([
                "CONSOLE_URL": base, "SMSGW": try SMSGWBinary.require().path, "SIM_DIR": simulator.path,
                "ARTEFACTS": artefacts.path, "OPERATOR_PASSWORD": Self.password, "PEER_DATA_DIR": bob.dataDir.path,
                "PYTHONUNBUFFERED": "1",
            ]) { $1 }
            let result = try await offPool {
                try SMSGWBinary.run(["-B", script.path], environment: environment, program: BrowserTools.python)
            }
            print(result.stdout)
            for line in result.lines where line.hasPrefix("FAILED") { Issue.record("\(line)") }
            #expect(result.status == 0, "the browser checks exited \(result.status): \(result.stderr.suffix(2000))")
            #expect(result.lines.filter { $0.hasPrefix("ok ") }.count == 13, "not every check ran: \(result.stdout)")
            #expect(try await daemon.stop() == 0)
        }
    }
}

/// Finding what the browser checks need.
enum BrowserTools {
    /// The python3 on PATH, which scripts/install-deps.sh installs selenium for.
    static let python = URL(fileURLWithPath: find("python3") ?? "/usr/bin/python3")

    /// What is missing to run the browser checks, in a sentence, or nil when all is there.
    static func missing() -> String? {
        var absent: [String] = []
        for program in ["chromium", "chromedriver"] where find(program) == nil { absent.append(program) }
        let selenium = try? SMSGWBinary.run(["-c", "import selenium"], environment: [:], program: python)
        if selenium?.status != 0 { absent.append("python3's selenium") }
        return absent.isEmpty ? nil : "\(absent.joined(separator: ", ")) not found"
    }

    /// A program on PATH, else in /usr/bin.
    static func find(_ program: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
