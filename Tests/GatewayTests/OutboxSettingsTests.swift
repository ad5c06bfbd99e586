import Foundation
import Modem
import Testing

@testable import Gateway

/// The `[outbox]` limit on temporary send failures: the rule that decides, which errors count,
/// and how the table and its environment overrides are read.
@Suite("Outbox settings (the limit on temporary send failures)")
struct OutboxSettingsTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theRowGivesUpAtTheAttemptLimitAndNotBefore() {
        let limit = OutboxSettings(maxAttempts: 10, maxAgeSeconds: 86_400)
        let soon = Self.start.addingTimeInterval(60)
        #expect(limit.giveUp(failures: 9, failingSince: Self.start, now: soon) == nil)
        #expect(limit.giveUp(failures: 10, failingSince: Self.start, now: soon) == .attempts(10))
    }

    @Test func theRowGivesUpOnceItsFirstFailureIsOlderThanTheAge() {
        let limit = OutboxSettings(maxAttempts: 10, maxAgeSeconds: 3600)
        #expect(limit.giveUp(failures: 3, failingSince: Self.start, now: Self.start.addingTimeInterval(3599)) == nil)
        #expect(
            limit.giveUp(failures: 3, failingSince: Self.start, now: Self.start.addingTimeInterval(3600))
                == .age(seconds: 3600, attempts: 3))
    }

    @Test func zeroMeansNoLimit() {
        let never = OutboxSettings(maxAttempts: 0, maxAgeSeconds: 0)
        #expect(never.giveUp(failures: 10_000, failingSince: Self.start, now: Self.start.addingTimeInterval(86_400 * 365)) == nil)
        let byAgeOnly = OutboxSettings(maxAttempts: 0, maxAgeSeconds: 60)
        #expect(byAgeOnly.giveUp(failures: 500, failingSince: Self.start, now: Self.start.addingTimeInterval(59)) == nil)
    }

    @Test func theSentenceSaysWhyItGaveUpAndWhatTheLastErrorWas() {
        let last = "The modem refused the SMS. (+CMS ERROR 302: operation not allowed)"
        #expect(
            OutboxSettings.GiveUp.attempts(10).sentence(lastError: last)
                == "Gave up after 10 attempts that failed temporarily; the last error: \(last)")
        #expect(
            OutboxSettings.GiveUp.age(seconds: 86_400, attempts: 7).sentence(lastError: last)
                == "Gave up after failing temporarily for over 24 h (7 attempts); the last error: \(last)")
        #expect(OutboxSettings.duration(90) == "1.5 min" && OutboxSettings.duration(45) == "45 s")
    }

    /// Refusals of the SMS count; modem trouble and permanent errors do not.
    @Test func onlyTheSendsOwnTemporaryFailuresCount() {
        #expect(OutboxSettings.counts(ModemError(.sendRejected, "Refused.", cmsError: 302)))
        #expect(OutboxSettings.counts(ModemError(.sendRejected, "Congestion.", cmsError: 42)))
        #expect(OutboxSettings.counts(ModemError(.sendRejected, "No network service.", cmeError: 30)))
        for trouble: ModemError.Code in [
            .timeout, .ambiguousSend, .deviceGone, .deviceNotFound, .notConnected, .modemFailure, .deviceOpenFailed,
        ] {
            #expect(!OutboxSettings.counts(ModemError(trouble, "Modem trouble.")), "\(trouble)")
        }
        #expect(!OutboxSettings.counts(ModemError(.sendRejected, "Unknown number.", cmsError: 21)))
    }

    @Test func theTableIsReadWithDefaultsAndZeroes() throws {
        #expect(try GatewayConfiguration(toml: "").outbox == OutboxSettings(maxAttempts: 10, maxAgeSeconds: 86_400))
        let example = try GatewayConfiguration.load(from: ConfigurationTests.exampleURL, environment: [:])
        #expect(example.outbox == OutboxSettings())
        let file = try GatewayConfiguration(toml: "[outbox]\nmax_attempts = 0\nmax_age_seconds = 3600.5\n")
        #expect(file.outbox == OutboxSettings(maxAttempts: 0, maxAgeSeconds: 3600.5))
        let environment = try GatewayConfiguration(
            toml: "[outbox]\nmax_attempts = 3\n",
            environment: ["SMSGW_OUTBOX_MAX_ATTEMPTS": "5", "SMSGW_OUTBOX_MAX_AGE_SECONDS": "0"])
        #expect(environment.outbox == OutboxSettings(maxAttempts: 5, maxAgeSeconds: 0))
    }

    @Test(arguments: [
        ("[outbox]\nmax_attempts = -1\n", "outbox.max_attempts"), ("[outbox]\nmax_attempts = 2.5\n", "outbox.max_attempts"),
        ("[outbox]\nmax_age_seconds = -60\n", "outbox.max_age_seconds"),
        ("[outbox]\nmax_age_seconds = \"1 day\"\n", "outbox.max_age_seconds"), ("[outbox]\nretries = 3\n", "outbox.retries"),
        ("outbox = 3\n", "outbox"),
    ])
    func aBadValueNamesItsKey(toml: String, key: String) {
        #expect { try GatewayConfiguration(toml: toml) } throws: { ($0 as? ConfigurationError)?.key == key }
    }

    @Test(arguments: [("SMSGW_OUTBOX_MAX_ATTEMPTS", "many"), ("SMSGW_OUTBOX_MAX_AGE_SECONDS", "-1"), ("SMSGW_OUTBOX_RETRIES", "3")])
    func aBadEnvironmentVariableIsNamed(name: String, value: String) {
        #expect { try GatewayConfiguration(toml: "", environment: [name: value]) } throws: {
            ($0 as? ConfigurationError)?.key == name
        }
    }
}
