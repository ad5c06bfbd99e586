import Modem
import Testing

@testable import Gateway

/// The recovery ladder as a value: each rung by example, then every event in every reachable
/// state against the rules that must always hold. No modem, no clock.
@Suite("Recovery ladder")
struct RecoveryLadderTests {
    typealias Ladder = RecoveryLadder

    static let timeout = ModemError(.timeout, "The modem did not answer in time.")
    static let wrongPIN = ModemError(.wrongPIN, "The SIM refused the PIN.")

    /// A ladder that opened its modem and serves.
    static func serving() -> Ladder {
        var ladder = Ladder(device: "/dev/ttyUSB0", pinSource: "/etc/smsgw/pin")
        _ = ladder.deviceChecked(present: true)
        _ = ladder.opened()
        _ = ladder.healthRead()
        return ladder
    }

    @Test func theFirstConnectionReadsTheHealthThenServes() {
        var ladder = Ladder(device: "/dev/ttyUSB0", pinSource: "/etc/smsgw/pin")
        #expect(ladder.start().action == .checkDevice)
        #expect(ladder.deviceChecked(present: true).action == .connect)
        let ready = ladder.opened()
        #expect(ready == Ladder.Step(action: .readHealth, notes: [.ready], publishes: true, becameReady: true))
        #expect(ladder.phase == .ready && ladder.lastError == nil)
        #expect(ladder.healthRead() == Ladder.Step(action: .serve, publishes: true))
        #expect(ladder.healthDue().action == .readHealth)
    }

    @Test func aHungModemIsProbedThenReopenedNotConnected() {
        var ladder = Self.serving()
        let step = ladder.recoveryNeeded(connected: true, reason: Self.timeout.description)
        #expect(step == Ladder.Step(action: .probe, notes: [.recovering], publishes: true))
        #expect(ladder.phase == .recovering && ladder.lastError == Self.timeout.description)
        #expect(ladder.probed(answered: false, needsRecovery: true).action == .checkDevice)
        #expect(ladder.deviceChecked(present: true).action == .reopen)
        #expect(ladder.opened().becameReady)
        #expect(ladder.phase == .ready && ladder.lastError == nil)
    }

    @Test func aFlaggedModemThatAnswersHasItsRadioResetThenItsPortReopened() {
        var ladder = Self.serving()
        _ = ladder.recoveryNeeded(connected: true, reason: nil)
        #expect(ladder.probed(answered: true, needsRecovery: true).action == .resetRadio)
        #expect(ladder.radioReset().action == .checkDevice)
        #expect(ladder.deviceChecked(present: true).action == .reopen)
    }

    @Test func aModemThatAnswersAndIsNotFlaggedIsReadyAtOnce() {
        var ladder = Self.serving()
        _ = ladder.recoveryNeeded(connected: true, reason: "A send timed out.")
        #expect(ladder.probed(answered: true, needsRecovery: false) == Ladder.Step(action: .serve, publishes: true, becameReady: true))
        #expect(ladder.phase == .ready && ladder.lastError == nil)
    }

    @Test func anUnpluggedModemWaitsForItsDeviceAndSaysSoOnce() {
        var ladder = Self.serving()
        #expect(ladder.recoveryNeeded(connected: false, reason: "The modem disconnected.").action == .checkDevice)
        let missing = ladder.deviceChecked(present: false)
        #expect(missing.action == .pause(seconds: Ladder.devicePause))
        #expect(missing.publishes && missing.notes.count == 1)
        #expect(ladder.phase == .waitingForDevice)
        #expect(ladder.lastError?.contains("/dev/ttyUSB0") == true)
        #expect(ladder.paused().action == .checkDevice)
        let stillMissing = ladder.deviceChecked(present: false)
        #expect(stillMissing.notes.isEmpty && stillMissing.publishes)
        _ = ladder.paused()
        #expect(ladder.deviceChecked(present: true).action == .reopen)
    }

    @Test func failedOpensBackOffToFiveSecondsAndAreLoggedWhenTheyChange() {
        var ladder = Ladder(device: "/dev/ttyUSB0", pinSource: "/etc/smsgw/pin")
        var pauses: [Double] = []
        var repeats: [Bool] = []
        for _ in 0..<5 {
            _ = ladder.deviceChecked(present: true)
            let step = ladder.openFailed(Self.timeout)
            guard case .pause(let seconds) = step.action, case .connectionFailed(_, let repeated) = step.notes.first else {
                Issue.record("a failed open did not pause: \(step)")
                return
            }
            pauses.append(seconds)
            repeats.append(repeated)
            #expect(ladder.phase == .connecting && ladder.lastError == Self.timeout.description)
            _ = ladder.paused()
        }
        #expect(pauses == [1, 2, 4, 5, 5])
        #expect(repeats == [false, true, true, true, true])
        _ = ladder.deviceChecked(present: true)
        _ = ladder.openFailed(ModemError(.deviceNotFound, "No such device."))
        #expect(ladder.phase == .waitingForDevice)
    }

    @Test func aWrongPINStopsTheModemForGoodAndSaysWhereThePINCameFrom() {
        var ladder = Ladder(device: "/dev/ttyUSB0", pinSource: "/etc/smsgw/pin")
        _ = ladder.deviceChecked(present: true)
        let step = ladder.openFailed(Self.wrongPIN)
        #expect(step.action == .idle && step.publishes)
        #expect(ladder.phase == .wrongPIN)
        #expect(ladder.lastError?.contains("/etc/smsgw/pin") == true)
        #expect(ladder.lastError?.contains("restart") == true)
        #expect(ladder.shutDown().action == .close)
        #expect(ladder.phase == .wrongPIN)
    }

    @Test(arguments: [ModemError.Code.pinRequired, .simLocked, .configuration])
    func whatOnlyAPersonCanFixStopsTheModem(code: ModemError.Code) {
        var ladder = Ladder(device: "/dev/ttyUSB0", pinSource: "the configuration")
        _ = ladder.deviceChecked(present: true)
        #expect(ladder.openFailed(ModemError(code, "The SIM wants something.")).action == .idle)
        #expect(ladder.phase == .stopped)
        #expect(ladder.lastError?.hasPrefix("The SIM wants something.") == true)
    }

    @Test func aFailedHealthCheckClimbsTheLadderWithItsError() {
        var ladder = Self.serving()
        _ = ladder.healthDue()
        let step = ladder.healthFailed(Self.timeout, connected: true)
        #expect(step == Ladder.Step(action: .probe, notes: [.healthFailed(Self.timeout), .recovering], publishes: true))
        #expect(ladder.lastError == Self.timeout.description)
    }

    @Test func aShutdownClosesThePortFromAnyRung() {
        var ladder = Self.serving()
        #expect(ladder.shutDown() == Ladder.Step(action: .close, publishes: true))
        #expect(ladder.phase == .stopped)
        #expect(ladder.opened().action == .close)
    }
}
