import Foundation
import Logging
public import ServiceLifecycle
import SMSCipher
import Store

/// Sends an unanswered resync handshake again every `resync_retry_seconds` until it completes.
///
/// A contact's handshake is pending while its session says so (``Session/isResyncPending``); the
/// handshake SMS is deterministic, so each retry is the same 160 characters and a peer that got
/// an earlier copy answers it as a repeat. A retry is queued only when no handshake to that
/// contact is waiting in the outbox and the last one was queued at least `resync_retry_seconds` ago.
public struct ResyncCoordinator: Service {
    let context: GatewayContext

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

    /// Queues the handshake again for every contact whose retry is due; returns their names.
    @discardableResult
    func retryDue(now: Date = Date()) async -> [String] {
        let retry = context.intervals.resyncRetrySeconds
        do {
            let names = try await context.store.write { tx -> [String] in
                var names: [String] = []
                for contact in try tx.contacts() where contact.number != nil {
                    guard let session = try? tx.loadSession(for: contact), let message = session.pendingResyncMessage else { continue }
                    if let last = try tx.latestOutbox(kind: .handshake, for: contact) {
                        if last.state == .queued || last.state == .submitting { continue }
                        if now.timeIntervalSince(last.createdAt) < retry { continue }
                    }
                    try tx.enqueueOutbox(message, to: contact, kind: .handshake, now: now)
                    names.append(contact.name)
                }
                return names
            }
            for name in names {
                context.logger.notice("Resync handshake unanswered; sent again.", metadata: [GatewayLog.contact: "\(name)"])
            }
            return names
        } catch {
            context.logger.warning("Could not check pending resyncs.", metadata: [GatewayLog.error: "\(error)"])
            return []
        }
    }
}
