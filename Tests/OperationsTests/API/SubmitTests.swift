import Dispatch
import Failures
import Foundation
import Operations
import Store
import Synchronization
import TestSupport
import Testing

/// Idempotent sends: a key queues one message, replays return it, another body is a conflict.
struct SubmitTests {
    @Test(arguments: StoreBackendKind.allCases)
    func aKeyQueuesOnceAndAnotherBodyWithItIsAConflict(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let first = try Messages.submit(
            "hello", to: "bob", idempotencyKey: "k1", queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
        let again = try Messages.submit(
            "hello", to: "bob", idempotencyKey: "k1", queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
        #expect(!first.replayed && again.replayed && again.id == first.id)
        #expect(throws: SubmissionError.keyReused) {
            try Messages.submit("bye", to: "bob", idempotencyKey: "k1", queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
        }
        #expect(try couple.alice.read { try $0.outboxItems() }.count == 1)
        #expect(throws: SubmissionError.invalidKey) {
            try Messages.submit("x", to: "bob", idempotencyKey: "", queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
        }
        let detail = try MessageDetail.read(id: first.id, store: couple.alice)
        #expect(detail.history.message.text == "hello" && detail.parts == 1 && detail.attempts == 0)
        let json = try OperationsJSON.string(detail)
        #expect(json.contains("\"state\":\"queued\"") && json.contains("\"createdAt\"") && json.contains("\"history\""))
    }

    @Test("A new send is answered from what it wrote: the very message a read gives, a long text's parts too")
    func aNewSendsAnswerIsTheMessageAsRead() throws {
        let couple = try Couple()
        var rng = SystemRandomNumberGenerator()
        let long = String(repeating: "a text that needs several messages, ", count: 10)
        for (text, parts) in [("hello", 1), (long, 3)] {
            let sent = try Messages.submit(
                text, to: "BOB", idempotencyKey: nil, queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
            let read = try MessageDetail.read(id: sent.id, store: couple.alice)
            #expect(sent.message == read && read.parts == parts)
            #expect(try OperationsJSON.string(sent.message) == OperationsJSON.string(read))
        }
    }

    /// `parts` counts the SMS a message's ciphertext takes, so a text sealed for copy and paste
    /// has as many as the same text sent by the daemon (it had 0: it counted outbox rows).
    @Test(arguments: StoreBackendKind.allCases)
    func aCopyAndPasteMessageHasAsManyPartsAsTheSameTextSent(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let long = String(repeating: "a text that needs several messages, ", count: 10)
        for (text, parts) in [("hello", 1), (long, 3)] {
            let sent = try Messages.queue(text, to: "bob", store: couple.alice, now: Date(), using: &rng)
            let pasted = try Messages.encrypt(text, for: "bob", store: couple.alice, now: Date(), using: &rng)
            #expect(try MessageDetail.read(id: sent.logID, store: couple.alice).parts == parts)
            #expect(try MessageDetail.read(id: pasted.logID, store: couple.alice).parts == parts)
        }
    }

    @Test(arguments: StoreBackendKind.allCases)
    func theDetailGivesWhenEachStateWasFirstEnteredSubmittingIncluded(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let queued = try Messages.submit(
            "hello", to: "bob", idempotencyKey: nil, queueLimit: nil, store: couple.alice, now: Date(), using: &rng)
        var detail = try MessageDetail.read(id: queued.id, store: couple.alice)
        #expect(detail.stateTimes["queued"] ?? nil != nil && detail.stateTimes["submitting"] ?? nil == nil)
        #expect(try OperationsJSON.string(detail).contains("\"submitting\":null"), "a state not reached is null")

        let first = Date(timeIntervalSince1970: 1_800_000_000)
        let retry = first.addingTimeInterval(30)
        try couple.alice.write { tx in
            let item = try #require(try tx.claimNextOutbox(modem: "m1", now: first))
            try tx.markOutboxFailed(item.id, error: "The network did not answer.", permanent: false, retryAt: first)
        }
        try couple.alice.write { tx in
            let item = try #require(try tx.claimNextOutbox(modem: "m1", now: retry))
            try tx.markOutboxSent(item.id, reference: 7, modem: "m1", now: retry)
        }
        detail = try MessageDetail.read(id: queued.id, store: couple.alice)
        #expect(detail.stateTimes["submitting"] ?? nil == first, "the first time a modem took it, not the retry")
        #expect(detail.stateTimes["sent"] ?? nil != nil && detail.stateTimes["delivered"] ?? nil == nil && detail.attempts == 2)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func twentyConcurrentSubmissionsWithOneKeyQueueOneMessage(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        let store = couple.alice
        let ids = Mutex<[Int64]>([])
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            var rng = SystemRandomNumberGenerator()
            if let submission = try? Messages.submit(
                "once", to: "bob", idempotencyKey: "same", queueLimit: nil, store: store, now: Date(), using: &rng)
            {
                ids.withLock { $0.append(submission.id) }
            }
        }
        let all = ids.withLock { $0 }
        #expect(all.count == 20 && Set(all).count == 1)
        #expect(try store.read { try $0.outboxItems() }.count == 1)
    }

    @Test(arguments: StoreBackendKind.allCases)
    func theQueueLimitRefusesWithBusy(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        _ = try Messages.submit("one", to: "bob", idempotencyKey: nil, queueLimit: 1, store: couple.alice, now: Date(), using: &rng)
        let error = #expect(throws: SubmissionError.queueFull(limit: 1)) {
            try Messages.submit("two", to: "bob", idempotencyKey: nil, queueLimit: 1, store: couple.alice, now: Date(), using: &rng)
        }
        #expect(error?.category == .busy)
    }

    @Test(
        "Sends submitted together share a commit but fail one by one; the peer opens each queued one", arguments: StoreBackendKind.allCases)
    func aBatchFailsPerSend(_ backend: StoreBackendKind) throws {
        let couple = try Couple(on: backend)
        var rng = SystemRandomNumberGenerator()
        let requests: [Messages.SubmissionRequest] = [
            .init(text: "first", contact: "bob", idempotencyKey: "a"),
            .init(text: "nobody", contact: "carol", idempotencyKey: nil),
            .init(text: "first", contact: "bob", idempotencyKey: "a"),
            .init(text: "other", contact: "bob", idempotencyKey: "a"),
            .init(text: "x", contact: "bob", idempotencyKey: ""),
            .init(text: "second", contact: "bob", idempotencyKey: nil),
            .init(text: "third", contact: "bob", idempotencyKey: nil),
        ]
        let results = try Messages.submit(requests, queueLimit: 2, store: couple.alice, now: Date(), using: &rng)
        #expect(results.count == 7)
        #expect(throws: SubmissionError.queueFull(limit: 2)) { try results[6].get() }
        let first = try results[0].get()
        #expect(!first.replayed)
        #expect(throws: StoreError.self) { try results[1].get() }
        #expect(try results[2].get().replayed && results[2].get().id == first.id, "the key's second use in the batch is a replay")
        #expect(throws: SubmissionError.keyReused) { try results[3].get() }
        #expect(throws: SubmissionError.invalidKey) { try results[4].get() }
        let second = try results[5].get()
        #expect(!second.replayed && second.id > first.id)
        let outbox = try couple.alice.read { try $0.outboxItems() }
        #expect(outbox.count == 2, "only the two good sends were queued")
        let texts = try outbox.map { item -> String? in
            let opened = try Messages.decrypt(item.body, from: "alice", store: couple.bob, now: Date(), using: &rng)
            guard case .text(let received) = opened.content else { return nil }
            return received.text
        }
        #expect(texts == ["first", "second"], "each queued text opens at the peer: no pad was spent twice")
    }
}
