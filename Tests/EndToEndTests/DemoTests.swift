import Foundation
import TestSupport
import Testing

/// scripts/demo.sh, the README's tour, runs as written and writes no colour where it should not.
@Suite("The demo script", .serialized)
struct DemoTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Whether the programs the demo drives besides smsgw are installed.
    static var canRun: Bool {
        ["/usr/bin/gammu", "/usr/bin/python3"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The environment the demo runs in: this test run's smsgw, without NO_COLOR unless `noColor`.
    static func environment(noColor: Bool) throws -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SMSGW") && $0.key != "NO_COLOR" }
        environment["SMSGW"] = try SMSGWBinary.require().path
        if noColor { environment["NO_COLOR"] = "1" }
        return environment
    }

    @Test("Into a pipe the demo completes and writes no escape sequence")
    func pipedOutputHasNoColour() async throws {
        guard Self.canRun else { return }
        let environment = try Self.environment(noColor: false)
        let script = Self.root.appendingPathComponent("scripts/demo.sh").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script]
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Half a minute of reading a pipe and waiting: off the cooperative pool, which in-process gateways of other suites need.
        let text = String(decoding: await output.fileHandleForReading.readToEndOffThePool(), as: UTF8.self)
        #expect(await process.exit().succeeded, "\(text)")
        #expect(!text.contains("\u{1B}"), "colour into a pipe")
        #expect(text.contains("== 7. The message log on each side"))
        #expect(text.components(separatedBy: "\tdecrypted\t").count - 1 >= 5, "both daemons decrypted: \(text)")
        #expect(text.contains("the text takes 2 SMS") && text.contains("Next report at 18:00."), "the long text: \(text)")
        #expect(
            text.contains("signature ok message.received alice 'Gate is clear. Over to you, through two gateways.'"), "the webhook: \(text)"
        )
        #expect(text.contains("POST /v1/messages: queued message"), "curl to alice's API: \(text)")
        #expect(
            text.contains("signature ok message.received alice 'Sent with curl through the HTTP API: the convoy leaves at 7.'"),
            "the text sent with curl, decrypted at bob's webhook: \(text)")
        #expect(!text.contains("BAD SIGNATURE"))
        #expect(text.contains("Console: http://127.0.0.1:") && text.contains("Sign in as chief with the password "), "\(text)")
    }

    @Test("On a terminal with NO_COLOR set the demo writes no colour either")
    func noColorOnATerminal() async throws {
        guard Self.canRun, TerminalSession.isAvailable else { return }
        let session = try TerminalSession(
            bash: Self.root.appendingPathComponent("scripts/demo.sh").path, environment: try Self.environment(noColor: true))
        // On a terminal the demo ends waiting with the console's address and an operator's
        // password: a new user can sign in with exactly what it printed.
        try await session.waitFor("Press Enter", timeout: 300)
        let console = try #require(Self.printed(after: "Console: ", in: session.screen))
        let password = try #require(Self.printed(after: "Sign in as chief with the password ", in: session.screen))
        let client = try APIClient(base: console.hasSuffix("/") ? String(console.dropLast()) : console, token: nil, followRedirects: false)
        let cookie = try await ConsoleServeTests.signIn("chief", password: password, client: client)
        let page = try await client.send(.GET, "/admin", headers: [("Cookie", "smsgw_session=\(cookie)")])
        #expect(page.status == 200 && page.text.contains("<h1>Admin</h1>"), "the demo's console: \(page.status)")
        session.type("\n")
        let result = try await session.finish(timeout: 60)
        #expect(result.status == 0, "\(result.screen)")
        #expect(result.screen.contains("== 1. Each side creates its account"))
        #expect(!result.screen.contains("\u{1B}["), "colour despite NO_COLOR: \(result.screen)")
    }

    /// The rest of the screen's line that starts with `prefix`.
    static func printed(after prefix: String, in screen: String) -> String? {
        // A terminal ends lines with CR LF, one Character in Swift: split on any line end.
        screen.split(whereSeparator: \.isNewline).first { $0.hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)).trimmingCharacters(in: .whitespacesAndNewlines) }
    }
}
