import Foundation
import Operations
import SMSCipher
import Store
import TestSupport
import Testing

/// The one "apply an opened message" of both receive paths, and where they differ on purpose.
struct IncomingMessageTests {
    /// Bob's session opens Alice's handshake and `apply` runs on `path`, as the daemon or a paste would.
    private func deliver(
        _ ciphertext: String, to couple: Couple, path: ReceivePath, now: Date = Date()
    ) throws -> AppliedResync {
        var rng = SystemRandomNumberGenerator()
        let applied = try couple.bob.write { tx in
            let alice = try tx.contact(named: "alice")
            let result = try tx.requirePairedSession(for: alice).opening(ciphertext, now: now, using: &rng)
            return try IncomingMessage.apply(
                result, ciphertext: ciphertext, from: alice, fingerprint: nil, path: path, in: tx, now: now, using: &rng)
        }
        guard case .resync(let resync) = applied.content else { throw CipherError.notAuthentic }
        return resync
    }

    private func handshake(from couple: Couple) throws -> String {
        var rng = SystemRandomNumberGenerator()
        let started = try Resync.start(with: "bob", store: couple.alice, now: Date(), using: &rng)
        return try couple.alice.read { try $0.outboxItem(id: started.outboxID) }.body
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aRequestWaitsForTheOperatorByHandAndUnderOperatorSettings(_ backend: StoreBackendKind) throws {
        for path in [ReceivePath.byHand, .gateway(ResyncSettings(accept: .operator))] {
            let couple = try Couple(on: backend)
            let request = try deliver(try handshake(from: couple), to: couple, path: path)
            #expect(request.outcome == .requested && !request.completed && request.answer == .none)
            #expect(request.requestCode != nil)
            #expect(try couple.bob.read { try $0.outboxItems() }.isEmpty)
            let note = try #require(try couple.bob.read { try $0.log() }.last)
            #expect(note.status == .resync && note.text?.contains("waiting for the operator") == true)
            #expect(note.text?.contains("smsgw") == false, "a log row names no command of a front end: \(note.text ?? "")")
            #expect(try Contacts.contact(named: "alice", store: couple.bob).sync.state == .resyncRequested)
        }
    }

    @Test(arguments: StoreBackendKind.allCases)
    func theDaemonAnswersARequestAtOnceOnlyWhenConfiguredToAndQueuesTheAnswer(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let auto = try deliver(try handshake(from: couple), to: couple, path: .gateway(ResyncSettings(accept: .auto)))
        #expect(auto.completed && auto.requestCode == nil)
        guard case .queued(let outboxID) = auto.answer else {
            Issue.record("no answer queued: \(auto.answer)")
            return
        }
        let answer = try couple.bob.read { try $0.outboxItem(id: outboxID) }
        #expect(answer.kind == .handshake && answer.state == .queued)
        #expect(try couple.bob.read { try $0.log() }.last?.status == .resynced)

        // The answer completes Alice's side by hand: both are at epoch 1.
        var rng = SystemRandomNumberGenerator()
        let completed = try Messages.decrypt(answer.body, from: "bob", store: couple.alice, now: Date(), using: &rng)
        guard case .resync(let resync) = completed.content else {
            Issue.record("not a handshake")
            return
        }
        #expect(resync.completed && resync.answer == .none)
        #expect(try [couple.alice, couple.bob].map { try Contacts.list(store: $0).first?.epoch } == [1, 1])
    }

    @Test(arguments: StoreBackendKind.allCases)
    func aRepeatIsAnsweredByHandAlwaysButByTheDaemonOnlyWithinItsBudget(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let start = try handshake(from: couple)
        _ = try deliver(start, to: couple, path: .byHand)
        var rng = SystemRandomNumberGenerator()
        _ = try Resync.accept(from: "alice", store: couple.bob, now: Date(), using: &rng)

        // Over the budget (0 replies an hour) the daemon withholds the answer and keeps the state,
        // so a later copy still gets its one answer; by hand the answer is returned.
        let withheld = try deliver(start, to: couple, path: .gateway(ResyncSettings(accept: .operator, automaticRepliesPerHour: 0)))
        #expect(withheld.outcome == .repeated && withheld.answer == .withheld)
        #expect(try couple.bob.read { try $0.log() }.last?.error?.contains("withheld") == true)
        let byHand = try deliver(start, to: couple, path: .byHand)
        guard case .byHand(let answer) = byHand.answer else {
            Issue.record("no answer by hand: \(byHand.answer)")
            return
        }
        #expect(answer.count == 160 && byHand.outcome == .repeated)
        // The one answer is spent: a third copy is a duplicate on either path.
        #expect(throws: CipherError.duplicate) { try deliver(start, to: couple, path: .byHand) }
    }
}
