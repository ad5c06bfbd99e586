import Failures
import Foundation
import Gateway
import Operations
import TestSupport
import Testing

@Suite("Webhook configuration ([[webhook]], environment, validation)")
struct WebhookConfigurationTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    static let other = "whsec_" + Data(repeating: 7, count: 32).base64EncodedString()

    @Test func webhookTablesParseWithTheirDefaults() throws {
        let configuration = try GatewayConfiguration(
            toml: """
                [[webhook]]
                url = "https://hooks.example.org/smsgw?token=abc"
                secret = "\(Self.secret)"
                [[webhook]]
                url = "http://127.0.0.1:8080/in"
                events = ["message.received", "modem.down"]
                secrets = ["\(Self.other)", "\(Self.secret)"]
                include_text = true
                retry_base_seconds = 2
                timeout_seconds = 5
                """)
        #expect(configuration.webhooks.count == 2)
        let first = configuration.webhooks[0]
        #expect(first.url.absoluteString == "https://hooks.example.org/smsgw?token=abc")
        #expect(first.events == Set(EventType.allCases) && !first.includeText && first.secrets.count == 1)
        #expect(first.timeoutSeconds == 15 && first.retry == RetrySchedule())
        let second = configuration.webhooks[1]
        #expect(second.events == [.messageReceived, .modemDown] && second.includeText && second.secrets.count == 2)
        #expect(second.retry.baseSeconds == 2 && second.timeoutSeconds == 5)
        #expect(try WebhookSecret(Self.other) == second.secrets[0])
    }

    @Test func plainHTTPToAnotherMachineIsRefusedWithTheReasonUnlessAllowed() throws {
        let toml = "[[webhook]]\nurl = \"http://hooks.example.org/in\"\nsecret = \"\(Self.secret)\""
        #expect {
            try GatewayConfiguration(toml: toml)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.key == "webhook[1].url" && error.message.contains("anyone on the path could read the events")
                && error.message.contains("allow_plaintext = true")
        }
        let allowed = try GatewayConfiguration(toml: toml + "\nallow_plaintext = true")
        #expect(allowed.webhooks.first?.url.host == "hooks.example.org")
        for loopback in ["http://127.0.0.1:9/x", "http://localhost:9/x", "http://[::1]:9/x"] {
            let configuration = try GatewayConfiguration(toml: "[[webhook]]\nurl = \"\(loopback)\"\nsecret = \"\(Self.secret)\"")
            #expect(configuration.webhooks.count == 1, "\(loopback)")
        }
    }

    @Test func environmentVariablesOverrideAndAddEndpoints() throws {
        let configuration = try GatewayConfiguration(
            toml: "[[webhook]]\nurl = \"https://a.example.org/\"\nsecret = \"\(Self.secret)\"",
            environment: [
                "SMSGW_WEBHOOK_1_INCLUDE_TEXT": "true", "SMSGW_WEBHOOK_2_URL": "http://127.0.0.1:7000/hook",
                "SMSGW_WEBHOOK_2_SECRET": Self.other, "SMSGW_WEBHOOK_2_EVENTS": "message.sent, message.failed",
                "SMSGW_WEBHOOK_2_RETRY_BASE_SECONDS": "0.5",
            ])
        #expect(configuration.webhooks.map(\.includeText) == [true, false])
        #expect(configuration.webhooks[1].events == [.messageSent, .messageFailed] && configuration.webhooks[1].retry.baseSeconds == 0.5)
    }

    static let badInputs: [(toml: String, environment: [String: String], key: String, words: String)] = [
        ("[[webhook]]\nsecret = \"\(secret)\"", [:], "webhook[1].url", "required"),
        ("[[webhook]]\nurl = \"ftp://x.example.org/\"\nsecret = \"\(secret)\"", [:], "webhook[1].url", "http or https"),
        ("[[webhook]]\nurl = \"https://u:p@x.example.org/\"\nsecret = \"\(secret)\"", [:], "webhook[1].url", "user or password"),
        ("[[webhook]]\nurl = \"https://x.example.org/\"", [:], "webhook[1].secret", "required"),
        ("[[webhook]]\nurl = \"https://x.example.org/\"\nsecret = \"hunter2hunter2\"", [:], "webhook[1].secret", "whsec_"),
        (
            "[[webhook]]\nurl = \"https://x.example.org/\"\nsecret = \"\(secret)\"\nevents = [\"message.read\"]", [:], "webhook[1].events",
            "no event"
        ),
        ("[[webhook]]\nurl = \"https://x.example.org/\"\nsecret = \"\(secret)\"\nevents = []", [:], "webhook[1].events", "empty"),
        ("[[webhook]]\nurl = \"https://x.example.org/\"\nsecret = \"\(secret)\"\ncolour = 1", [:], "webhook[1].colour", "Unknown key"),
        (
            "[[webhook]]\nurl = \"https://x.example.org/\"\nsecret = \"\(secret)\"\n[[webhook]]\nurl = \"https://x.example.org/\"\nsecret = \"\(secret)\"",
            [:], "webhook[2].url", "same URL"
        ),
        ("webhook = 1", [:], "webhook", "array of tables"),
        ("", ["SMSGW_WEBHOOK_1_COLOUR": "red"], "SMSGW_WEBHOOK_1_COLOUR", "Unknown environment variable"),
        (
            "",
            ["SMSGW_WEBHOOK_1_URL": "https://x.example.org/", "SMSGW_WEBHOOK_1_SECRET": secret, "SMSGW_WEBHOOK_1_INCLUDE_TEXT": "often"],
            "SMSGW_WEBHOOK_1_INCLUDE_TEXT", "true or false"
        ),
    ]

    @Test(arguments: 0..<badInputs.count)
    func eachBadKeyIsNamedAndNoSecretIsRepeated(_ index: Int) {
        let input = Self.badInputs[index]
        #expect {
            try GatewayConfiguration(toml: input.toml, environment: input.environment)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            let matches = error.key == input.key && error.message.contains(input.words)
            if !matches { Issue.record("\(input.key): \(error.key ?? "nil") \(error.message)") }
            return matches && !error.message.contains("hunter2") && !error.message.contains("MfKQ9r8G") && error.category == .configuration
        }
    }
}

extension WebhookConfigurationTests {
    @Test func aSecretFileHoldsOneSecretPerLine() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-webhook-\(UUID().uuidString).secret")
        defer { try? FileManager.default.removeItem(at: file) }
        try writeSecret("\(Self.other)\n\n\(Self.secret)\n", to: file)
        let configuration = try GatewayConfiguration(
            toml: "[[webhook]]\nurl = \"https://x.example.org/\"\nsecret_file = \"\(file.path)\"")
        #expect(configuration.webhooks.first?.secrets == [try WebhookSecret(Self.other), try WebhookSecret(Self.secret)])
        try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: file.path)
        #expect(throws: ConfigurationError.self, "a secret file every user may read is refused") {
            try GatewayConfiguration(toml: "[[webhook]]\nurl = \"https://x.example.org/\"\nsecret_file = \"\(file.path)\"")
        }
        #expect {
            try GatewayConfiguration(toml: "[[webhook]]\nurl = \"https://x.example.org/\"\nsecret_file = \"\(file.path).missing\"")
        } throws: { error in
            (error as? ConfigurationError)?.key == "webhook[1].secret_file"
        }
    }
}
