import Foundation
import GSM7
import TestSupport
import Testing

@testable import ModemSimulator

/// The real gammu CLI (libgammu's AT driver) against the simulator, as a user would run it.
@Suite("gammu against the simulator", .serialized, .blockingOffPool)
struct GammuEndToEndTests {
    static let a = "+15550001"
    static let b = "+15550002"

    private func twoModems(capacityB: Int = 30, pinB: String? = nil) throws -> SimulatorRig {
        try SimulatorRig.started { network in
            try network.addModem(number: Self.a)
            try network.addModem(number: Self.b, pin: pinB, storageCapacity: capacityB)
        }
    }

    @Test("gammu identify reports the simulated modem")
    func identify() throws {
        let sim = try twoModems()
        defer { sim.close() }
        let modem = try sim.modem(Self.a)
        let result = try Gammu.run(try sim.gammurc(Self.a), ["identify"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("SMSGW-SIM"))
        #expect(result.output.contains("Model"))
        #expect(result.output.contains(modem.imei))
        #expect(result.output.contains("001010015550001"))
    }

    @Test("sendsms A to B with every GSM-7 character; B's getallsms shows it exactly")
    func everyCharacter() throws {
        let sim = try twoModems()
        defer { sim.close() }
        // Printable characters only on the command line: LF and CR would be mangled by the shell-less
        // argument anyway, and are covered by the codec tests.
        let text = String(
            PDUCodecTests.everyGSM7Character.unicodeScalars.filter { $0 != "\n" && $0 != "\r" }
                .map(Character.init))
        let send = try Gammu.run(try sim.gammurc(Self.a), ["sendsms", "TEXT", Self.b, "-text", text])
        #expect(send.status == 0, "\(send.output)")
        #expect(send.output.contains("OK, message reference=1"))
        let b = try sim.modem(Self.b)
        #expect(b.waitUntil(timeout: 5) { b.deliveredCount == 1 })
        #expect(b.storedTexts == [text])
        guard case .deliver(let deliver)? = try? SMSPDU.decode(try #require(b.storedPDUs.first).pdu, direction: .mobileTerminated).tpdu
        else {
            Issue.record("no SMS-DELIVER stored")
            return
        }
        #expect(deliver.dataCoding.alphabet == .gsm7)
        #expect(deliver.originator.description == Self.a)
        let read = try Gammu.run(try sim.gammurc(Self.b), ["getallsms"])
        #expect(read.status == 0, "\(read.output)")
        #expect(read.output.contains(text))
        #expect(read.output.contains("Remote number        : \"\(Self.a)\""))
        #expect(try sim.modem(Self.a).submittedCount == 1)
    }

    @Test("A 160-character message arrives exact, in one SMS")
    func fullLengthMessage() throws {
        let sim = try twoModems()
        defer { sim.close() }
        let text = String((0..<160).map { i in Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz.,!?")[i % 66] })
        let send = try Gammu.run(try sim.gammurc(Self.a), ["sendsms", "TEXT", Self.b, "-len", "160", "-text", text])
        #expect(send.status == 0, "\(send.output)")
        let b = try sim.modem(Self.b)
        #expect(b.waitUntil(timeout: 5) { b.deliveredCount == 1 })
        #expect(b.storedTexts == [text])
        let read = try Gammu.run(try sim.gammurc(Self.b), ["getallsms"])
        #expect(read.output.contains(text))
        #expect(read.output.contains("1 SMS parts in 1 SMS sequences"))
    }

    @Test("Injected UCS2 and multipart messages read back through gammu")
    func injectedUCS2AndMultipart() throws {
        let sim = try twoModems()
        defer { sim.close() }
        let unicode = "Привет 😀 ünïcödé"
        let long = String(repeating: "Store and forward, part by part. ", count: 12).trimmingCharacters(in: .whitespaces)
        try sim.network.inject(text: unicode, from: "Alice", to: Self.b)
        try sim.network.inject(text: long, from: "+4912345678", to: Self.b)
        let b = try sim.modem(Self.b)
        #expect(b.waitUntil(timeout: 5) { b.deliveredCount == 4 })
        let read = try Gammu.run(try sim.gammurc(Self.b), ["geteachsms"])
        #expect(read.status == 0, "\(read.output)")
        #expect(read.output.contains(unicode))
        #expect(read.output.contains("Unicode"))
        #expect(read.output.contains(long))
        #expect(read.output.contains("Concatenated (linked) message"))
        #expect(read.output.contains("4 SMS parts in 2 SMS sequences"))
    }

    @Test("A status report with the right message reference comes back when requested")
    func statusReport() throws {
        let sim = try twoModems()
        defer { sim.close() }
        let a = try sim.modem(Self.a)
        // A first SMS (without a report) through a bare AT client, so the reference to check is 2.
        _ = try ATClient(path: a.devicePath).send(try .text("no report", to: Self.b))
        let send = try Gammu.run(try sim.gammurc(Self.a), ["sendsms", "TEXT", Self.b, "-text", "report me", "-report"])
        #expect(send.output.contains("message reference=2"), "\(send.output)")
        #expect(a.waitUntil(timeout: 5) { a.storedReports.count == 1 })
        let report = try #require(a.storedReports.first)
        #expect(report.messageReference == 2)
        #expect(report.status == SMSStatusReport.Status.delivered)
        #expect(report.recipient.description == Self.b)
        let read = try Gammu.run(try sim.gammurc(Self.a), ["getallsms"])
        #expect(read.output.contains("Delivery status      : Delivered"), "\(read.output)")
    }

    @Test("A full memory holds SMS at the SMSC until gammu deletes some (store and forward)")
    func storeAndForward() throws {
        let sim = try twoModems(capacityB: 2)
        defer { sim.close() }
        let b = try sim.modem(Self.b)
        try sim.network.inject(text: "first", from: "+4900001", to: Self.b)
        try sim.network.inject(text: "second", from: "+4900002", to: Self.b)
        #expect(b.waitUntil(timeout: 5) { b.storedMessageCount == 2 })
        let send = try Gammu.run(try sim.gammurc(Self.a), ["sendsms", "TEXT", Self.b, "-text", "third"])
        #expect(send.status == 0, "\(send.output)")
        #expect(b.waitUntil(timeout: 5) { sim.network.pendingCount(for: b) == 1 })
        #expect(b.storedTexts == ["first", "second"])
        let delete = try Gammu.run(try sim.gammurc(Self.b), ["deleteallsms", "1"])
        #expect(delete.status == 0, "\(delete.output)")
        #expect(b.waitUntil(timeout: 5) { b.storedTexts == ["third"] })
        #expect(sim.network.pendingCount(for: b) == 0)
        #expect(b.deliveredCount == 3)
    }

    @Test("A CMS error injected on send reaches gammu", arguments: [38, 21])
    func cmsError(code: Int) throws {
        let sim = try twoModems()
        defer { sim.close() }
        try sim.modem(Self.a).faults = FaultPlan(sendError: SendErrorFault(cmsCode: code, probability: 1))
        let send = try Gammu.run(try sim.gammurc(Self.a), ["sendsms", "TEXT", Self.b, "-text", "refused"])
        #expect(send.status != 0)
        #expect(send.output.contains("error \(code)"), "\(send.output)")
        #expect(try sim.modem(Self.b).deliveredCount == 0)
        #expect(try sim.modem(Self.a).submittedCount == 0)
    }

    @Test("A hung modem makes gammu time out; after un-hang it answers again")
    func hang() throws {
        let sim = try twoModems()
        defer { sim.close() }
        let a = try sim.modem(Self.a)
        a.setHung(true)
        let hung = try Gammu.run(try sim.gammurc(Self.a), ["identify"], timeout: 4)
        #expect(hung.timedOut || hung.status != 0)
        #expect(!hung.output.contains("SMSGW-SIM"))
        a.setHung(false)
        let again = try Gammu.run(try sim.gammurc(Self.a), ["identify"])
        #expect(again.status == 0, "\(again.output)")
        #expect(again.output.contains("SMSGW-SIM"))
    }

    @Test("Unplug closes the port and removes the path; replug brings it back at the same path")
    func unplugReplug() throws {
        let sim = try twoModems()
        defer { sim.close() }
        let a = try sim.modem(Self.a)
        let client = try ATClient(path: a.devicePath)
        #expect(try client.command("AT")?.contains("OK") == true)
        let before = try FileManager.default.destinationOfSymbolicLink(atPath: a.devicePath)
        a.unplug()
        #expect(throws: (any Error).self) { try client.command("AT", timeout: 1) }
        #expect(!FileManager.default.fileExists(atPath: a.devicePath))
        let unplugged = try Gammu.run(try sim.gammurc(Self.a), ["identify"], timeout: 10)
        #expect(unplugged.status != 0)
        try a.replug()
        let after = try FileManager.default.destinationOfSymbolicLink(atPath: a.devicePath)
        #expect(after.hasPrefix("/dev/pts/"))
        _ = before
        let again = try Gammu.run(try sim.gammurc(Self.a), ["identify"])
        #expect(again.status == 0, "\(again.output)")
        #expect(again.output.contains("SMSGW-SIM"))
    }

    @Test("A wrong PIN is reported as +CME ERROR 16 and counts down; the right one unlocks")
    func wrongPIN() throws {
        let sim = try twoModems(pinB: "1234")
        defer { sim.close() }
        let status = try Gammu.run(try sim.gammurc(Self.b), ["getsecuritystatus"])
        #expect(status.output.contains("Waiting for PIN"), "\(status.output)")
        let wrong = try Gammu.run(try sim.gammurc(Self.b), ["entersecuritycode", "PIN", "0000"], debug: true)
        #expect(wrong.status != 0)
        #expect(wrong.output.contains("Security error"), "\(wrong.output)")
        #expect(wrong.debug.contains("+CME ERROR: 16"))
        let right = try Gammu.run(try sim.gammurc(Self.b), ["entersecuritycode", "PIN", "1234"])
        #expect(right.status == 0, "\(right.output)")
        let unlocked = try Gammu.run(try sim.gammurc(Self.b), ["getsecuritystatus"])
        #expect(unlocked.output.contains("Nothing to enter"), "\(unlocked.output)")
    }

    @Test("networkinfo and monitor 1 succeed")
    func networkInfoAndMonitor() throws {
        let sim = try twoModems()
        defer { sim.close() }
        let info = try Gammu.run(try sim.gammurc(Self.a), ["networkinfo"])
        #expect(info.status == 0, "\(info.output)")
        #expect(info.output.contains("home network"))
        #expect(info.output.contains("001 01"))
        let monitor = try Gammu.run(try sim.gammurc(Self.a), ["monitor", "1"])
        #expect(monitor.status == 0, "\(monitor.output)")
        #expect(monitor.output.contains("Signal strength"))
        #expect(monitor.output.contains("SIM SMS status"))
    }
}
