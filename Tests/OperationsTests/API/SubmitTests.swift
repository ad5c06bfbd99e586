import Dispatch
import Failures
import Foundation
import Operations
import Store
import Synchronization
import Testing

/// Idempotent sends: a key queues one message, replays return it, another body is a conflict.
struct SubmitTests {
    @Test func aKeyQueuesOnceAndAnotherBodyWithItIsAConflict() throws {
        let couple = try Couple()
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

    @Test func twentyConcurrentSubmissionsWithOneKeyQueueOneMessage() throws {
        let couple = try Couple()
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

    @Test func theQueueLimitRefusesWithBusy() throws {
        let couple = try Couple()
        var rng = SystemRandomNumberGenerator()
        _ = try Messages.submit("one", to: "bob", idempotencyKey: nil, queueLimit: 1, store: couple.alice, now: Date(), using: &rng)
        let error = #expect(throws: SubmissionError.queueFull(limit: 1)) {
            try Messages.submit("two", to: "bob", idempotencyKey: nil, queueLimit: 1, store: couple.alice, now: Date(), using: &rng)
        }
        #expect(error?.category == .busy)
    }
}
