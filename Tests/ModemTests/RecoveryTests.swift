import Foundation
import Modem
import ModemSimulator
import TestSupport
import Testing

@Suite("Errors, watchdog and recovery against the simulator", .serialized)
struct RecoveryTests {
    @Test func cmsErrorsAreClassified() async throws {
        let fixture = SimulatorRig()
        let sim = try fixture.network.addModem(number: "+15550001")
        try fixture.network.addModem(number: "+15550002")
        try fixture.network.start()
        let modem = try fixture.modem(for: sim)
        try await modem.connect()

        sim.faults = FaultPlan(sendError: SendErrorFault(cmsCode: 38))
        do {
            _ = try await modem.send(text: "temporary", to: "+15550002", statusReport: false)
            Issue.record("CMS 38 was not reported")
        } catch {
            #expect(error.code == .sendRejected)
            #expect(error.cmsError == 38)
            #expect(error.isRetryable)
            #expect(!error.mayHaveBeenSent)
            #expect(error.description.contains("network out of order"))
        }

        sim.faults = FaultPlan(sendError: SendErrorFault(cmsCode: 21))
        do {
            _ = try await modem.send(text: "permanent", to: "+15550002", statusReport: false)
            Issue.record("CMS 21 was not reported")
        } catch {
            #expect(error.code == .sendRejected)
            #expect(error.cmsError == 21)
            #expect(!error.isRetryable)
        }

        sim.faults = .none
        let reference = try await modem.send(text: "fine again", to: "+15550002", statusReport: false)
        #expect(reference >= 0)
        #expect(!modem.needsRecovery)
    }

    @Test func hungModemTimesOutAndRecovers() async throws {
        let fixture = SimulatorRig()
        let sim = try fixture.network.addModem(number: "+15550001")
        try fixture.network.start()
        let modem = try fixture.modem(for: sim, callTimeout: .seconds(3), watchdogTimeout: .seconds(3))
        try await modem.connect()

        sim.setHung(true)
        // The modem never answers, so only the watchdog can end this call: a timeout error proves it fired.
        do {
            _ = try await modem.status()
            Issue.record("a hung modem answered")
        } catch {
            #expect(error.code == .timeout)
            #expect(error.isRetryable)
            #expect(error.needsRecovery)
        }
        #expect(modem.needsRecovery)
        await #expect(throws: ModemError.self) { try await modem.probe(timeout: .seconds(2)) }

        sim.setHung(false)
        try await modem.reopen()
        #expect(!modem.needsRecovery)
        try await modem.probe()
        let status = try await modem.status()
        #expect(status.registration == .home)
    }

    @Test func sendToAHungModemTimesOutWithoutAmbiguity() async throws {
        let fixture = SimulatorRig()
        let sim = try fixture.network.addModem(number: "+15550001")
        try fixture.network.addModem(number: "+15550002")
        try fixture.network.start()
        let modem = try fixture.modem(for: sim, callTimeout: .seconds(3), watchdogTimeout: .seconds(3))
        try await modem.connect()
        sim.setHung(true)
        do {
            _ = try await modem.send(text: "never submitted", to: "+15550002", statusReport: false)
            Issue.record("a hung modem took an SMS")
        } catch {
            // The modem never showed the "> " prompt, so the PDU was never written: not ambiguous.
            #expect(error.code == .timeout)
            #expect(!error.mayHaveBeenSent)
        }
        #expect(sim.submittedCount == 0)
        sim.setHung(false)
        try await modem.reopen()
        _ = try await modem.send(text: "after recovery", to: "+15550002", statusReport: false)
        #expect(sim.submittedCount == 1)
    }

    @Test func unplugAndReplug() async throws {
        let fixture = SimulatorRig()
        let sim = try fixture.network.addModem(number: "+15550001")
        try fixture.network.start()
        let modem = try fixture.modem(for: sim)
        let events = EventRecorder(modem)
        try await modem.connect()

        sim.unplug()
        let noticed = await eventually(timeout: .seconds(10)) {
            await events.events.contains(.disconnected)
        }
        #expect(noticed)
        #expect(!modem.isConnected)
        #expect(modem.needsRecovery)
        do {
            _ = try await modem.messages()
            Issue.record("an unplugged modem listed messages")
        } catch {
            #expect(error.needsRecovery)
        }
        do {
            try await modem.reopen()
            Issue.record("reopen worked while unplugged")
        } catch {
            #expect(error.code == .deviceNotFound || error.code == .deviceOpenFailed || error.code == .deviceGone)
            #expect(error.isRetryable)
        }

        try fixture.network.inject(text: "waited at the SMSC", from: "+15550009", to: "+15550001")
        try sim.replug()
        try await modem.reopen()
        #expect(modem.isConnected)
        #expect(!modem.needsRecovery)
        var texts: [String] = []
        _ = await eventually(timeout: .seconds(15)) {
            texts = try await modem.messages().map(\.text)
            return !texts.isEmpty
        }
        #expect(texts == ["waited at the SMSC"])
    }

    @Test func radioResetKeepsTheModemUsable() async throws {
        let fixture = SimulatorRig()
        let sim = try fixture.network.addModem(number: "+15550001")
        try fixture.network.start()
        let modem = try fixture.modem(for: sim)
        try await modem.connect()
        try await modem.radioReset()
        #expect(sim.isRadioOn)
        try await modem.probe()
    }

    @Test func wrongPINIsReportedAndNeverRetried() async throws {
        let fixture = SimulatorRig()
        let sim = try fixture.network.addModem(number: "+15550001", pin: "1234")
        try fixture.network.start()

        let wrong = try fixture.modem(for: sim, pin: "9999")
        for attempt in 1...4 {
            do {
                try await wrong.connect()
                Issue.record("a wrong PIN was accepted")
            } catch {
                #expect(error.code == .wrongPIN, "attempt \(attempt): \(error)")
                #expect(!error.isRetryable)
                #expect(!error.description.contains("9999"))
                #expect(!error.description.contains("1234"))
            }
        }
        do {
            try await wrong.reopen()
            Issue.record("reopen offered the wrong PIN again")
        } catch {
            #expect(error.code == .wrongPIN)
        }
        // Had the four connects and the reopen offered the PIN more than once, the SIM (3 tries)
        // would now be PUK-locked. One more wrong PIN from a fresh object uses the second try...
        let again = try fixture.modem(for: sim, pin: "9999")
        await #expect(throws: ModemError.self) { try await again.connect() }
        // ...and the right PIN still unlocks it: at most two wrong PINs reached the SIM.
        let right = try fixture.modem(for: sim, pin: "1234")
        try await right.connect()
        #expect(right.isConnected)
    }

    @Test func missingPINIsReported() async throws {
        let fixture = SimulatorRig()
        let sim = try fixture.network.addModem(number: "+15550001", pin: "1234")
        try fixture.network.start()
        let modem = try fixture.modem(for: sim)
        do {
            try await modem.connect()
            Issue.record("connected without a PIN")
        } catch {
            #expect(error.code == .pinRequired)
        }
    }

    @Test func loadsAGammurcSection() async throws {
        let fixture = SimulatorRig()
        let sim = try fixture.network.addModem(number: "+15550001", pin: "4321")
        try fixture.network.start()
        let url = try fixture.network.writeGammurc(for: sim)
        try (String(contentsOf: url, encoding: .utf8) + "\n[smsd]\nPIN = 4321\n").write(to: url, atomically: true, encoding: .utf8)
        var configuration = try ModemConfiguration.load(gammurc: url, name: "sim1")
        #expect(configuration.device == sim.devicePath)
        #expect(configuration.connection == "at")
        #expect(configuration.pin == "4321")
        #expect(!configuration.description.contains("4321"))
        configuration.callTimeout = .seconds(15)
        let modem = try GammuModem(configuration: configuration, logger: .init(label: "test"))
        try await modem.connect()
        #expect(try await modem.status().imsi?.hasPrefix("00101") == true)

        #expect(throws: ModemError.self) { try ModemConfiguration.load(gammurc: url, section: 7) }
        #expect(throws: ModemError.self) { try ModemConfiguration.load(gammurc: URL(fileURLWithPath: "/nonexistent/gammurc")) }
    }
}
