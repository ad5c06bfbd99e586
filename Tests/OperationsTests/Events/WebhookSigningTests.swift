import Foundation
import Operations
import Testing

/// Standard Webhooks signing, secrets and the retry schedule.
struct WebhookSigningTests {
    /// The Standard Webhooks specification's published example (its reference libraries test it):
    /// reproducing it is what says a receiver's library accepts our signatures.
    @Test func theSpecificationsExampleVectorReproducesExactly() throws {
        let secret = try WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        let header = WebhookSignature.header(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Data(#"{"test": 2432232314}"#.utf8), secrets: [secret])
        #expect(header == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    @Test func severalSecretsSignEachAndAReceiverWithEitherVerifiesButAWrongSecretFails() throws {
        let old = try WebhookSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        let new = try WebhookSecret(WebhookSecret.random())
        let wrong = try WebhookSecret(WebhookSecret.random())
        let body = Data(#"{"type":"message.received"}"#.utf8)
        let header = WebhookSignature.header(id: "evt_7", timestamp: 1_700_000_000, body: body, secrets: [new, old])
        #expect(header.split(separator: " ").count == 2 && header.split(separator: " ").allSatisfy { $0.hasPrefix("v1,") })
        for secret in [old, new] {
            #expect(WebhookSignature.verify(header: header, id: "evt_7", timestamp: 1_700_000_000, body: body, secret: secret))
        }
        #expect(!WebhookSignature.verify(header: header, id: "evt_7", timestamp: 1_700_000_000, body: body, secret: wrong))
        #expect(!WebhookSignature.verify(header: header, id: "evt_8", timestamp: 1_700_000_000, body: body, secret: old))
        #expect(!WebhookSignature.verify(header: header, id: "evt_7", timestamp: 1_700_000_001, body: body, secret: old))
        #expect(!WebhookSignature.verify(header: header, id: "evt_7", timestamp: 1_700_000_000, body: body + Data(" ".utf8), secret: old))
        let headers = WebhookSignature.headers(id: "evt_7", timestamp: 1_700_000_000, body: body, secrets: [old])
        #expect(headers.map(\.name) == ["content-type", "webhook-id", "webhook-timestamp", "webhook-signature"])
    }

    @Test func aSecretMustBeWhsecAndTwentyFourToSixtyFourBytesAndNeverShowsItself() throws {
        for (text, fault) in [
            ("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "does not start with whsec_"), ("whsec_***", "is not base64"),
            ("whsec_" + Data(count: 16).base64EncodedString(), "holds 16 bytes"),
            ("whsec_" + Data(count: 65).base64EncodedString(), "holds 65 bytes"),
        ] {
            #expect {
                try WebhookSecret(text)
            } throws: { error in
                let sentence = "\(error)"
                return sentence.contains(fault) && !sentence.contains(text) && (error as? WebhookError)?.category == .configuration
            }
        }
        let secret = try WebhookSecret(" whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\n")
        #expect("\(secret)" == "whsec_…" && !String(reflecting: secret).contains("MfKQ"))
        let endpoint = WebhookEndpoint(url: URL(string: "https://example.org/hook?token=t0p")!, secrets: [secret])
        #expect(!"\(endpoint)".contains("MfKQ") && endpoint.logName == "https://example.org")
    }

    @Test func retriesBackOffExponentiallyWithJitterTheFirstWithinAMinute() {
        let schedule = RetrySchedule()
        #expect((1...9).map { schedule.ceiling(beforeRetry: $0) } == [10, 30, 90, 270, 810, 2430, 7200, 7200, 7200])
        var rng = SystemRandomNumberGenerator()
        for retry in 1...12 {
            let ceiling = schedule.ceiling(beforeRetry: retry)
            let delays = (0..<200).map { _ in schedule.delay(beforeRetry: retry, using: &rng) }
            #expect(delays.allSatisfy { $0 >= ceiling / 2 && $0 <= ceiling })
            #expect(Set(delays).count > 100, "jittered")
        }
        #expect(schedule.delay(beforeRetry: 1, using: &rng) < 60)
        #expect(schedule.giveUpAfter == 24 * 3600)
    }

    @Test func loopbackHostsAreRecognised() {
        for host in ["127.0.0.1", "127.8.9.10", "localhost", "LOCALHOST", "api.localhost", "::1", "[::1]"] {
            #expect(WebhookEndpoint.isLoopback(host: host), "\(host)")
        }
        for host in ["128.0.0.1", "127.0.0.1.example.org", "example.org", "10.0.0.1", "::2", "localhost.example.org"] {
            #expect(!WebhookEndpoint.isLoopback(host: host), "\(host)")
        }
    }
}
