import Failures
import Foundation
import Gateway
import Logging
import Operations
import SimulatedGateway
import TestSupport
import Testing

@Suite("Gateway configuration (TOML, environment, validation)")
struct ConfigurationTests {
    static var exampleURL: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("config/smsgw.toml.example")
    }

    @Test func theExampleFileParses() throws {
        let configuration = try GatewayConfiguration.load(from: Self.exampleURL, environment: [:])
        #expect(configuration.dataDirectory.path == "/var/lib/smsgw")
        #expect(configuration.logLevel == .info)
        #expect(
            configuration.intervals
                == .init(pollSeconds: 5, healthSeconds: 30, retryBaseSeconds: 10, retryMaxSeconds: 600, resyncRetrySeconds: 300))
        #expect(configuration.modems.count == 2)
        #expect(configuration.resync == ResyncSettings(accept: .operator, automaticRepliesPerHour: 4))
        let huawei = configuration.modems[0]
        #expect(huawei.name == "huawei")
        #expect(huawei.source == .device(path: "/dev/serial/by-id/usb-HUAWEI_Technology_HUAWEI_Mobile-if00-port0", connection: "at"))
        #expect(huawei.pinFile == "/etc/smsgw/pin-huawei")
        #expect(huawei.statusReports)
        #expect(huawei.callTimeoutSeconds == 30)
        #expect(configuration.modems[1].source == .gammurc(path: "/etc/smsgw/gammurc", section: 1))
    }

    @Test func peerResyncWaitsForTheOperatorUnlessConfigured() throws {
        #expect(try GatewayConfiguration(toml: "").resync == ResyncSettings(accept: .operator, automaticRepliesPerHour: 4))
        let file = try GatewayConfiguration(toml: "[resync]\naccept = \"auto\"\n[replies]\nper_contact_per_hour = 2\n")
        #expect(file.resync == ResyncSettings(accept: .auto, automaticRepliesPerHour: 2))
        let environment = try GatewayConfiguration(
            toml: "[resync]\naccept = \"auto\"\n",
            environment: ["SMSGW_RESYNC_ACCEPT": "operator", "SMSGW_REPLIES_PER_CONTACT_PER_HOUR": "0"])
        #expect(environment.resync == ResyncSettings(accept: .operator, automaticRepliesPerHour: 0))
        for (toml, key) in [
            ("[resync]\naccept = \"always\"\n", "resync.accept"), ("[resync]\nanswer = true\n", "resync.answer"),
            ("[replies]\nper_contact_per_hour = -1\n", "replies.per_contact_per_hour"), ("resync = 1\n", "resync"),
        ] {
            #expect { try GatewayConfiguration(toml: toml) } throws: { ($0 as? ConfigurationError)?.key == key }
        }
        #expect { try GatewayConfiguration(toml: "", environment: ["SMSGW_RESYNC_ACCEPT": "yes"]) } throws: {
            ($0 as? ConfigurationError)?.key == "SMSGW_RESYNC_ACCEPT"
        }
    }

    @Test func unansweredHandshakesBackOffAndStop() {
        let pauses = (1...ResyncCoordinator.maxAttempts).map { ResyncCoordinator.delay(beforeRetry: $0, base: 300) }
        #expect(pauses == [300, 600, 1200, 2400, 4800, nil])
        #expect(ResyncCoordinator.delay(beforeRetry: 0, base: 300) == nil)
    }

    @Test func defaultsApplyToAMinimalFile() throws {
        let configuration = try GatewayConfiguration(toml: "")
        #expect(configuration.modems.isEmpty)
        #expect(configuration.intervals.pollSeconds == 5)
        #expect(configuration.logLevel == .info)
    }

    @Test func environmentOverridesTheFile() throws {
        let configuration = try GatewayConfiguration(
            toml: "log_level = \"info\"\n[intervals]\npoll_seconds = 5\n",
            environment: [
                "SMSGW_LOG_LEVEL": "debug", "SMSGW_INTERVALS_POLL_SECONDS": "2", "SMSGW_DATA_DIR": "/srv/smsgw",
                "SMSGW_INTERVALS_RETRY_MAX_SECONDS": "900", "SMSGW_PASSPHRASE": "ignored here",
            ])
        #expect(configuration.logLevel == .debug)
        #expect(configuration.intervals.pollSeconds == 2)
        #expect(configuration.intervals.retryMaxSeconds == 900)
        #expect(configuration.dataDirectory.path == "/srv/smsgw")
    }

    @Test func environmentOverridesAndAddsModems() throws {
        let configuration = try GatewayConfiguration(
            toml: "[[modem]]\nname = \"north\"\ndevice = \"/dev/ttyUSB0\"\n",
            environment: [
                "SMSGW_MODEM_1_DEVICE": "/dev/ttyUSB2", "SMSGW_MODEM_1_STATUS_REPORTS": "false",
                "SMSGW_MODEM_1_CALL_TIMEOUT_SECONDS": "12.5",
                "SMSGW_MODEM_2_NAME": "south", "SMSGW_MODEM_2_GAMMURC": "/etc/gammurc", "SMSGW_MODEM_2_SECTION": "1",
            ])
        #expect(configuration.modems.map(\.name) == ["north", "south"])
        #expect(configuration.modems[0].source == .device(path: "/dev/ttyUSB2", connection: "at"))
        #expect(configuration.modems[0].statusReports == false)
        #expect(configuration.modems[0].callTimeoutSeconds == 12.5)
        #expect(configuration.modems[1].source == .gammurc(path: "/etc/gammurc", section: 1))

        // No file at all: a modem from the environment alone.
        let alone = try GatewayConfiguration(
            toml: "", environment: ["SMSGW_MODEM_1_NAME": "usb", "SMSGW_MODEM_1_DEVICE": "/dev/ttyACM0"])
        #expect(alone.modems.map(\.name) == ["usb"])
    }

    @Test func retryDelaysGrowAndStopAtTheMaximum() {
        let intervals = GatewayConfiguration.Intervals(retryBaseSeconds: 10, retryMaxSeconds: 600)
        #expect(intervals.retryDelay(afterAttempt: 1) == 10)
        #expect(intervals.retryDelay(afterAttempt: 2) == 20)
        #expect(intervals.retryDelay(afterAttempt: 4) == 80)
        #expect(intervals.retryDelay(afterAttempt: 40) == 600)
    }

    /// Each bad input and the key its error must name.
    static let badInputs: [(toml: String, environment: [String: String], key: String, hint: String)] = [
        ("log_level = \"loud\"", [:], "log_level", "trace, debug"),
        ("log_level = 3", [:], "log_level", "string"),
        ("data_dir = \"\"", [:], "data_dir", "directory"),
        ("colour = \"blue\"", [:], "colour", "Unknown key"),
        ("[intervals]\npoll_seconds = \"fast\"", [:], "intervals.poll_seconds", "number of seconds"),
        ("[intervals]\nhealth_seconds = 0", [:], "intervals.health_seconds", "positive"),
        ("[intervals]\nretry_base_seconds = -1", [:], "intervals.retry_base_seconds", "positive"),
        ("[intervals]\nretry_base_seconds = 100\nretry_max_seconds = 10", [:], "intervals.retry_max_seconds", "at least"),
        ("[intervals]\nresync_retry_seconds = true", [:], "intervals.resync_retry_seconds", "number"),
        ("[intervals]\npoll = 5", [:], "intervals.poll", "Unknown key"),
        ("[[modem]]\ndevice = \"/dev/x\"", [:], "modem[1].name", "required"),
        ("[[modem]]\nname = \"a\"", [:], "modem[1].device", "device"),
        ("[[modem]]\nname = \"a\"\ndevice = \"/dev/x\"\ngammurc = \"/etc/g\"", [:], "modem[1].gammurc", "both"),
        ("[[modem]]\nname = \"a\"\ndevice = \"/dev/x\"\nstatus_reports = \"yes\"", [:], "modem[1].status_reports", "true or false"),
        ("[[modem]]\nname = \"a\"\ndevice = \"/dev/x\"\ncall_timeout_seconds = 0", [:], "modem[1].call_timeout_seconds", "positive"),
        ("[[modem]]\nname = \"a\"\ngammurc = \"/etc/g\"\nsection = -1", [:], "modem[1].section", "whole number"),
        ("[[modem]]\nname = \"a\"\ndevice = \"/dev/x\"\nspeed = 9600", [:], "modem[1].speed", "Unknown key"),
        ("[[modem]]\nname = \"a\"\ndevice = \"/dev/x\"\n[[modem]]\nname = \"A\"\ndevice = \"/dev/y\"", [:], "modem[2].name", "own name"),
        ("", ["SMSGW_LOG_LEVEL": "chatty"], "SMSGW_LOG_LEVEL", "trace, debug"),
        ("", ["SMSGW_INTERVALS_POLL_SECONDS": "soon"], "SMSGW_INTERVALS_POLL_SECONDS", "positive number"),
        ("", ["SMSGW_INTERVALS_NAP_SECONDS": "1"], "SMSGW_INTERVALS_NAP_SECONDS", "Unknown environment variable"),
        ("", ["SMSGW_MODEM_1_SPEED": "9600"], "SMSGW_MODEM_1_SPEED", "Unknown environment variable"),
        ("", ["SMSGW_MODEM_X_NAME": "a"], "SMSGW_MODEM_X_NAME", "<N>_<KEY>"),
        ("", ["SMSGW_MODEM_0_NAME": "a"], "SMSGW_MODEM_0_NAME", "place from 1"),
        ("", ["SMSGW_MODEM_2_NAME": "a", "SMSGW_MODEM_2_DEVICE": "/dev/x"], "SMSGW_MODEM_2", "without gaps"),
        (
            "", ["SMSGW_MODEM_1_NAME": "a", "SMSGW_MODEM_1_DEVICE": "/dev/x", "SMSGW_MODEM_1_SECTION": "-2"], "SMSGW_MODEM_1_SECTION",
            "whole number"
        ),
        (
            "", ["SMSGW_MODEM_1_NAME": "a", "SMSGW_MODEM_1_DEVICE": "/dev/x", "SMSGW_MODEM_1_STATUS_REPORTS": "maybe"],
            "SMSGW_MODEM_1_STATUS_REPORTS", "true or false"
        ),
        (
            "", ["SMSGW_MODEM_1_NAME": "a", "SMSGW_MODEM_1_DEVICE": "/dev/x", "SMSGW_MODEM_1_CALL_TIMEOUT_SECONDS": "soon"],
            "SMSGW_MODEM_1_CALL_TIMEOUT_SECONDS", "number of seconds"
        ),
        ("", ["SMSGW_MODEM_1_DEVICE": "/dev/x"], "modem[1].name", "or SMSGW_MODEM_1_NAME"),
    ]

    @Test(arguments: 0..<badInputs.count)
    func eachBadKeyIsNamed(_ index: Int) {
        let input = Self.badInputs[index]
        do {
            _ = try GatewayConfiguration(toml: input.toml, environment: input.environment)
            Issue.record("accepted: \(input.toml) \(input.environment)")
        } catch {
            #expect(error.key == input.key, "\(error)")
            #expect(error.message.contains(input.key), "\(error)")
            #expect(error.message.contains(input.hint), "\(error)")
            #expect(error.category == .configuration)
        }
    }

    @Test func syntaxErrorsGiveTheLine() {
        do {
            _ = try GatewayConfiguration(toml: "log_level = \"info\"\n[intervals\n", source: "smsgw.toml")
            Issue.record("accepted broken TOML")
        } catch {
            #expect(error.key == nil)
            #expect(error.message.contains("smsgw.toml"))
            #expect(error.message.contains("line 2"))
        }
    }

    @Test func aMissingFileIsExplained() {
        #expect(throws: ConfigurationError.self) {
            try GatewayConfiguration.load(from: URL(fileURLWithPath: "/nonexistent/smsgw.toml"), environment: [:])
        }
    }

    @Test func pinFilesAreReadAndChecked() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smsgw-pin-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("pin")
        try writeSecret("1234\n", to: good)
        let settings = ModemSettings(name: "m", source: .device(path: "/dev/null", connection: "at"), pinFile: good.path)
        let modem = try settings.modemConfiguration()
        #expect(modem.pin == "1234")
        #expect(!modem.description.contains("1234"))

        let bad = directory.appendingPathComponent("bad")
        try writeSecret("12a4", to: bad)
        #expect(
            throws: ConfigurationError(
                key: "modem[2].pin_file", "modem[2].pin_file: \(bad.path) must hold the SIM PIN, 4 to 8 digits and nothing else.")
        ) {
            _ = try ModemSettings(name: "m", source: .device(path: "/dev/null", connection: "at"), pinFile: bad.path).modemConfiguration(
                index: 2)
        }
        #expect(throws: ConfigurationError.self) {
            _ = try ModemSettings(
                name: "m", source: .device(path: "/dev/null", connection: "at"), pinFile: directory.appendingPathComponent("none").path
            ).modemConfiguration()
        }

        // A PIN every user of the machine may read is refused, with the mode and the fix.
        let open = directory.appendingPathComponent("open")
        try writeSecret("1234", to: open)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: open.path)
        let message =
            "modem[1].pin_file: every user on this machine may read \(open.path) (mode 0644); make it 0400 or 0440 (chmod o= \(open.path))."
        #expect(throws: ConfigurationError(key: "modem[1].pin_file", message)) {
            _ = try ModemSettings(name: "m", source: .device(path: "/dev/null", connection: "at"), pinFile: open.path).modemConfiguration()
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: open.path)
        #expect(
            try ModemSettings(name: "m", source: .device(path: "/dev/null", connection: "at"), pinFile: open.path).modemConfiguration().pin
                == "1234")
    }

    @Test func simulatorSettingsDriveTheFirstNumberByDefault() {
        let settings = SimulatorSettings()
        #expect(settings.numbers == ["+15550001", "+15550002"])
        #expect(settings.drivenCount == 1)
        #expect(SimulatorSettings(numbers: ["+15550001"], driven: 5).drivenCount == 1)
        #expect(GatewayConfiguration.Intervals.simulated.pollSeconds == 1)
    }
}
