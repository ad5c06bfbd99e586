import Foundation
import Modem
import ModemSimulator
import TestSupport
import Testing

/// What the modem's storage holds besides ordinary SMS, read through the real libgammu.
@Suite("Reading storage that holds more than ordinary SMS", .serialized)
struct StorageTests {
    /// One simulated modem, connected.
    struct Single {
        let fixture = SimulatorRig()
        let sim: SimulatedModem
        let modem: GammuModem

        init(capacity: Int = 30, direct: Bool = false) async throws {
            sim = try fixture.network.addModem(number: "+15550001", storageCapacity: capacity)
            sim.deliversDirectly = direct
            try fixture.network.start()
            modem = try fixture.modem(for: sim)
            try await modem.connect()
        }

        /// Waits until the simulated modem stores `count` entries.
        func waitForStored(_ count: Int) async -> Bool {
            await eventually(timeout: .seconds(15)) { sim.storedMessageCount >= count }
        }
    }

    /// An SMS-SUBMIT with SMSC "00" as AT+CMGW would store it in the outbox folder.
    static func submitLine(_ text: String) throws -> String {
        let submit = SMSSubmit(destination: PhoneAddress("+15550002"), userData: try UserData(text: text))
        return "00" + Hex.encode(try submit.encoded())
    }

    @Test("Entries libgammu cannot decode are reported with their raw form, and the others are still read")
    func unreadableEntriesDoNotHideTheOthers() async throws {
        let single = try await Single()
        try single.fixture.network.inject(text: "before the bad ones", from: "+15559999", to: "+15550001")
        #expect(await single.waitForStored(1))
        try single.sim.store(line: "0791ZZZZ", status: 0)  // not even hex
        try single.sim.store(line: "07915155000004", status: 1)  // an SMSC address and nothing else
        try single.fixture.network.inject(text: "after the bad ones", from: "+15559999", to: "+15550001")
        #expect(await single.waitForStored(4))

        let listing = try await single.modem.storage()
        #expect(Set(listing.messages.map(\.text)) == ["before the bad ones", "after the bad ones"])
        #expect(listing.unreadable.count == 2)
        let garbled = try #require(listing.unreadable.first { $0.evidence.contains("0791ZZZZ") })
        #expect(garbled.evidence.contains { $0.hasPrefix("+CMGR:") })
        #expect(!garbled.reason.isEmpty)
        #expect(garbled.fingerprint.hasPrefix("sha256:"))

        for entry in listing.unreadable { try await single.modem.delete(entry.location) }
        let after = try await single.modem.storage()
        #expect(after.unreadable.isEmpty && after.messages.count == 2)
        #expect(single.sim.storedMessageCount == 2)
        #expect(try await single.modem.messages().count == 2)
    }

    @Test("SMS-SUBMIT copies in the outbox folders (STO UNSENT, STO SENT) are not read as incoming")
    func outboxCopiesAreNotIncoming() async throws {
        let single = try await Single()
        try single.sim.store(line: try Self.submitLine("a draft"), status: 2)
        try single.sim.store(line: try Self.submitLine("a sent copy"), status: 3)
        try single.fixture.network.inject(text: "received", from: "+15559999", to: "+15550001")
        #expect(await single.waitForStored(3))

        let listing = try await single.modem.storage()
        #expect(listing.messages.map(\.text) == ["received"])
        #expect(listing.outboxCopies.count == 2)
        #expect(try await single.modem.messages().map(\.text) == ["received"])
        for location in listing.outboxCopies { try await single.modem.delete(location) }
        #expect(single.sim.storedMessageCount == 1)
    }

    @Test("An SMS the modem delivers directly (+CMT) reaches the caller as an event, with nothing stored")
    func directDeliveryIsNotDropped() async throws {
        let single = try await Single(direct: true)
        let recorder = EventRecorder(single.modem)
        try single.fixture.network.inject(text: "straight to you", from: "+15559999", to: "+15550001")
        let arrived = await eventually(timeout: .seconds(15)) {
            await recorder.events.contains { if case .received(let sms) = $0 { sms.text == "straight to you" } else { false } }
        }
        #expect(arrived)
        guard case .received(let sms)? = await recorder.events.first(where: { if case .received = $0 { true } else { false } }) else {
            return
        }
        #expect(sms.number == "+15559999" && sms.location == .notStored && !sms.location.isStored)
        #expect(sms.fingerprint.hasPrefix("sha256:"))
        #expect(single.sim.storedMessageCount == 0)
        try await single.modem.delete(sms.location)  // a no-op, not an error
    }

    @Test("A full storage shows in the usage (AT+CPMS), and frees up for what the SMSC held")
    func storageFull() async throws {
        let single = try await Single(capacity: 2)
        for index in 1...3 {
            try single.fixture.network.inject(text: "filler \(index)", from: "+15559999", to: "+15550001")
        }
        #expect(await single.waitForStored(2))
        let usage = try await single.modem.storageUsage()
        #expect(usage.isFull && usage.simUsed == 2 && usage.simSize == 2)
        let first = try #require(try await single.modem.messages().first)
        try await single.modem.delete(first.location)
        // The SMSC delivers the third once there is room again.
        #expect(
            await eventually(timeout: .seconds(15)) {
                (try? await single.modem.messages().map(\.text).contains("filler 3")) == true
            })
    }

    @Test("Fingerprints are SHA-256 based, stable across reads, and differ between messages")
    func fingerprints() async throws {
        let single = try await Single()
        try single.fixture.network.inject(text: "one", from: "+15559999", to: "+15550001")
        try single.fixture.network.inject(text: "two", from: "+15559999", to: "+15550001")
        #expect(await single.waitForStored(2))
        let first = try await single.modem.messages().map(\.fingerprint)
        let second = try await single.modem.messages().map(\.fingerprint)
        #expect(first == second && Set(first).count == 2)
        #expect(first.allSatisfy { $0.hasPrefix("sha256:") && $0.count == 7 + 64 })
    }
}
