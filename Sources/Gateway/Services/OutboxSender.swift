import Foundation
import Logging
import Modem
import Operations
public import ServiceLifecycle
import Store

/// Sends the outbox: one worker per modem claims due rows (``StoreTransaction/claimNextOutbox(modem:node:othersReady:now:)``,
/// fair across contacts) while its modem is ready, so the queue is shared fairly and throughput
/// grows with the number of modems. A contact pinned to a modem (`smsgw contact edit --modem`)
/// is served by that modem while it is ready and by the others while it is not.
///
/// It never seals anything: the ciphertext was committed with the ratchet state before it was
/// queued, and every retry sends that same stored body. Outcomes:
/// - accepted: sent, with the message reference and the modem (a status report makes it delivered);
/// - permanent error (for example CMS 21, invalid number): failed, never retried;
/// - temporary error: queued again after `retry_base_seconds`·2^(attempt−1), at most `retry_max_seconds`,
///   until the row has failed so `[outbox] max_attempts` times or for `max_age_seconds`
///   (``OutboxSettings``): then failed as after a permanent error, saying why it gave up;
/// - modem trouble or an ambiguous timeout (it may have gone out): queued again with the same
///   body, and the modem's supervisor recovers it; the peer drops a duplicate.
///
/// An idle worker sleeps until it is woken (``OutboxWake``: `smsgw send` through the status
/// socket, a front end in this process, the daemon's own services, a modem that became ready),
/// until the next row falls due for a retry, or at the latest for `health_seconds`, the fallback
/// read that finds a row whose wake was lost.
public struct OutboxSender: Service {
    let context: GatewayContext
    /// The retry delay after modem trouble (not the number's fault, so no backoff).
    static let modemTroubleDelay = 1.0

    public func run() async throws {
        // Rows this node left submitting when it was killed go back to the queue, same body;
        // another node's claims are its own until its lease ends (see ``GatewayContext/heartbeat(now:)``).
        let node = context.presence.node.name
        let requeued = try await context.store.write { try $0.requeueInterruptedOutbox(node: node) }
        if requeued > 0 {
            context.logger.notice("Requeued SMS interrupted while submitting.", metadata: [GatewayLog.count: "\(requeued)"])
        }
        // Contacts pinned to a modem no node has are looked for after a health period
        // (``GatewayContext/warnOfUnknownPins()``), once nodes starting beside this one recorded theirs.
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                for link in context.links {
                    group.addTask { await self.work(link) }
                }
            }
        }
    }

    private func work(_ link: ModemLink) async {
        var logger = context.logger
        logger[metadataKey: GatewayLog.modem] = "\(link.name)"
        let fallback = Duration.milliseconds(Int64(context.intervals.healthSeconds * 1000))
        while !Task.isCancelled {
            // Nothing to claim until the modem is ready; its supervisor rings when it is.
            guard link.isReady else {
                await link.outboxBell.wait(until: .now + fallback)
                continue
            }
            do {
                let othersReady = Set(context.links.filter { $0 !== link && $0.isReady }.map(\.name))
                let name = link.name
                let node = context.presence.node
                let claim = try await context.store.write { tx -> Claim in
                    if let item = try tx.claimNextOutbox(modem: name, node: node, othersReady: othersReady) { return .item(item) }
                    return .none(nextAttempt: try tx.nextOutboxAttempt(othersReady: othersReady, node: node.name))
                }
                guard case .item(let item) = claim else {
                    if case .none(let next) = claim { await link.outboxBell.wait(until: Self.deadline(next, fallback: fallback)) }
                    continue
                }
                // The submission runs to its end even during shutdown, so its outcome is recorded.
                let outcome = await Task { await self.submit(item, through: link, logger: logger) }.value
                // A failed modem is not ready until recovered; its supervisor rings then.
                if !outcome { await link.outboxBell.wait(until: .now + .seconds(Self.modemTroubleDelay)) }
            } catch {
                logger.error("The outbox could not be read; retrying.", metadata: [GatewayLog.error: "\(error)"])
                await GatewayContext.pause(1)
            }
        }
    }

    /// What one look at the outbox found.
    private enum Claim: Sendable {
        case item(OutboxItem)
        /// Nothing due now; when the next queued row falls due, if any.
        case none(nextAttempt: Date?)
    }

    /// When an idle worker looks again by itself: when the next row falls due, at the latest
    /// after `fallback` (so a lost wake, or a row queued by a process that could not wake the
    /// daemon, waits at most that long).
    static func deadline(_ next: Date?, fallback: Duration) -> ContinuousClock.Instant {
        guard let next else { return .now + fallback }
        let (seconds, attoseconds) = fallback.components
        let wait = min(max(next.timeIntervalSinceNow, 0), Double(seconds) + Double(attoseconds) / 1e18)
        // A little late rather than early: woken before the row is due, the worker would find nothing.
        return .now + .milliseconds(Int64(wait * 1000) + 5)
    }

    /// Sends one claimed row and records the outcome; false when the modem failed.
    private func submit(_ item: OutboxItem, through link: ModemLink, logger: Logger) async -> Bool {
        var logger = logger
        // One id per message everywhere: the log id `smsgw send` printed, else (a handshake) the row's.
        if let message = item.messageID {
            logger[metadataKey: GatewayLog.message] = "\(message)"
        } else {
            logger[metadataKey: GatewayLog.outbox] = "\(item.id)"
        }
        logger[metadataKey: GatewayLog.attempt] = "\(item.attempts)"
        let statusReport = link.settings.statusReports
        let number = item.number.e164
        let body = item.body
        let name = link.name
        let node = context.presence.node.name
        do {
            let reference = try await link.call { try await $0.send(text: body, to: number, statusReport: statusReport) }
            link.update { $0.sent += 1 }
            let record = link.record
            try await recordingThroughOutage(logger: logger) {
                try await context.store.write { tx in
                    let confirmable = GatewayStatus.Unconfirmed.confirmable(
                        reportRequested: statusReport, to: try tx.contact(id: item.contactID))
                    try tx.markOutboxSent(item.id, reference: reference, modem: name, node: node, confirmable: confirmable)
                    try tx.saveModemStatus(record)
                }
            }
            logger.info("SMS sent.", metadata: [GatewayLog.reference: "\(reference)"])
            // Its acknowledgement's deadline starts now.
            if item.awaitsAcknowledgement { context.timersBell.ring() }
            context.storeWrote()
            return true
        } catch let error as ModemError {
            await recordFailure(item, error: error, link: link, logger: logger)
            return !error.needsRecovery
        } catch is CancellationError {
            return true  // a stop cut the record's retries short; logged with what becomes of the row
        } catch {
            // The claim passed to another node while the store could not be reached (that node
            // sends the row again: same body, so at worst a duplicate the peer drops), or the
            // store refused the record for another reason than its storage (the row stays
            // submitting and is requeued at the next start).
            logger.error("Could not record a sent SMS.", metadata: [GatewayLog.error: "\(error)"])
            return true
        }
    }

    private func recordFailure(_ item: OutboxItem, error: ModemError, link: ModemLink, logger: Logger) async {
        var permanent = !error.isRetryable && !error.needsRecovery
        // Only the send's own failures count toward the limit; modem trouble is waited out.
        let counted = !permanent && OutboxSettings.counts(error)
        if error.needsRecovery || error.mayHaveBeenSent { link.requestRecovery(because: error) }
        let delay = Self.retryDelay(after: error, of: item, counted: counted, intervals: context.intervals)
        // The row's record names the modem, not its device (every reader of the message sees it);
        // the log keeps the whole error for those who run the gateway.
        var sentence = error.sentence(forSMSThrough: link.name)
        let now = Date()
        let giveUp =
            counted
            ? context.outbox.giveUp(failures: item.temporaryFailures + 1, failingSince: item.failingSince ?? now, now: now) : nil
        if let giveUp {
            permanent = true
            sentence = giveUp.sentence(lastError: sentence)
        }
        let node = context.presence.node.name
        do {
            try await context.store.write { [permanent, sentence] tx in
                try tx.markOutboxFailed(
                    item.id, error: sentence, permanent: permanent, retryAt: now.addingTimeInterval(delay), counted: counted,
                    node: node, now: now)
            }
        } catch {
            logger.error("Could not record a failed SMS.", metadata: [GatewayLog.error: "\(error)"])
        }
        if let giveUp {
            logger.error(
                "SMS failed after repeated temporary errors; not retried.",
                metadata: [GatewayLog.error: "\(giveUp.sentence(lastError: error.description))"])
        } else if permanent {
            logger.error("SMS failed permanently; not retried.", metadata: [GatewayLog.error: "\(error)"])
        } else {
            logger.warning(
                "SMS not sent; will retry with the same text.",
                metadata: [
                    GatewayLog.error: "\(error)", GatewayLog.retryIn: "\(delay)",
                ])
        }
    }

    /// The wait before `item` is tried again after `error`: a moment after modem trouble (the
    /// supervisor deals with the modem), else the backoff: by the refusals so far for a failure
    /// that counts toward the limit (a row that waited out a long outage, many claims, starts
    /// at the first delay), by the claims for any other.
    static func retryDelay(after error: ModemError, of item: OutboxItem, counted: Bool, intervals: GatewayConfiguration.Intervals)
        -> Double
    {
        if error.needsRecovery || error.mayHaveBeenSent { return modemTroubleDelay }
        return intervals.retryDelay(afterAttempt: counted ? item.temporaryFailures + 1 : item.attempts)
    }
}
