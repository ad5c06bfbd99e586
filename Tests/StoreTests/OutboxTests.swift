import Foundation
import TestSupport
import Testing

@testable import Store

@Suite("Message log, outbox, fingerprints and OTP entries")
struct OutboxTests {
    private func contacts(_ store: UnlockedStore, _ names: [String]) throws -> [Contact] {
        try names.enumerated().map { index, name in
            try store.addContact(name: name, number: TestStore.number("+4477009000\(10 + index)"), pairingCode: Data())
        }
    }

    @Test("The log returns the newest entries oldest first, filters by contact, follows by id", arguments: StoreBackendKind.allCases)
    func log(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let (alice, bob) = try {
            let c = try contacts(store, ["alice", "bob"])
            return (c[0], c[1])
        }()
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        var ids: [Int64] = []
        for i in 0..<6 {
            let entry = NewLogEntry(
                time: base + Double(i), direction: i % 2 == 0 ? .outgoing : .incoming,
                contact: i % 3 == 0 ? bob : alice, status: .decrypted, text: "m\(i)",
                ciphertext: "C\(i)", fingerprint: "f\(i)"
            )
            ids.append(try store.write { try $0.appendLog(entry) })
        }
        try store.write {
            try $0.appendLog(
                NewLogEntry(direction: .incoming, contact: nil, remoteNumber: "BANK", status: .plain, text: nil, error: "unknown sender"))
        }
        let newest = try store.log(limit: 3)
        #expect(newest.map(\.text) == ["m4", "m5", nil])
        #expect(newest.last?.remoteNumber == "BANK" && newest.last?.contactID == nil)
        #expect(newest.first?.contactName == "alice" && newest.first?.remoteNumber == alice.number?.e164)
        #expect(try store.log(contact: bob).map(\.text) == ["m0", "m3"])
        #expect(try store.log(afterId: ids[3]).map(\.text) == ["m4", "m5", nil])
        #expect(try store.log(limit: 2, afterId: ids[0]).map(\.text) == ["m1", "m2"])
        #expect(try store.log(limit: 0).isEmpty)

        try store.write { try $0.setLogStatus(ids[0], status: .rejected, error: "MAC check failed") }
        let entry = try store.read { try $0.logEntry(id: ids[0]) }
        #expect(entry.status == MessageStatus.rejected)
        #expect(entry.error == "MAC check failed" && entry.time == base)
    }

    @Test("Each logged message gets a random version-4 identifier of its own, which its text is sealed under")
    func logIdentifiers() throws {
        let (_, _, store) = try TestStore.unlockedStore()
        let alice = try contacts(store, ["alice"])[0]
        let ids = try store.write { tx in
            try (0..<200).map { _ in
                try tx.appendLog(NewLogEntry(direction: .outgoing, contact: alice, status: .queued, text: "hi"))
            }
        }
        let uuids = try store.gateway.pool.read { db in try String.fetchAll(db, sql: "SELECT uuid FROM messages") }
        #expect(Set(uuids).count == 200 && uuids.allSatisfy { UUID(uuidString: $0)?.storeString == $0 })
        #expect(uuids.allSatisfy { Array($0)[14] == "4" && "89ab".contains(Array($0)[19]) })
        #expect(try store.read { try $0.logEntry(id: ids[199]) }.text == "hi")
    }

    @Test(
        "Outbox rows go queued → submitting → sent → delivered, the log follows, bad moves are refused",
        arguments: StoreBackendKind.allCases)
    func stateTransitions(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let alice = try contacts(store, ["alice"])[0]
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (messageID, outboxID) = try store.write { tx in
            let id = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: alice, status: .queued, text: "hi"))
            return (id, try tx.enqueueOutbox("CIPHER", to: alice, messageID: id, now: now))
        }
        #expect(throws: StoreError.self) { try store.write { try $0.markOutboxDelivered(outboxID) } }

        let claimed = try store.write { try $0.claimNextOutbox(modem: "modem0", now: now) }
        #expect(claimed?.id == outboxID && claimed?.state == .submitting && claimed?.attempts == 1)
        #expect(claimed?.number == alice.number && claimed?.body == "CIPHER")
        #expect(try store.write { try $0.claimNextOutbox(modem: "modem1", now: now) } == nil)

        try store.write { try $0.markOutboxSent(outboxID, reference: 42, modem: "modem0", now: now + 1) }
        #expect(try store.read { try $0.logEntry(id: messageID) }.status == .sent)
        #expect(try store.contact(named: "alice").lastSentAt == now + 1)
        let byReference = try store.read { try $0.outboxItem(reference: 42, modem: "modem0") }
        #expect(byReference?.id == outboxID)

        try store.write { try $0.markOutboxDelivered(outboxID, now: now + 2) }
        let item = try store.read { try $0.outboxItem(id: outboxID) }
        #expect(item.state == .delivered && item.deliveredAt == now + 2 && item.messageReference == 42)
        #expect(try store.read { try $0.logEntry(id: messageID) }.status == .delivered)
        #expect(throws: StoreError.self) {
            try store.write { try $0.markOutboxFailed(outboxID, error: "x", permanent: true) }
        }
    }

    @Test(
        "Temporary failures retry after their time; permanent ones fail for good; interrupted rows requeue",
        arguments: StoreBackendKind.allCases)
    func failures(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let alice = try contacts(store, ["alice"])[0]
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (messageID, id) = try store.write { tx in
            let m = try tx.appendLog(NewLogEntry(direction: .outgoing, contact: alice, status: .queued, text: "x"))
            return (m, try tx.enqueueOutbox("C", to: alice, messageID: m, now: now))
        }
        _ = try store.write { try $0.claimNextOutbox(modem: "m", now: now) }
        try store.write {
            try $0.markOutboxFailed(id, error: "CMS 38: network out of order", permanent: false, retryAt: now + 60, now: now)
        }
        var item = try store.read { try $0.outboxItem(id: id) }
        #expect(item.state == .queued && item.lastError == "CMS 38: network out of order" && !item.lastErrorIsPermanent)
        #expect(try store.write { try $0.claimNextOutbox(modem: "m", now: now + 59) } == nil)
        #expect(try store.write { try $0.claimNextOutbox(modem: "m", now: now + 60) }?.attempts == 2)

        // A process killed mid-submission leaves the row submitting; the daemon requeues it on start.
        #expect(try store.write { try $0.requeueInterruptedOutbox(now: now + 61) } == 1)
        _ = try store.write { try $0.claimNextOutbox(modem: "m", now: now + 61) }
        try store.write { try $0.markOutboxFailed(id, error: "CMS 21: rejected", permanent: true, now: now + 62) }
        item = try store.read { try $0.outboxItem(id: id) }
        #expect(item.state == .failed && item.lastErrorIsPermanent && item.attempts == 3)
        #expect(try store.write { try $0.claimNextOutbox(modem: "m", now: now + 1000) } == nil)
        #expect(try store.read { try $0.logEntry(id: messageID) }.status == .failed)
        #expect(try store.read { try $0.outboxCounts() } == [.failed: 1])
    }

    @Test("Claims alternate fairly across contacts, and one contact's retry wait blocks nobody", arguments: StoreBackendKind.allCases)
    func fairness(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let people = try contacts(store, ["alice", "bob", "carol"])
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        try store.write { tx in
            // Alice queues a burst of five before Bob and Carol queue two each.
            for i in 0..<5 { try tx.enqueueOutbox("a\(i)", to: people[0], now: now) }
            for i in 0..<2 { try tx.enqueueOutbox("b\(i)", to: people[1], now: now) }
            for i in 0..<2 { try tx.enqueueOutbox("c\(i)", to: people[2], now: now) }
        }
        var order: [String] = []
        while let item = try store.write(.database, { try $0.claimNextOutbox(modem: "m", now: now) }) {
            order.append(item.body)
            try store.write { try $0.markOutboxSent(item.id, reference: order.count, modem: "m", now: now) }
        }
        #expect(order == ["a0", "b0", "c0", "a1", "b1", "c1", "a2", "a3", "a4"])

        // A row waiting for its retry time holds up neither other contacts nor its own later rows.
        let bad = try store.write { try $0.enqueueOutbox("bad", to: people[0], now: now) }
        #expect(try store.write { try $0.claimNextOutbox(modem: "m", now: now) }?.id == bad)
        try store.write { try $0.markOutboxFailed(bad, error: "timeout", permanent: false, retryAt: now + 3600, now: now) }
        try store.write { tx in
            try tx.enqueueOutbox("good", to: people[1], now: now)
            try tx.enqueueOutbox("later", to: people[0], now: now)
        }
        let next = try (0..<3).map { _ in try store.write { try $0.claimNextOutbox(modem: "m", now: now + 1) }?.body }
        #expect(next == ["good", "later", nil])
        #expect(try store.write { try $0.claimNextOutbox(modem: "m", now: now + 3600) }?.body == "bad")
    }

    @Test("A contact without a number cannot be queued to", arguments: StoreBackendKind.allCases)
    func noNumber(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let peer = try store.addContact(name: "peer", number: nil, pairingCode: Data())
        #expect(throws: StoreError.self) { try store.write { try $0.enqueueOutbox("C", to: peer) } }
    }

    @Test("A PDU fingerprint is recorded once: the same SMS read twice is processed once", arguments: StoreBackendKind.allCases)
    func fingerprints(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let old = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try store.write { try $0.recordReceivedFingerprint("sha256:abc", at: old) } == true)
        #expect(try store.write { try $0.recordReceivedFingerprint("sha256:abc") } == false)
        #expect(try store.write { try $0.recordReceivedFingerprint("sha256:def") } == true)
        #expect(try store.read { try $0.hasReceivedFingerprint("sha256:abc") })
        // A rolled-back transaction records nothing.
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try store.write { tx in
                _ = try tx.recordReceivedFingerprint("sha256:ghi")
                throw Abort()
            }
        }
        #expect(try store.read { try $0.hasReceivedFingerprint("sha256:ghi") } == false)
        #expect(try store.write { try $0.pruneReceivedFingerprints(olderThan: old + 1) } == 1)
        #expect(try store.write { try $0.recordReceivedFingerprint("sha256:abc") } == true)
    }

    @Test("OTP entries: add, list, get, update, remove; names unique without regard to case", arguments: StoreBackendKind.allCases)
    func otpEntries(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let bank = try store.addOTPEntry(name: "Bank", secret: Data("s1".utf8))
        #expect(bank.state == nil && !bank.description.contains("s1"))
        try store.addOTPEntry(name: "mail", secret: Data("s2".utf8), state: Data("step=1".utf8))
        #expect(throws: StoreError.self) { try store.addOTPEntry(name: "BANK", secret: Data()) }
        #expect(try store.otpEntries().map(\.name) == ["Bank", "mail"])

        let updated = try store.updateOTPEntry(named: "bank", state: Data("step=7".utf8))
        #expect(updated.secret == Data("s1".utf8) && updated.state == Data("step=7".utf8))
        #expect(try store.otpEntry(named: "BANK").state == Data("step=7".utf8))
        try store.removeOTPEntry(named: "bank")
        #expect(throws: StoreError.self) { _ = try store.otpEntry(named: "bank") }
        #expect(try store.otpEntries().count == 1)
    }

    @Test("The texts' submit delays read as a histogram's buckets, count and sum", arguments: StoreBackendKind.allCases)
    func submitDelays(_ backend: StoreBackendKind) throws {
        let (_, _, store) = try unlockedStore(on: backend)
        let bob = try contacts(store, ["bob"])[0]
        try store.write { tx in
            let sent = try tx.enqueueOutbox("sent", to: bob)
            _ = try tx.enqueueOutbox("waiting", to: bob)
            try tx.db.execute(sql: "UPDATE outbox SET sent_at = created_at + 0.25 WHERE id = ?", arguments: [sent])
        }
        let delays = try store.read { try $0.submitDelays(bounds: [0.1, 0.5, 1]) }
        #expect(delays.atMost == [0, 1, 1] && delays.count == 1 && abs(delays.sum - 0.25) < 0.001, "\(delays)")
    }
}
