import Foundation
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

/// A contact whose keys a restore put back to a backup's (``Store/Contact/keysRestoredAt``): shown
/// as needing a resync for that reason, not as failed verifications; kept so when a message opens;
/// cleared by every way a resync completes; and its failed messages not retried meanwhile.
@Suite("Keys restored from a backup")
struct RestoredKeysTests {
    @Test("A restore marks the contact with the time, not with failures, and a message that opens keeps the mark")
    func restoreMarksTheContact() throws {
        let restored = try RestoredCouple()
        let bob = try Contacts.contact(named: "bob", store: restored.alice)
        #expect(bob.sync.state == .failing && bob.sync.consecutiveFailures == 0, "\(bob.sync)")
        #expect(bob.sync.keysRestoredAt == restored.time && bob.sync.advice == .resyncAfterRestore(restoredAt: restored.time))
        let sentence = try #require(bob.sync.advice?.sentence)
        #expect(sentence.contains("restored from a backup") && !sentence.contains("failed verification"), "\(sentence)")

        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.queue("after the restore", to: "alice", store: restored.couple.bob, now: Date(), using: &rng)
        let body = try restored.couple.bob.read { try $0.outboxItem(id: queued.outboxID) }.body
        _ = try Messages.decrypt(body, from: "bob", store: restored.alice, now: Date(), using: &rng)
        let after = try Contacts.contact(named: "bob", store: restored.alice).sync
        #expect(after.state == .failing && after.keysRestoredAt == restored.time, "a message that opened cleared the mark: \(after)")

        // Completed from this side: the mark goes, and the held message may be sent again
        // (with advice to send it as a new message instead).
        let started = try Resync.start(with: "bob", store: restored.alice, now: Date(), using: &rng)
        #expect(try Contacts.contact(named: "bob", store: restored.alice).sync.keysRestoredAt == restored.time)
        let handshake = try restored.alice.read { try $0.outboxItem(id: started.outboxID) }.body
        _ = try Messages.decrypt(handshake, from: "alice", store: restored.couple.bob, now: Date(), using: &rng)
        let accepted = try Resync.accept(from: "alice", store: restored.couple.bob, now: Date(), using: &rng)
        _ = try Messages.decrypt(accepted.answer, from: "bob", store: restored.alice, now: Date(), using: &rng)
        let done = try Contacts.contact(named: "bob", store: restored.alice).sync
        #expect(done.state == .ok && done.keysRestoredAt == nil && done.advice == nil, "\(done)")
        // Not the sentence of a permanent failure: the text is better sent again as a new message.
        let outlook = try RetryOutlook.of([restored.held], store: restored.alice)[restored.held]
        #expect(outlook == .heldByRestore && outlook?.sentence?.contains("as a new message") == true)
        #expect(try Messages.retry(restored.held, by: .commandLine, store: restored.alice, now: Date()) == 1)
    }

    /// A backup written while the daemon ran holds its node as running: restored, that run
    /// showed as killed here ("stopped without a clean shutdown") or as up until its lease ended.
    @Test("A node the backup caught running is stopped at its last heartbeat, not shown as killed or up")
    func aRunCaughtByTheBackupIsStopped() throws {
        let restored = try RestoredCouple(before: { couple in
            try couple.alice.write { try $0.startNode(GatewayNode(name: "field"), now: Date()) }
        })
        let node = try #require(try restored.alice.read { try $0.nodes() }.first { $0.name == "field" })
        #expect(node.stoppedAt != nil && node.stoppedAt == node.heartbeatAt, "\(node)")
        let status = try GatewayStatus.read(
            from: restored.alice, now: Date(),
            ended: GatewayStatus.EndedRuns(place: Daemon.place(of: restored.couple.aliceDirectory.url), holder: nil))
        let shown = try #require(status.nodes.first { $0.name == "field" })
        #expect(shown.state == .stopped && !shown.stoppedUncleanly, "\(shown)")
    }

    @Test("A held message is not retried while the contact's keys are restored; nothing is queued")
    func retryRefusedUntilTheResync() throws {
        let restored = try RestoredCouple()
        let error = #expect(throws: MessageError.keysRestored(id: restored.held, contact: "bob")) {
            try Messages.retry(restored.held, by: .commandLine, store: restored.alice, now: Date())
        }
        #expect(error?.category == .conflict && error?.description.contains("smsgw") == false)
        #expect(try restored.alice.read { try $0.logEntry(id: restored.held) }.status == .failed)
        #expect(try Audit.list(in: restored.alice).isEmpty)
    }

    @Test("A text is neither queued nor encrypted while the contact's keys are restored; the resync handshake goes")
    func textRefusedUntilTheResync() throws {
        let restored = try RestoredCouple()
        var rng = SystemRandomNumberGenerator()
        let before = try restored.alice.read { try $0.session(for: $0.contact(named: "bob")) }
        let refusal = MessageError.keysRestoredBeforeText(contact: "bob")
        let error = #expect(throws: refusal) {
            try Messages.queue("after the restore", to: "bob", store: restored.alice, now: Date(), using: &rng)
        }
        #expect(error?.category == .conflict && error?.description.contains("smsgw") == false)
        #expect(throws: refusal) { try Messages.encrypt("by hand", for: "bob", store: restored.alice, now: Date(), using: &rng) }
        #expect(try restored.alice.read { try $0.session(for: $0.contact(named: "bob")) } == before, "a key step was spent")
        let log = try MessageLog.recent(contact: "bob", limit: 10, store: restored.alice).messages
        #expect(!log.contains { $0.text == "after the restore" || $0.text == "by hand" })

        let started = try Resync.start(with: "bob", store: restored.alice, now: Date(), using: &rng)
        #expect(try restored.alice.read { try $0.outboxItem(id: started.outboxID) }.body.count == ProtocolConstants.wireLength)
        #expect(throws: refusal) { try Messages.queue("during the resync", to: "bob", store: restored.alice, now: Date(), using: &rng) }
    }

    @Test("A resync pending in the backup is restarted, so the contact's repeat answer cannot complete it with used keys")
    func pendingResyncRestarted() throws {
        var rng = SystemRandomNumberGenerator()
        var first: (code: String, body: String, outboxID: Int64)?
        let restored = try RestoredCouple { couple in
            let started = try Resync.start(with: "bob", store: couple.alice, now: Date(), using: &rng)
            first = (started.code, try couple.alice.read { try $0.outboxItem(id: started.outboxID) }.body, started.outboxID)
        }
        let old = try #require(first)
        // Its held row says what it was, not to send a text again.
        let held = try restored.alice.read { try $0.outboxItem(id: old.outboxID) }
        #expect(held.state == .failed && held.lastError?.contains("a resync handshake that came back") == true, "\(held)")
        // After the backup, bob accepted that handshake (and the replaced store completed it).
        _ = try Messages.decrypt(old.body, from: "alice", store: restored.couple.bob, now: Date(), using: &rng)
        _ = try Resync.accept(from: "alice", store: restored.couple.bob, now: Date(), using: &rng)

        let waiting = try Contacts.contact(named: "bob", store: restored.alice).sync
        #expect(waiting.state == .failing && waiting.advice == .resyncAfterRestore(restoredAt: restored.time), "\(waiting)")
        let log = try MessageLog.recent(contact: "bob", limit: 10, store: restored.alice).messages
        #expect(log.contains { $0.text?.contains("(code \(old.code)) abandoned by the restore") == true })

        let again = try Resync.start(with: "bob", store: restored.alice, now: Date(), using: &rng)
        let body = try restored.alice.read { try $0.outboxItem(id: again.outboxID) }.body
        #expect(again.code != old.code && body != old.body, "the backup's handshake was sent again")
        let received = try Messages.decrypt(body, from: "alice", store: restored.couple.bob, now: Date(), using: &rng)
        guard case .resync(let request) = received.content else { throw MessageError.nothingToDecrypt }
        #expect(request.outcome == .requested && request.requestCode == again.code, "\(request)")
        let accepted = try Resync.accept(from: "alice", store: restored.couple.bob, now: Date(), using: &rng)
        _ = try Messages.decrypt(accepted.answer, from: "bob", store: restored.alice, now: Date(), using: &rng)
        let bob = try Contacts.contact(named: "bob", store: restored.alice)
        #expect(bob.epoch == 2 && bob.sync.state == .ok && bob.sync.keysRestoredAt == nil, "\(bob.sync)")
    }

    @Test("A resync the replaced store completed after the backup: the restored side's next one is above its epoch")
    func resyncAfterTheBackupCarriedForward() throws {
        var rng = SystemRandomNumberGenerator()
        let restored = try RestoredCouple(after: { couple in try Self.resync(couple.alice, with: couple.bob, using: &rng) })
        #expect(restored.outcome.epochsCarried)
        #expect(try Contacts.contact(named: "alice", store: restored.couple.bob).epoch == 1)
        let log = try MessageLog.recent(contact: "bob", limit: 10, store: restored.alice).messages
        #expect(log.contains { $0.text?.contains("resynced with bob after the backup was taken (epoch 1)") == true }, "\(log)")

        // The handshake the operator sends is new to bob, not a replay of epoch 1.
        try Self.resync(restored.alice, with: restored.couple.bob, using: &rng)
        let bob = try Contacts.contact(named: "bob", store: restored.alice)
        #expect(bob.epoch == 2 && bob.sync.state == .ok && bob.sync.keysRestoredAt == nil, "\(bob.sync)")
    }

    @Test("A replaced store that does not open with the backup's passphrase: the restore says its epochs are not carried")
    func replacedStoreLocked() throws {
        var rng = SystemRandomNumberGenerator()
        let restored = try RestoredCouple(after: { couple in
            try Self.resync(couple.alice, with: couple.bob, using: &rng)
            try Account.changePassphrase(couple.alice, to: "another passphrase for the replaced store", rotatingDataKey: false)
        })
        #expect(!restored.outcome.epochsCarried)
        #expect(try Contacts.contact(named: "bob", store: restored.alice).sync.advice == .resyncAfterRestore(restoredAt: restored.time))
        let log = try MessageLog.recent(contact: "bob", limit: 10, store: restored.alice).messages
        #expect(log.contains { $0.text?.contains("starts at epoch 65537, above any it can have reached") == true }, "\(log)")

        // Bob is at epoch 1, which the restored side does not know: its first handshake is still
        // new to bob, not a replay (no restart needed).
        try Self.resync(restored.alice, with: restored.couple.bob, using: &rng)
        let bob = try Contacts.contact(named: "bob", store: restored.alice)
        #expect(bob.epoch == 65537 && bob.sync.state == .ok && bob.sync.keysRestoredAt == nil, "\(bob.sync)")
    }

    @Test("Two resyncs after the backup, then a passphrase change: the first resync after the restore is above both")
    func severalResyncsAfterTheBackupUnknown() throws {
        var rng = SystemRandomNumberGenerator()
        let restored = try RestoredCouple(after: { couple in
            for _ in 0..<3 { try Self.resync(couple.alice, with: couple.bob, using: &rng) }
            try Account.changePassphrase(couple.alice, to: "another passphrase for the replaced store", rotatingDataKey: false)
        })
        #expect(try Contacts.contact(named: "alice", store: restored.couple.bob).epoch == 3)
        try Self.resync(restored.alice, with: restored.couple.bob, using: &rng)
        #expect(try Contacts.contact(named: "bob", store: restored.alice).sync.state == .ok)
    }

    @Test("A contact pending in the backup but paired in the replaced store is named, and its log says to pair again")
    func pairedAfterTheBackup() throws {
        var rng = SystemRandomNumberGenerator()
        var carolsCode = ""
        let restored = try RestoredCouple(
            before: { couple in _ = try Contacts.add(name: "carol", store: couple.alice, using: &rng) },
            after: { couple in
                carolsCode = try Contacts.add(name: "dave", store: couple.bob, using: &rng).pairingCode
                _ = try Contacts.pair("carol", code: try PairingCode(parsing: carolsCode), store: couple.alice, now: Date())
            })
        #expect(restored.outcome.pairedSinceBackup == ["carol"] && restored.outcome.resync == ["bob"], "\(restored.outcome)")
        let log = try MessageLog.recent(contact: "carol", limit: 10, store: restored.alice).messages
        #expect(log.contains { $0.text?.contains("had completed pairing with carol after the backup") == true }, "\(log)")
        let carol = try Contacts.contact(named: "carol", store: restored.alice).sync
        #expect(carol.state == .notPaired && carol.keysRestoredAt == restored.time, "\(carol)")
        #expect(carol.advice == .pairAgainAfterRestore(restoredAt: restored.time) && carol.advice?.action == .pair, "\(carol)")

        // Carol's code again would make the keys the replaced store used: refused, nothing changed.
        #expect(throws: ContactError.codeFromBeforeRestore(contact: "carol")) {
            try Contacts.pair("carol", code: try PairingCode(parsing: carolsCode), store: restored.alice, now: Date())
        }
        #expect(try Contacts.contact(named: "carol", store: restored.alice).sync == carol)

        // Paired again from new codes, the mark goes.
        _ = try Contacts.startRePairing("carol", store: restored.alice, using: &rng)
        #expect(try Contacts.contact(named: "carol", store: restored.alice).sync.keysRestoredAt == nil, "a new code clears the mark")
        let newCode = try Contacts.add(name: "erin", store: restored.couple.bob, using: &rng).pairingCode
        _ = try Contacts.pair("carol", code: try PairingCode(parsing: newCode), store: restored.alice, now: Date())
        let paired = try Contacts.contact(named: "carol", store: restored.alice).sync
        #expect(paired.state == .ok && paired.keysRestoredAt == nil && paired.advice == nil, "\(paired)")
    }

    /// `initiator` starts a resync with `peer`, which accepts it; `initiator` opens the answer.
    static func resync(_ initiator: UnlockedStore, with peer: UnlockedStore, using rng: inout SystemRandomNumberGenerator) throws {
        let peerName = try initiator.read { try $0.contacts()[0].name }
        let name = try peer.read { try $0.contacts()[0].name }
        let started = try Resync.start(with: peerName, store: initiator, now: Date(), using: &rng)
        let handshake = try initiator.read { try $0.outboxItem(id: started.outboxID) }.body
        let received = try Messages.decrypt(handshake, from: name, store: peer, now: Date(), using: &rng)
        guard case .resync(let request) = received.content, request.outcome == .requested else {
            Issue.record("the handshake was not taken as a request: \(received.content)")
            return
        }
        let accepted = try Resync.accept(from: name, store: peer, now: Date(), using: &rng)
        _ = try Messages.decrypt(accepted.answer, from: peerName, store: initiator, now: Date(), using: &rng)
    }

    @Test("Accepting the contact's resync, and a manual re-pairing, clear the mark too", arguments: StoreBackendKind.allCases)
    func everyCompletionClearsTheMark(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let mark = {
            let marked = try couple.alice.write { try $0.markKeysRestored(now: time) }
            #expect(marked == 1)
        }
        let keysRestoredAt = { try Contacts.contact(named: "bob", store: couple.alice).sync.keysRestoredAt }

        try mark()
        #expect(try keysRestoredAt() == time)
        let started = try Resync.start(with: "alice", store: couple.bob, now: Date(), using: &rng)
        let handshake = try couple.bob.read { try $0.outboxItem(id: started.outboxID) }.body
        _ = try Messages.decrypt(handshake, from: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(try keysRestoredAt() == time, "a resync request alone cleared the mark")
        _ = try Resync.accept(from: "bob", store: couple.alice, now: Date(), using: &rng)
        #expect(try keysRestoredAt() == nil)

        try mark()
        let aliceCode = try Contacts.startRePairing("bob", store: couple.alice, using: &rng)
        let bobCode = try Contacts.startRePairing("alice", store: couple.bob, using: &rng)
        _ = try Contacts.pair("alice", code: try PairingCode(parsing: aliceCode.pairingCode), store: couple.bob, now: Date())
        #expect(try keysRestoredAt() == time, "the peer's re-pairing alone cleared the mark")
        _ = try Contacts.pair("bob", code: try PairingCode(parsing: bobCode.pairingCode), store: couple.alice, now: Date())
        #expect(try keysRestoredAt() == nil)
    }
}

/// Alice's store restored from a backup taken while a text to bob was queued (so it is held).
struct RestoredCouple {
    let couple: Couple
    /// Alice's store after the restore.
    let alice: UnlockedStore
    /// The held text's log id.
    let held: Int64
    /// The time of the restore.
    let time = Date(timeIntervalSince1970: 1_800_000_000)

    /// What the restore said.
    let outcome: RestoreOutcome

    /// - Parameters:
    ///   - before: What happens to the couple before the backup is written.
    ///   - after: What happens to it after the backup is written, before the restore.
    init(before: (Couple) throws -> Void = { _ in }, after: (Couple) throws -> Void = { _ in }) throws {
        couple = try Couple()
        try before(couple)
        var rng = SystemRandomNumberGenerator()
        held = try Messages.queue("held by the restore", to: "bob", store: couple.alice, now: Date(), using: &rng).logID
        let directory = couple.aliceDirectory.url
        let backup = directory.deletingLastPathComponent().appendingPathComponent("\(directory.lastPathComponent).backup")
        _ = try DatabaseBackup.write(dataDirectory: directory, to: backup, logger: TestStore.logger)
        defer { try? FileManager.default.removeItem(at: backup) }
        try after(couple)
        try couple.alice.gateway.close()
        outcome = try StoreRestore.restore(backup, dataDirectory: directory, logger: TestStore.logger, now: time) { _ in
            LoginCredentials(passphrase: TestStore.passphrase, code: nil)
        }
        #expect(outcome.resync == ["bob"] && outcome.heldOutbox >= 1)
        #expect(lockLetGo { StoreLock.isRestoring(directory: directory) })
        alice = try Login.begin(couple.aliceDirectory.open(), now: Date()).unlock(passphrase: TestStore.passphrase, code: nil, now: Date())
    }
}
