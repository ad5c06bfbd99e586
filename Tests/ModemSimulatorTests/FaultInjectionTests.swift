import Foundation
import TestSupport
import Testing

@testable import ModemSimulator

/// Faults, notifications, the control socket and the traffic log, driven by a bare AT client
/// (fast: no gammu start-up).
@Suite("Faults and control", .blockingOffPool)
struct FaultInjectionTests {
    static let a = "+15550001"
    static let b = "+15550002"

    private func network(seed: UInt64 = 7, capacity: Int = 30) throws -> SimulatorRig {
        try SimulatorRig.started(seed: seed) { network in
            try network.addModem(number: Self.a, storageCapacity: capacity)
            try network.addModem(number: Self.b, pin: nil, storageCapacity: capacity)
        }
    }

    @Test("An SMS to B raises +CMTI on B's port; AT+CMGR then shows its PDU")
    func notification() throws {
        let sim = try network()
        defer { sim.close() }
        let a = try ATClient(path: try sim.modem(Self.a).devicePath)
        let b = try ATClient(path: try sim.modem(Self.b).devicePath)
        #expect(try b.command("ATE0")?.contains("OK") == true)
        let answer = try a.send(try .text("ping", to: "0015550002"))
        #expect(answer?.contains("+CMGS: 1") == true, "\(answer ?? "nil")")
        let urc = try b.read(until: ["+CMTI: \"SM\",1\r\n"])
        #expect(urc != nil)
        let read = try #require(try b.command("AT+CMGR=1"))
        #expect(read.contains("+CMGR: 0,,"))
        #expect(try sim.modem(Self.b).storedTexts == ["ping"])
        #expect(try b.command("AT+CMGR=1")?.contains("+CMGR: 1,,") == true)
        #expect(try b.command("AT+CMGR=2")?.contains("+CMS ERROR: 321") == true)
    }

    @Test("AT+CNMI mt=2 routes SMS straight to the port as +CMT without storing")
    func directRouting() throws {
        let sim = try network()
        defer { sim.close() }
        let b = try ATClient(path: try sim.modem(Self.b).devicePath)
        #expect(try b.command("AT+CNMI=2,2,0,1,0")?.contains("OK") == true)
        try sim.network.inject(text: "direct", from: Self.a, to: Self.b)
        let urc = try #require(try b.read(until: ["+CMT: ,"]))
        _ = urc
        let lengthLine = try #require(try b.read(until: ["\r\n"]))
        let pduLine = try #require(try b.read(until: ["\r\n"]))
        let hex = pduLine.trimmingCharacters(in: .whitespacesAndNewlines)
        guard case .deliver(let deliver)? = try? SMSPDU.decode(hex: hex, direction: .mobileTerminated).tpdu else {
            Issue.record("no PDU after +CMT: \(lengthLine) \(pduLine)")
            return
        }
        #expect(deliver.userData.text == "direct")
        #expect(try sim.modem(Self.b).storedMessageCount == 0)
    }

    @Test("A modem without notifications refuses AT+CNMI and stays silent, so clients must poll")
    func withoutNotifications() throws {
        let sim = try SimulatorRig.started { network in
            try network.addModem(number: Self.a)
            try network.addModem(number: Self.b, notifications: false)
        }
        defer { sim.close() }
        let b = try ATClient(path: try sim.modem(Self.b).devicePath)
        #expect(try b.command("AT+CNMI=2,1,0,2,0")?.contains("ERROR") == true)
        try sim.network.inject(text: "quiet", from: Self.a, to: Self.b)
        #expect(try b.read(until: ["+CMTI"], timeout: 0.5) == nil)
        #expect(try b.command("AT+CMGL=4")?.contains("+CMGL: 1,0,,") == true)
    }

    @Test("Text mode: AT+CMGS with a number sends, AT+CMGL=\"ALL\" lists text and status reports")
    func textMode() throws {
        let sim = try network()
        defer { sim.close() }
        let a = try ATClient(path: try sim.modem(Self.a).devicePath)
        let b = try ATClient(path: try sim.modem(Self.b).devicePath)
        for client in [a, b] {
            #expect(try client.command("ATE0")?.contains("OK") == true)
            #expect(try client.command("AT+CMGF=1")?.contains("OK") == true)
        }
        #expect(try a.command("AT+CSMP=49,167,0,0")?.contains("OK") == true)
        a.write("AT+CMGS=\"\(Self.b)\"\r")
        #expect(try a.read(until: ["> "]) != nil)
        a.write("Plain {text} mode\u{1A}")
        #expect(try a.readFinal()?.contains("+CMGS: 1") == true)
        let bModem = try sim.modem(Self.b)
        #expect(bModem.waitUntil(timeout: 2) { bModem.deliveredCount == 1 })
        let list = try #require(try b.command("AT+CMGL=\"ALL\""))
        #expect(list.contains("+CMGL: 1,\"REC UNREAD\",\"\(Self.a)\""), "\(list)")
        #expect(list.contains("Plain {text} mode"))
        let aModem = try sim.modem(Self.a)
        #expect(aModem.waitUntil(timeout: 2) { aModem.storedReports.count == 1 })
        let reports = try #require(try a.command("AT+CMGR=1"))
        #expect(reports.contains("+CMGR: \"REC UNREAD\",6,1,\"\(Self.b)\",145,"), "\(reports)")
    }

    @Test("drop 1 loses every SMS silently")
    func drop() throws {
        let sim = try network()
        defer { sim.close() }
        #expect(sim.network.handleControl("drop 1") == "OK")
        let a = try ATClient(path: try sim.modem(Self.a).devicePath)
        #expect(try a.send(try .text("lost", to: Self.b, report: true))?.contains("+CMGS:") == true)
        usleep(300_000)
        #expect(try sim.modem(Self.b).deliveredCount == 0)
        #expect(try sim.modem(Self.a).storedMessageCount == 0)
        let log = try String(contentsOfFile: sim.network.trafficLogPath, encoding: .utf8)
        #expect(log.contains("\"event\":\"dropped\""))
    }

    @Test("duplicate 1 on the recipient delivers every SMS twice, with one status report")
    func duplicate() throws {
        let sim = try network()
        defer { sim.close() }
        try sim.modem(Self.b).faults = FaultPlan(duplicateRate: 1)
        let a = try ATClient(path: try sim.modem(Self.a).devicePath)
        _ = try a.send(try .text("twice", to: Self.b, report: true))
        let b = try sim.modem(Self.b)
        #expect(b.waitUntil(timeout: 3) { b.deliveredCount == 2 })
        #expect(b.storedTexts == ["twice", "twice"])
        let aModem = try sim.modem(Self.a)
        #expect(aModem.waitUntil(timeout: 3) { aModem.storedReports.count == 1 })
    }

    @Test("A delay range holds SMS back and reorders them")
    func delayAndReorder() throws {
        let sim = try network(seed: 99)
        defer { sim.close() }
        sim.network.faults = FaultPlan(delay: 0.2...0.8)
        let a = try ATClient(path: try sim.modem(Self.a).devicePath)
        let sent = (0..<6).map { "m\($0)" }
        // The SMSC routes the six only once all are accepted, so the drawn delays alone order
        // them, however long each AT+CMGS takes.
        sim.network.routingQueue.suspend()
        do {
            defer { sim.network.routingQueue.resume() }
            for text in sent { _ = try a.send(try .text(text, to: Self.b)) }
        }
        let b = try sim.modem(Self.b)
        #expect(b.waitUntil(timeout: 30) { b.deliveredCount == 6 })
        // Each arrives once and whole; a later one overtaking an earlier one shows the earlier held back.
        #expect(b.storedTexts.sorted() == sent, "\(b.storedTexts)")
        #expect(b.storedTexts != sent, "the delays should reorder: \(b.storedTexts)")
    }

    @Test("corrupt 1 changes exactly one character")
    func corrupt() throws {
        let sim = try network()
        defer { sim.close() }
        #expect(sim.network.handleControl("corrupt 1 \(Self.a)") == "OK")
        let a = try ATClient(path: try sim.modem(Self.a).devicePath)
        let sent = "The quick brown fox € jumps"
        _ = try a.send(try .text(sent, to: Self.b))
        let b = try sim.modem(Self.b)
        #expect(b.waitUntil(timeout: 3) { b.deliveredCount == 1 })
        let got = try #require(b.storedTexts.first)
        #expect(got.count == sent.count)
        #expect(zip(got, sent).filter { $0 != $1 }.count == 1, "\(got)")
    }

    @Test("senderror answers AT+CMGS with the CMS code and sends nothing")
    func sendError() throws {
        let sim = try network()
        defer { sim.close() }
        #expect(sim.network.handleControl("senderror 500 1") == "OK")
        let a = try ATClient(path: try sim.modem(Self.a).devicePath)
        #expect(try a.send(try .text("x", to: Self.b))?.contains("+CMS ERROR: 500") == true)
        #expect(sim.network.handleControl("senderror off") == "OK")
        #expect(try a.send(try .text("x", to: Self.b))?.contains("+CMGS: 2") == true)
        #expect(try sim.modem(Self.a).submittedCount == 1)
    }

    @Test("An SMS to an unknown number is accepted, then reported as not obtainable (TP-ST 0x44)")
    func unknownNumber() throws {
        let sim = try network()
        defer { sim.close() }
        let a = try ATClient(path: try sim.modem(Self.a).devicePath)
        #expect(try a.send(try .text("anyone?", to: "+19999999", report: true))?.contains("+CMGS: 1") == true)
        let modem = try sim.modem(Self.a)
        #expect(modem.waitUntil(timeout: 3) { modem.storedReports.count == 1 })
        let report = try #require(modem.storedReports.first)
        #expect(report.status == SMSStatusReport.Status.notObtainable)
        #expect(report.messageReference == 1)
        #expect(report.isPermanentFailure)
    }

    @Test("Radio off keeps SMS at the SMSC and refuses sending; radio on delivers them")
    func radio() throws {
        let sim = try network()
        defer { sim.close() }
        let client = try ATClient(path: try sim.modem(Self.b).devicePath)
        #expect(try client.command("AT+CFUN=0")?.contains("OK") == true)
        try sim.network.inject(text: "wait for me", from: Self.a, to: Self.b)
        let b = try sim.modem(Self.b)
        #expect(b.waitUntil(timeout: 2) { sim.network.pendingCount(for: b) == 1 })
        #expect(try client.send(try .text("x", to: Self.a))?.contains("+CMS ERROR: 331") == true)
        #expect(try client.command("AT+CSQ")?.contains("+CSQ: 99,99") == true)
        #expect(try client.command("AT+CFUN=1")?.contains("OK") == true)
        #expect(b.waitUntil(timeout: 2) { b.storedTexts == ["wait for me"] })
    }

    @Test("Three wrong PINs lock the SIM (SIM PUK); SMS commands need the PIN")
    func pinCountdown() throws {
        let sim = try SimulatorRig.started { try $0.addModem(number: Self.a, pin: "4321") }
        defer { sim.close() }
        let client = try ATClient(path: try sim.modem(Self.a).devicePath)
        _ = try client.command("AT+CMEE=1")
        #expect(try client.command("AT+CPIN?")?.contains("+CPIN: SIM PIN") == true)
        #expect(try client.command("AT+CMGL=4")?.contains("+CMS ERROR: 311") == true)
        for _ in 0..<3 {
            #expect(try client.command("AT+CPIN=\"0000\"")?.contains("+CME ERROR: 16") == true)
        }
        #expect(try client.command("AT+CPIN?")?.contains("+CPIN: SIM PUK") == true)
        #expect(try client.command("AT+CPIN=\"4321\"")?.contains("+CME ERROR: 12") == true)
    }

    @Test("The control socket answers status as JSON and drives hang, inject, unplug and replug")
    func controlSocket() throws {
        let sim = try network()
        defer { sim.close() }
        let socket = sim.network.controlSocketPath
        let status = try ControlClient.send("status", socketPath: socket)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any])
        #expect((json["modems"] as? [[String: Any]])?.count == 2)
        #expect(try ControlClient.send("bogus", socketPath: socket).hasPrefix("ERROR"))
        #expect(try ControlClient.send("drop 2", socketPath: socket).hasPrefix("ERROR"))
        #expect(try ControlClient.send("drop 0.25 \(Self.b)", socketPath: socket) == "OK")
        #expect(try sim.modem(Self.b).faults.dropRate == 0.25)
        #expect(try ControlClient.send("delay 0.1 0.2", socketPath: socket) == "OK")
        #expect(sim.network.faults.delay == 0.1...0.2)
        #expect(try ControlClient.send("clear", socketPath: socket) == "OK")
        #expect(try ControlClient.send("clear \(Self.b)", socketPath: socket) == "OK")

        let client = try ATClient(path: try sim.modem(Self.a).devicePath)
        #expect(try ControlClient.send("hang \(Self.a) on", socketPath: socket) == "OK")
        #expect(try client.command("AT", timeout: 0.5) == nil)
        #expect(try ControlClient.send("hang \(Self.a) off", socketPath: socket) == "OK")
        #expect(try client.command("AT")?.contains("OK") == true)

        #expect(try ControlClient.send("inject +4917012345 \(Self.b) hello  there", socketPath: socket) == "OK")
        let b = try sim.modem(Self.b)
        #expect(b.waitUntil(timeout: 2) { b.storedTexts == ["hello  there"] })

        #expect(try ControlClient.send("unplug \(Self.a)", socketPath: socket) == "OK")
        #expect(!FileManager.default.fileExists(atPath: try sim.modem(Self.a).devicePath))
        #expect(try ControlClient.send("replug \(Self.a)", socketPath: socket) == "OK")
        let again = try ATClient(path: try sim.modem(Self.a).devicePath)
        #expect(try again.command("AT")?.contains("OK") == true)
    }

    @Test("Raw PDU injection stores the SMS-DELIVER as given")
    func injectPDU() throws {
        let sim = try network()
        defer { sim.close() }
        let hex = "07911326040000F0040B911346610089F60000208062917314800CC8F71D14969741F977FD07"
        #expect(sim.network.handleControl("injectpdu \(Self.b) \(hex)") == "OK")
        let b = try sim.modem(Self.b)
        #expect(b.waitUntil(timeout: 2) { b.storedTexts == ["How are you?"] })
        #expect(Hex.encode(try #require(b.storedPDUs.first).pdu) == hex)
    }

    @Test("Every PDU is one JSON line in the traffic log")
    func trafficLog() throws {
        let sim = try network()
        defer { sim.close() }
        let a = try ATClient(path: try sim.modem(Self.a).devicePath)
        _ = try a.send(try .text("logged", to: Self.b, report: true))
        let modem = try sim.modem(Self.a)
        #expect(modem.waitUntil(timeout: 2) { modem.storedReports.count == 1 })
        usleep(100_000)
        let lines = try String(contentsOfFile: sim.network.trafficLogPath, encoding: .utf8)
            .split(separator: "\n")
        #expect(lines.count == 3)
        let records = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(records.map { $0["direction"] as? String } == ["submit", "deliver", "status-report"])
        for record in records {
            for key in ["time", "from", "to", "direction", "pdu", "event"] { #expect(record[key] != nil, "\(key)") }
        }
        #expect(records[0]["from"] as? String == Self.a)
        #expect(records[1]["to"] as? String == Self.b)
    }
}
