import Foundation
import Logging
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

@testable import Gateway

/// The daemon tries an SMS from a number no contact has with the keys of the most recently
/// active contacts only (``Operations/KeySearch/daemonLimit``), so that SMS from strangers cannot
/// each cost a try of every contact's keys.
@Suite("The daemon's key search for an SMS from a number no contact has")
struct KeySearchLimitTests {
    @Test("A contact beyond the limit is not tried: its SMS stays plain and the journal counts who was left out; within it, it opens")
    func aContactBeyondTheLimitIsNotTried() async throws {
        let rig = try await MemoryRig.make()
        var rng = SystemRandomNumberGenerator()
        // As many contacts as the limit, all heard more recently than bob.
        try rig.store.write { tx in
            for index in 0..<KeySearch.daemonLimit {
                let (mine, peer) = (PairingCode.generate(using: &rng), PairingCode.generate(using: &rng))
                let contact = try tx.addContact(name: "peer \(index)", number: nil, pairingCode: Data(mine.grouped.utf8))
                try tx.setPaired(contact, session: Data(try Session.paired(mine: mine, peer: peer).storedForm()))
                try tx.recordReceived(from: contact, at: Date())
            }
        }
        let lines = CapturingLogHandler.Lines()
        let logger = Logger(label: "smsgw.gateway.test") { _ in CapturingLogHandler(store: lines) }
        let silent = try rig.sealedByBob("new SIM after a long silence")
        rig.modem.deliver(rig.sms(silent, from: "+15559876"))
        await InboxReceiver(context: rig.context).scan(rig.link, logger: logger)
        let row = try #require(try rig.incoming(.plain).first)
        #expect(row.contactName == nil && row.remoteNumber == "+15559876" && row.text == silent)
        #expect(try rig.incoming(.decrypted).isEmpty)
        #expect(lines.all.contains { $0.hasPrefix("notice ") && $0.contains("were not tried") && $0.contains("\"smsgw.count\": 1") })

        // Once bob is the most recently active, his keys are tried first and open his next SMS.
        try rig.store.write { tx in try tx.recordReceived(from: tx.contact(named: "bob"), at: Date() + 60) }
        rig.modem.deliver(rig.sms(try rig.sealedByBob("heard again"), from: "+15559876"))
        await InboxReceiver(context: rig.context).scan(rig.link, logger: logger)
        let opened = try #require(try rig.incoming(.decrypted).first)
        #expect(opened.text == "heard again" && opened.contactName == "bob" && opened.remoteNumber == "+15559876")
        #expect(rig.modem.stored.isEmpty)
    }
}
