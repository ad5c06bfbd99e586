import Foundation
import Modem
import Operations
import Store
import TestSupport
import Testing

@testable import Gateway

/// The limit on temporary send failures (`[outbox]`) over an in-memory modem: a row the network
/// keeps refusing fails, saying why, and `log retry` sends the same ciphertext again; modem
/// trouble does not count.
@Suite("Outbox sender: the limit on temporary failures")
struct OutboxSenderLimitTests {
    /// A modem that refuses every PDU (CMS 302) makes the row fail after `max_attempts`, as a
    /// permanent failure would: the log row, the `message.failed` event, the sentence.
    @Test func aRowRefusedTemporarilyTooOftenFailsAndSaysWhy() async throws {
        let rig = try await MemoryRig.make(outbox: OutboxSettings(maxAttempts: 3, maxAgeSeconds: 0))
        rig.modem.fail(.send, with: ModemError(.sendRejected, "The modem refused the SMS.", cmsError: 302), times: 5)
        let queued = try Messages.queue("refused again and again", to: "bob", store: rig.store)
        let failed = await OutboxSenderTests.run(rig) {
            try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.state == .failed
        }
        #expect(failed)
        let item = try rig.store.read { try $0.outboxItem(id: queued.outboxID) }
        // Failed, but its error was temporary: a retry by hand may go through (``RetryOutlook``).
        #expect(!item.lastErrorIsPermanent && item.attempts == 3 && item.temporaryFailures == 3)
        let sentence = try #require(item.lastError)
        #expect(sentence.hasPrefix("Gave up after 3 attempts that failed temporarily; the last error: The modem refused the SMS."))
        #expect(sentence.contains("+CMS ERROR 302"))
        #expect(rig.modem.calls.filter { $0 == .send }.count == 3 && rig.modem.sent.isEmpty)
        let entry = try rig.store.read { try $0.logEntry(id: queued.logID) }
        #expect(entry.status == .failed && entry.error == sentence)
        let events = try rig.store.read { try $0.events(after: 0, types: ["message.failed"]) }
        #expect(events.map(\.messageID) == [queued.logID])

        // Queued again by hand, it starts counting afresh and the same ciphertext goes out.
        #expect(try Messages.retry(queued.logID, by: .commandLine, store: rig.store, now: Date()) == 1)
        let sent = await OutboxSenderTests.run(rig) {
            try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.state == .sent
        }
        #expect(sent)
        #expect(rig.modem.sent.map(\.text) == [item.body])
        #expect(try rig.store.read { try $0.logEntry(id: queued.logID) }.status == .sent)
    }

    /// A refusal backs off by the refusals so far, not by the claims: a row that waited out a
    /// long modem outage starts at the first delay; other failures still back off by the claims.
    @Test func refusalsBackOffByTheirOwnCount() async throws {
        let intervals = GatewayConfiguration.Intervals(
            pollSeconds: 60, healthSeconds: 60, retryBaseSeconds: 10, retryMaxSeconds: 600, resyncRetrySeconds: 60)
        let rig = try await MemoryRig.make()
        let queued = try Messages.queue("after a long outage", to: "bob", store: rig.store)
        var item = try rig.store.read { try $0.outboxItem(id: queued.outboxID) }
        item.attempts = 12
        let refusal = ModemError(.sendRejected, "The modem refused the SMS.", cmsError: 302)
        #expect(OutboxSender.retryDelay(after: refusal, of: item, counted: true, intervals: intervals) == 10)
        item.temporaryFailures = 2
        #expect(OutboxSender.retryDelay(after: refusal, of: item, counted: true, intervals: intervals) == 40)
        let other = ModemError(.modemFailure, "The modem failed.")
        #expect(OutboxSender.retryDelay(after: other, of: item, counted: false, intervals: intervals) == 600)
        let hung = ModemError(.timeout, "The modem did not answer.")
        #expect(OutboxSender.retryDelay(after: hung, of: item, counted: false, intervals: intervals) == OutboxSender.modemTroubleDelay)
    }

    /// A hung modem and failures that are the modem's rather than the SMS's are waited out: with a
    /// limit of 2, one refusal among them leaves the row queued, and it goes out.
    @Test func modemTroubleDoesNotCountTowardTheLimit() async throws {
        let rig = try await MemoryRig.make(outbox: OutboxSettings(maxAttempts: 2, maxAgeSeconds: 0))
        rig.modem.fail(.send, with: ModemError(.sendRejected, "The modem refused the SMS.", cmsError: 302))
        rig.modem.fail(.send, with: ModemError(.timeout, "The modem did not answer."))
        rig.modem.fail(.send, with: ModemError(.modemFailure, "The modem failed."), times: 2)
        let queued = try Messages.queue("through the trouble", to: "bob", store: rig.store)
        // The timeout leaves the modem to its supervisor: the row waits, queued, counted once.
        let waiting = await OutboxSenderTests.run(rig) {
            let item = try rig.store.read { try $0.outboxItem(id: queued.outboxID) }
            return item.state == .queued && item.attempts == 2
        }
        #expect(waiting)
        let item = try rig.store.read { try $0.outboxItem(id: queued.outboxID) }
        #expect(item.temporaryFailures == 1 && item.failingSince != nil)
        #expect(rig.link.takeRecoveryRequest() != nil)

        let sent = await OutboxSenderTests.run(rig) {
            try rig.store.read { try $0.outboxItem(id: queued.outboxID) }.state == .sent
        }
        #expect(sent)
        #expect(rig.modem.calls.filter { $0 == .send }.count == 5)
        #expect(rig.modem.sent.map(\.text) == [item.body])
        let done = try rig.store.read { try $0.outboxItem(id: queued.outboxID) }
        #expect(done.temporaryFailures == 0 && done.failingSince == nil)
    }
}
