import Foundation
import TestSupport
import Testing

/// The README's curl examples run as written against a running `serve --sim` (only the address
/// is the test daemon's own port instead of 8640).
@Suite("README: the HTTP API's examples", .serialized)
struct ReadmeAPITests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("README.md")

    /// The first sh block after the heading.
    static func block(after heading: String) throws -> String {
        let text = try String(contentsOf: readme, encoding: .utf8)
        let section = try #require(text.range(of: heading))
        let start = try #require(text.range(of: "```sh\n", range: section.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "```", range: start.upperBound..<text.endIndex))
        return String(text[start.upperBound..<end.lowerBound])
    }

    @Test("Every curl and api token command of the README's HTTP API section works")
    func curlExamples() async throws {
        try await withTemporaryDirectory { root in
            let fixture = try await HTTPAPITests.Fixture.start(in: root)
            try await GatewayRig.wait("the modem to be ready", timeout: 60) {
                (try? fixture.alice.run(["status", "--json"]).stdout.contains("\"ready\"")) == true
            }
            let script = try Self.block(after: "## The HTTP API").replacingOccurrences(of: "http://127.0.0.1:8640", with: fixture.base)
            let binary = try SMSGWBinary.require().deletingLastPathComponent().path
            let path = binary + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let environment = fixture.alice.environment.merging(["PATH": path]) { $1 }
            let result = try await offPool { try SMSGWBinary.runShell(script, environment: environment) }
            #expect(result.status == 0, "the README's commands failed: \(result.stderr)")
            #expect(result.stdout.contains("\"contact\":\"bob\""), "\(result.stdout)")
            #expect(result.stdout.contains("\"text\":\"Meet at noon\""))
            #expect(result.stdout.contains("smsgw_outbox{"))
            #expect(result.stdout.contains("\"status\":\"ready\""))
            #expect(result.stdout.contains("Revoked the API token dispatch."))
        }
    }
}
