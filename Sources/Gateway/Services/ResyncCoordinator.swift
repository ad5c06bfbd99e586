import Foundation
import Logging
import Operations
import SMSCipher
public import ServiceLifecycle
import Store

/// Sends an unanswered resync handshake again, with growing pauses and a bounded number of times.
///
/// A contact's handshake is pending while its session says so (``Session/isResyncPending``); the
/// handshake SMS is deterministic, so each retry is the same 160 characters, the outbox rows with
/// that body count the attempts, and a peer that got an earlier copy answers it as a repeat (at
/// most once more). Retry `n` (from 1) waits `resync_retry_seconds · 2^(n−1)` after the previous
/// attempt, and after ``maxAttempts`` sends in all the coordinator stops: the status then says to
/// check with the contact and restart the handshake. A retry is queued only when no handshake to
/// that contact is waiting in the outbox.
public struct ResyncCoordinator: Service {
    let context: GatewayContext

    /// Sends of one handshake in all, the first included (with the default 300 s: retries after
    /// 5, 10, 20, 40 and 80 minutes).
    public static let maxAttempts = SyncPolicy.handshakeAttempts

    init(context: GatewayContext) {
        self.context = context
    }

    /// How often pending handshakes are checked.
    var checkInterval: Double { min(max(context.intervals.resyncRetrySeconds / 4, 0.2), 30) }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.retryDue()
                await GatewayContext.pause(checkInterval)
            }
        }
    }

    /// The pause after `attempt` sends of a handshake before the next (`base · 2^(attempt−1)`), or
    /// nil once ``maxAttempts`` sends were made (or none yet: the first send is the operator's).
    public static func delay(beforeRetry attempt: Int, base: Double) -> Double? {
        guard attempt >= 1, attempt < maxAttempts else { return nil }
        return base * pow(2, Double(attempt - 1))
    }

    /// Queues the handshake again for every contact whose retry is due; returns their names.
    @discardableResult
    func retryDue(now: Date = Date()) async -> [String] {
        let base = context.intervals.resyncRetrySeconds
        do {
            let names = try await context.store.write { tx -> [String] in
                var names: [String] = []
                for contact in try tx.contacts() where contact.number != nil {
                    guard let session = try? tx.loadSession(for: contact), let message = session.pendingResyncMessage else { continue }
                    if let last = try tx.latestOutbox(kind: .handshake, for: contact),
                        last.state == .queued || last.state == .submitting
                    {
                        continue
                    }
                    let attempts = try tx.outboxAttempts(of: message, to: contact)
                    guard let pause = Self.delay(beforeRetry: attempts.count, base: base) else { continue }
                    if let lastQueued = attempts.lastQueuedAt, now.timeIntervalSince(lastQueued) < pause { continue }
                    try tx.enqueueOutbox(message, to: contact, kind: .handshake, now: now)
                    names.append(contact.name)
                }
                return names
            }
            for name in names {
                context.logger.notice("Resync handshake unanswered; sent again.", metadata: [GatewayLog.contact: "\(name)"])
            }
            if !names.isEmpty { context.outboxWake.wake() }
            return names
        } catch {
            context.logger.warning("Could not check pending resyncs.", metadata: [GatewayLog.error: "\(error)"])
            return []
        }
    }
}
