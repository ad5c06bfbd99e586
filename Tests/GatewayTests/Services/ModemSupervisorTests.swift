import Foundation
import Modem
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// The supervisor performing its ladder on an in-memory modem: what it calls, what it publishes.
@Suite("Modem supervisor over an in-memory modem")
struct ModemSupervisorTests {
    /// Runs a supervisor for `rig`'s modem until the returned task is cancelled.
    static func supervise(_ rig: MemoryRig) -> Task<Void, any Error> {
        let supervisor = ModemSupervisor(link: rig.link, context: rig.context)
        return Task { try await supervisor.run() }
    }

    static func storedPhase(_ rig: MemoryRig) throws -> ModemPhase? {
        try GatewayStatus.read(from: rig.store).modems.first?.state
    }

    @Test func itConnectsReadsTheHealthAndPublishesReady() async throws {
        let rig = try await MemoryRig.make(ready: false)
        let task = Self.supervise(rig)
        #expect(await eventually(timeout: MemoryRig.patience) { try Self.storedPhase(rig) == .ready })
        #expect(await eventually(timeout: MemoryRig.patience) { try GatewayStatus.read(from: rig.store).modems.first?.signalPercent == 70 })
        #expect(Array(rig.modem.calls.prefix(2)) == [.connect, .status])
        #expect(rig.link.takeInboxRequest())
        rig.modem.announce(.newMessage)
        #expect(await eventually(timeout: MemoryRig.patience) { rig.link.snapshot.inboxRequested })
        task.cancel()
        _ = try? await task.value
        #expect(rig.link.phase == .stopped)
        #expect(rig.modem.calls.last == .disconnect)
        #expect(try Self.storedPhase(rig) == .stopped)
    }

    @Test func aWrongPINIsOfferedOnceAndTheModemStaysStopped() async throws {
        let rig = try await MemoryRig.make(ready: false, pinFile: "/etc/smsgw/pin")
        rig.modem.fail(.connect, with: ModemError(.wrongPIN, "The SIM refused the PIN."), times: 10)
        let task = Self.supervise(rig)
        #expect(await eventually(timeout: MemoryRig.patience) { try Self.storedPhase(rig) == .wrongPIN })
        try await Task.sleep(for: .milliseconds(500))
        #expect(rig.modem.calls.filter { $0 == .connect || $0 == .reopen } == [.connect])
        let row = try #require(try GatewayStatus.read(from: rig.store).modems.first)
        #expect(row.lastError?.contains("/etc/smsgw/pin") == true)
        task.cancel()
        _ = try? await task.value
        #expect(try Self.storedPhase(rig) == .wrongPIN)
    }

    @Test func aHungModemIsProbedAndReopenedOnceItAnswers() async throws {
        let rig = try await MemoryRig.make(ready: false)
        let task = Self.supervise(rig)
        #expect(await eventually(timeout: MemoryRig.patience) { rig.link.phase == .ready })
        rig.modem.update { $0.hung = true }
        rig.link.requestRecovery(because: ModemError(.timeout, "A send overran its deadline."))
        #expect(await eventually(timeout: MemoryRig.patience) { rig.modem.calls.contains(.reopen) })
        #expect(rig.link.phase != .ready)
        #expect(rig.modem.calls.contains(.probe))
        rig.modem.update { $0.hung = false }
        // A probe still waiting on the hung modem (up to its 5 s deadline) and a reconnect pause
        // (up to 5 s) may come first: the ladder's own bounds, so wait with the rig's patience.
        #expect(await eventually(timeout: MemoryRig.patience) { rig.link.phase == .ready })
        #expect(rig.link.snapshot.lastError == nil)
        task.cancel()
        _ = try? await task.value
    }

    @Test("A modem's updatedAt is when the daemon last heard from it: it stays put while the modem is silent")
    func updatedAtIsWhenTheModemWasLastHeard() async throws {
        let rig = try await MemoryRig.make(ready: false)
        let task = Self.supervise(rig)
        #expect(await eventually(timeout: MemoryRig.patience) { rig.link.phase == .ready })
        rig.modem.update { $0.hung = true }
        let silentFrom = Date()
        let heard = rig.link.record.updatedAt
        #expect(heard <= silentFrom)
        rig.link.requestRecovery(because: ModemError(.timeout, "A send overran its deadline."))
        // The ladder probes the silent modem (and fails) and reopens it: none of it is heard.
        #expect(await eventually(timeout: MemoryRig.patience) { rig.modem.calls.contains(.reopen) && rig.link.phase != .ready })
        #expect(rig.link.record.updatedAt == heard)
        #expect(await eventually(timeout: MemoryRig.patience) { try GatewayStatus.read(from: rig.store).modems.first?.state != .ready })
        let stored = try #require(try GatewayStatus.read(from: rig.store).modems.first?.updatedAt)
        #expect(abs(stored.timeIntervalSince(heard)) < 0.001, "the stored row rounds the time through a REAL, no more")

        rig.modem.update { $0.hung = false }
        #expect(await eventually(timeout: MemoryRig.patience) { rig.link.phase == .ready })
        #expect(rig.link.record.updatedAt > silentFrom)
        task.cancel()
        _ = try? await task.value
    }

    @Test func aModemThatAnswersAfterATimeoutHasItsRadioReset() async throws {
        let rig = try await MemoryRig.make(ready: false)
        let task = Self.supervise(rig)
        #expect(await eventually(timeout: MemoryRig.patience) { rig.link.phase == .ready })
        // A send timed out: the modem is flagged, but the probe answers.
        rig.modem.update { $0.needsRecovery = true }
        #expect(await eventually(timeout: MemoryRig.patience) { rig.modem.calls.contains(.reopen) && rig.link.phase == .ready })
        let ladder = rig.modem.calls.drop { $0 != .probe }
        #expect(Array(ladder.prefix(3)) == [.probe, .radioReset, .reopen])
        task.cancel()
        _ = try? await task.value
    }

    @Test func anUnpluggedModemWaitsForItsDeviceThenReopens() async throws {
        let rig = try await MemoryRig.make(ready: false)
        let task = Self.supervise(rig)
        #expect(await eventually(timeout: MemoryRig.patience) { rig.link.phase == .ready })
        rig.modem.update {
            $0.devicePresent = false
            $0.connected = false
        }
        rig.modem.announce(.disconnected)
        #expect(await eventually(timeout: MemoryRig.patience) { try Self.storedPhase(rig) == .waitingForDevice })
        let row = try #require(try GatewayStatus.read(from: rig.store).modems.first)
        #expect(row.lastError?.contains(rig.modem.device) == true)
        #expect(row.signalPercent == nil)
        rig.modem.update { $0.devicePresent = true }
        #expect(await eventually(timeout: MemoryRig.patience) { try Self.storedPhase(rig) == .ready })
        #expect(!rig.modem.calls.contains(.probe))
        #expect(rig.modem.calls.filter { $0 == .connect } == [.connect])
        task.cancel()
        _ = try? await task.value
    }
}
