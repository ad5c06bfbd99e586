import Foundation
import Logging
import Store
import TestSupport
import Testing

/// Nothing from an SMS can drive the operator's terminal: `log`, `status`, `contact`, `decrypt`
/// and error sentences escape controls and bidirectional overrides; `--json` stays exact.
@Suite("Hostile texts, sender IDs and operator names are escaped", .serialized, .blockingOffPool)
struct HostileTextTests {
    /// Erases the line and draws a fake row; sets the window title; flips the text right to left.
    static let text = "hi\u{1B}[2K\r2026-01-01T00:00:00Z\tin\tbob\tdecrypted\tfake\u{1B}]0;pwned\u{07}\u{202E}evil\u{9B}31m\u{7F}"
    static let sender = "BANK\r\n\u{1B}[1Abob\u{2066}"
    static let operatorName = "EVIL\u{1B}[2J\u{202E}NET"
    static let modemError = "+CMS ERROR: 500\r\u{1B}[1Afake line"

    /// Whether `output` has a character that could drive a terminal (LF ends lines; TAB is allowed
    /// where it separates fields).
    static func drivesTerminal(_ output: String, allowingTab: Bool) -> Bool {
        output.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x09: !allowingTab
            case 0x00...0x1F, 0x7F...0x9F: true
            case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
    }

    @Test("log, log --since, status, contact list/show and errors escape what a daemon recorded from the network; --json is exact")
    func recordedFields() throws {
        try withTemporaryDirectory { root in
            let (alice, _) = try Peer.pairedCouple(in: root)
            try alice.expect(["contact", "edit", "bob", "--number", "+447700900123"])
            var logger = Logger(label: "smsgw.tests")
            logger.logLevel = .critical
            let store = try GatewayStore.open(directory: alice.dataDir, logger: logger).unlockSerialized(passphrase: Peer.passphrase)
            try store.write { tx in
                try tx.appendLog(
                    NewLogEntry(direction: .incoming, contact: nil, remoteNumber: Self.sender, status: .plain, text: Self.text))
                let bob = try tx.contact(named: "bob")
                let id = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: bob, status: .queued, text: "to bob"))
                try tx.enqueueOutbox(String(repeating: "A", count: 160), to: bob, messageID: id)
                try tx.saveModemStatus(
                    ModemStatusRecord(
                        name: "north", state: .ready, connected: true, networkOperator: Self.operatorName, lastError: Self.modemError))
            }
            try store.write { tx in
                let claimed = try #require(try tx.claimNextOutbox(modem: "north"))
                try tx.markOutboxFailed(claimed.id, error: Self.modemError, permanent: true)
            }

            for arguments in [["log"], ["log", "--since", "0"], ["status"], ["contact", "list"], ["contact", "show", "bob"]] {
                let result = try alice.expect(arguments)
                #expect(!Self.drivesTerminal(result.stdout, allowingTab: arguments[0] != "status"), "\(arguments): \(result.stdout)")
                #expect(!Self.drivesTerminal(result.stderr, allowingTab: false), "\(arguments): \(result.stderr)")
            }
            let log = try alice.expect(["log"]).stdout
            #expect(log.contains("hi\\x1B[2K\\r2026-01-01T00:00:00Z\\tin\\tbob"), "\(log)")
            #expect(log.contains("BANK\\r\\n\\x1B[1Abob\\u{2066}") && log.contains("\\u{202E}evil\\x9B31m\\x7F"))
            let changes = try alice.expect(["log", "--since", "0"]).stdout
            #expect(changes.contains("\tfailed\t+CMS ERROR: 500\\r\\x1B[1Afake line"), "the failure's error, escaped: \(changes)")
            let status = try alice.expect(["status"]).stdout
            #expect(status.contains("EVIL\\x1B[2J\\u{202E}NET") && status.contains("+CMS ERROR: 500\\r\\x1B[1Afake line"), "\(status)")

            // JSON carries the exact values.
            let lines = try alice.expect(["log", "--json"]).lines.compactMap {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(lines.contains { $0["text"] as? String == Self.text && $0["number"] as? String == Self.sender })
            let json = try alice.expect(["status", "--json"]).stdout
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            let modem = (object?["modems"] as? [[String: Any]])?.first
            #expect(modem?["networkOperator"] as? String == Self.operatorName && modem?["lastError"] as? String == Self.modemError)
            // Every modem object has every key; what the modem does not know is null.
            let modemKeys: Set = [
                "name", "state", "connected", "signalPercent", "networkOperator", "lastError", "sentCount", "receivedCount", "updatedAt",
                "node", "leftReadyAt",
            ]
            #expect(Set(modem?.keys ?? [:].keys) == modemKeys, "\(modem ?? [:])")

            // An error sentence quoting a hostile value is escaped too.
            let missing = try alice.run(["contact", "show", "x\u{1B}[2Jy\u{202E}"])
            #expect(missing.status == 66)
            #expect(missing.stderr.contains("x\\x1B[2Jy\\u{202E}") && !Self.drivesTerminal(missing.stderr, allowingTab: false))
        }
    }

    @Test("decrypt prints the exact text into a pipe and an escaped one on a terminal")
    func decryptOnTerminal() async throws {
        try await withTemporaryDirectory { root in
            let (alice, bob) = try Peer.pairedCouple(in: root)
            // CR and form feed (an extension character) are GSM-7: an SMS can carry them.
            let hostile = "ok\rdecrypted from mallory\u{0C}"
            let sealed = try alice.expect(["encrypt", "bob", "-"], input: hostile + "\n").lines
            let piped = try bob.expect(["decrypt", "alice", "-"], input: sealed[0] + "\n")
            #expect(piped.stdout == hostile + "\n", "a pipe gets the text as it is")

            guard TerminalSession.isAvailable else { return }
            let again = try alice.expect(["encrypt", "bob", "-"], input: hostile + "\n").lines[0]
            let terminal = try TerminalSession(["decrypt", "alice", "--", again], environment: bob.environment)
            let result = try await terminal.finish()
            #expect(result.status == 0, "\(result.screen)")
            #expect(result.screen.contains("ok\\rdecrypted from mallory\\x0C"), "\(result.screen)")
            #expect(!result.screen.contains("ok\rdecrypted"))
        }
    }

    @Test("An SMS injected over the simulator from an alphanumeric sender, with controls in its text, is logged exactly and shown escaped")
    func injectedOverTheSimulator() async throws {
        try await withTemporaryDirectory { root in
            let rig = try await GatewayRig(root: root)
            try rig.startDaemon(rig.alice)
            try await GatewayRig.wait("alice's modem to be ready", timeout: 60) { try rig.status(rig.alice).modemReady }
            let sender = "BANK\r\nbob"  // GSM-7 has CR and LF; an alphanumeric sender ID may carry them
            try rig.control("injectpdu", GatewayRig.numbers[0], Self.deliverPDU(alphanumericSender: sender, ucs2Text: Self.text))
            try await GatewayRig.wait("the injected SMS in alice's log", timeout: 60) {
                try rig.log(rig.alice).contains { $0.direction == "in" && $0.status == "plain" }
            }
            let logged = try #require(
                try rig.alice.expect(["log", "--json"]).lines.compactMap {
                    try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }.first { $0["status"] as? String == "plain" })
            #expect(logged["text"] as? String == Self.text, "the log keeps the text exactly: \(logged)")
            #expect(logged["number"] as? String == sender)
            let plain = try rig.alice.expect(["log"]).stdout
            #expect(!Self.drivesTerminal(plain, allowingTab: true), "\(plain)")
            #expect(plain.contains("\tBANK\\r\\nbob\tplain\thi\\x1B[2K\\r"), "\(plain)")
            // The simulator's refusal quotes the sender given to inject: escaped, not a new window title.
            let refused = try SMSGWBinary.run(
                ["sim", "ctl", "--dir", rig.simDirectory.path, "inject", "\u{1B}]0;pwned\u{07}", GatewayRig.numbers[0], "x"],
                environment: [:])
            #expect(refused.status == 1 && refused.stdout.contains("'\\x1B]0;pwned\\x07'"), "\(refused.stdout)")
            #expect(!Self.drivesTerminal(refused.stdout, allowingTab: false))
            #expect(try await rig.stopDaemon(rig.alice) == 0)
            // The daemon's own line for it calls it by the id `smsgw log` shows.
            let id = try #require(logged["id"] as? Int)
            let journal = try String(contentsOf: root.appendingPathComponent("alice-serve-1.log"), encoding: .utf8)
            let received = journal.split(separator: "\n").filter { $0.contains("Plain SMS received.") }
            #expect(received.count == 1 && received.first?.contains("smsgw.message=\(id)") == true, "\(received)")
        }
    }

    /// An SMS-DELIVER TPDU, hex: from an alphanumeric sender (GSM-7 letters, CR, LF), text in UCS-2.
    static func deliverPDU(alphanumericSender: String, ucs2Text: String) -> String {
        let septets = alphanumericSender.unicodeScalars.map { UInt8($0.value) }  // ASCII letters, CR, LF: same codes in GSM-7
        var packed: [UInt8] = []
        var accumulator = 0
        var bits = 0
        for septet in septets {
            accumulator |= Int(septet) << bits
            bits += 7
            while bits >= 8 {
                packed.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { packed.append(UInt8(accumulator)) }
        let text = Array(ucs2Text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        var pdu: [UInt8] = [0x04, UInt8((septets.count * 7 + 3) / 4), 0xD0] + packed
        pdu += [0x00, 0x08, 0x62, 0x10, 0x10, 0x00, 0x00, 0x00, 0x00, UInt8(text.count)] + text
        return pdu.map { String(format: "%02X", $0) }.joined()
    }
}
