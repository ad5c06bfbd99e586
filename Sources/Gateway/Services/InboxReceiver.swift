import Foundation
import Logging
import Modem
import Operations
public import ServiceLifecycle
import Store

/// Reads each ready modem's SMS storage when it announces a new message or status report, every
/// `poll_seconds` as a fallback, and at startup; processes every SMS in one store transaction
/// (see ``IncomingProcessor``) and deletes it from the modem only after that transaction committed.
///
/// A message that verifies updates the ratchet, the log and the fingerprint together; a failed
/// one is logged as rejected, counted against the contact and kept in quarantine until the next
/// completed resync; a duplicate is logged as such; a status report marks its outbox row
/// delivered; concatenated plain SMS are reassembled; unknown senders touch no state. Nothing
/// stays on the modem for long: stray parts, unreadable entries and a full storage are handled
/// too (see ``scan(_:logger:)``), so a contact's next SMS always finds room.
public struct InboxReceiver: Service {
    let context: GatewayContext

    public func run() async throws {
        _ = try? await context.store.write { tx in
            try tx.pruneReceivedFingerprints(olderThan: Date().addingTimeInterval(-90 * 86_400))
            try tx.pruneQuarantine(olderThan: Date().addingTimeInterval(-30 * 86_400))
        }
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                for link in context.links {
                    group.addTask { await self.watch(link) }
                }
                group.addTask { await self.keepTimersOnTime() }
            }
        }
    }

    /// Scans `link` when it rings (a +CMTI or status report, a reconnect, a row or heartbeat
    /// written while SMS wait to be retried) and, as the fallback, every `poll_seconds` for a
    /// modem that does not announce new messages, or every ``announcedFallbackHealthChecks``
    /// health intervals for one that does (a lost +CMTI; any later one reads the whole storage
    /// too). A scan that left SMS on the modem is followed by another after ``InboxRetry``'s
    /// pause. A ring while the modem is not ready is kept: its supervisor rings again when it is.
    private func watch(_ link: ModemLink) async {
        var modemLogger = context.logger
        modemLogger[metadataKey: GatewayLog.modem] = "\(link.name)"
        let logger = modemLogger
        var nextPoll = ContinuousClock.now + fallback(for: link)
        var retry = InboxRetry(healthSeconds: context.intervals.healthSeconds)
        var entries = EntryRefusals()
        while !Task.isCancelled {
            await link.inboxBell.wait(until: min(nextPoll, retry.due ?? nextPoll))
            let now = ContinuousClock.now
            if now >= nextPoll {
                nextPoll = now + fallback(for: link)
                link.update { $0.inboxRequested = true }
            }
            if let due = retry.due, now >= due { link.update { $0.inboxRequested = true } }
            guard link.isReady, link.takeInboxRequest() else { continue }
            let left = await scan(link, logger: logger)
            retry.note(left, logger: logger)
            entries.note(left, logger: logger)
            context.storeWrites.noteRead(of: link.name, left, now: Date())
            link.update { $0.retryPending = retry.due != nil }
            context.timersBell.ring()
        }
    }

    /// Health intervals between two fallback reads of a modem that announces new messages: each
    /// read is a listing through libgammu, the largest part of an idle daemon's CPU.
    static let announcedFallbackHealthChecks = 10.0

    /// The pause between two reads of the storage that nothing asked for.
    func fallback(for link: ModemLink) -> Duration {
        let intervals = context.intervals
        let announced = max(intervals.pollSeconds, intervals.healthSeconds * Self.announcedFallbackHealthChecks)
        let seconds = link.modem.supportsNotifications ? announced : intervals.pollSeconds
        return .milliseconds(Int64(seconds * 1000))
    }

    /// Reads and processes everything in one modem's storage, then frees what only takes space.
    ///
    /// Order matters: SMS handed over directly (+CMT) first, as they have no other copy; then
    /// every single SMS and complete group (committed, then deleted); then entries that cannot be
    /// read (logged once with their raw form, deleted); then parts still waiting, which are logged
    /// as partial and deleted once they waited too long or their sender has too many waiting; and
    /// only then, if the storage is full, the oldest waiting parts and outbox copies make room.
    /// - Returns: What stays on the modem to be read again (the caller logs a refusal, once per pause).
    @discardableResult
    func scan(_ link: ModemLink, logger: Logger) async -> InboxLeftovers {
        var left = InboxLeftovers()
        for sms in link.takeDirect() {
            if await processSingle(sms, link: link, logger: logger, arrived: .now, left: &left) == nil {
                link.update { $0.direct.append(sms) }  // the store failed; kept for the next scan
            }
        }
        let listing: StorageListing
        do {
            listing = try await link.call { try await $0.storage() }
        } catch {
            let modemError = ModemSupervisor.modemError(error)
            logger.warning("Could not read the modem's messages.", metadata: [GatewayLog.error: "\(modemError)"])
            if modemError.needsRecovery { link.requestRecovery(because: modemError) }
            return left
        }
        left.listed = true
        let listed = ContinuousClock.now
        var groups: [PartialGroupKey: [StoredMessage]] = [:]
        for sms in listing.messages {
            if let concatenation = sms.concatenation, !sms.isStatusReport {
                groups[PartialGroupKey(sender: sms.number, reference: concatenation.reference, total: concatenation.total), default: []]
                    .append(sms)
                continue
            }
            await processSingle(sms, link: link, logger: logger, arrived: listed, left: &left)
        }
        for entry in listing.unreadable { await handleUnreadable(entry, link: link, logger: logger, left: &left) }
        let waiting = await handleGroups(groups, link: link, logger: logger, left: &left)
        await freeStorageIfFull(waiting: waiting, listing: listing, link: link, logger: logger, left: &left)
        return left
    }

    /// Processes one SMS that is not part of a concatenated one and deletes it once committed.
    /// - Parameters:
    ///   - arrived: When the daemon had it from the modem; the time to its committed log row goes
    ///     into ``GatewayContext/arrivals``.
    ///   - left: Counts it when it stays on the modem: deferred, or refused by the store.
    /// - Returns: The outcome, or nil when the store failed (it stays on the modem).
    @discardableResult
    func processSingle(
        _ sms: StoredMessage, link: ModemLink, logger: Logger, arrived: ContinuousClock.Instant, left: inout InboxLeftovers
    ) async -> IncomingOutcome? {
        let name = link.name
        let leftBehind = link.snapshot.undeleted.contains(sms.fingerprint)
        do {
            let outcome = try await context.store.write(.contact(number: try? PhoneNumber(sms.number))) { tx in
                try IncomingProcessor.process(sms, modem: name, leftBehind: leftBehind, resync: context.resync, in: tx)
            }
            guard outcome != .deferred else {
                left.deferred += 1
                return outcome
            }
            if outcome.message != nil { context.arrivals.record(.now - arrived) }
            await record(outcome, link: link, logger: logger)
            await delete(sms.location, fingerprint: sms.fingerprint, link: link, logger: logger)
            return outcome
        } catch {
            left.refused(error)
            return nil
        }
    }

    /// Deletes one entry from the modem; a failure is remembered, so the next read knows that the
    /// entry was processed already and only tries the deletion again.
    func delete(_ location: StoredMessage.Location, fingerprint: String, link: ModemLink, logger: Logger) async {
        do {
            try await link.call { try await $0.delete(location) }
            link.update { _ = $0.undeleted.remove(fingerprint) }
        } catch {
            link.update { _ = $0.undeleted.insert(fingerprint) }
            let modemError = ModemSupervisor.modemError(error)
            logger.warning("Could not delete a processed SMS from the modem.", metadata: [GatewayLog.error: "\(modemError)"])
            if modemError.needsRecovery { link.requestRecovery(because: modemError) }
        }
    }

    func record(_ outcome: IncomingOutcome, link: ModemLink, logger: Logger) async {
        var logger = logger
        // The log row's id: what `smsgw log`, `status` and the journal call this message.
        if let message = outcome.message { logger[metadataKey: GatewayLog.message] = "\(message)" }
        // Any received message may have queued SMS: a handshake (an answer, an automatic reply),
        // or a typed message's reply (a vault copy's report, an update passed on to holders). A
        // wake costs the sender one read of the queue.
        context.outboxWake.wake()
        switch outcome {
        case .alreadyProcessed, .deferred, .statusReport:
            return
        case .decrypted(let contact, _):
            logger.info("Message received and verified.", metadata: [GatewayLog.contact: "\(contact)"])
        case .duplicate(let contact, _):
            logger.notice("Duplicate message refused.", metadata: [GatewayLog.contact: "\(contact)"])
        case .rejected(let contact, let failures, _):
            let level: Logger.Level = failures >= GatewayContext.failureThreshold ? .error : .warning
            logger.log(
                level: level, "Message failed verification; kept to retry after a resync.",
                metadata: [
                    GatewayLog.contact: "\(contact)", GatewayLog.failures: "\(failures)",
                ])
        case .otherNumber(let outcome, let number):
            if let contact = outcome.contact {
                logger.warning(
                    "A contact's message came from a number that is not the contact's; its keys opened it.",
                    metadata: [GatewayLog.contact: "\(contact)", GatewayLog.number: "\(number)"])
            }
            await record(outcome, link: link, logger: logger)
        case .reflected(let contact, _):
            logger.notice(
                "This side's own SMS came back from the contact's number; not counted as a failure.",
                metadata: [GatewayLog.contact: "\(contact)"])
        case .plain(_, let untried):
            logger.info("Plain SMS received.")
            if untried > 0 {
                logger.notice(
                    "An SMS from a number no contact has opened with none of the most recently active contacts' keys; the keys of the others were not tried, and it is kept as a plain SMS.",
                    metadata: [GatewayLog.count: "\(untried)"])
            }
        case .resync(let contact, let completed, _):
            logger.notice(completed ? "Resync completed." : "Resync handshake received.", metadata: [GatewayLog.contact: "\(contact)"])
            if completed {
                let retried = try? await context.store.write { tx in try IncomingProcessor.retryQuarantine(for: contact, in: tx) }
                if let retried, retried.opened > 0 {
                    logger.notice(
                        "Quarantined messages opened after the resync.",
                        metadata: [
                            GatewayLog.contact: "\(contact)", GatewayLog.count: "\(retried.opened)",
                        ])
                }
                if let retried, retried.givenUp > 0 {
                    logger.warning(
                        "Quarantined messages cannot open even after the resync; the log says to ask for them again.",
                        metadata: [
                            GatewayLog.contact: "\(contact)", GatewayLog.count: "\(retried.givenUp)",
                        ])
                }
            }
        }
        link.update { $0.received += 1 }
        let record = link.record
        _ = try? await context.store.write { try $0.saveModemStatus(record) }
    }
}

extension InboxReceiver {
    /// Keeps the clock-driven work (``Operations/DueWork``: long-text timeouts, acknowledgements
    /// due, re-sends, expired vault copies) on time: does what is due, then sleeps until the next due time, or until a
    /// scan or a send rings ``GatewayContext/timersBell`` because it may have changed that time.
    func keepTimersOnTime() async {
        let fallback = Duration.milliseconds(Int64(context.intervals.healthSeconds * 1000))
        while !Task.isCancelled {
            let next = await keepTimers(logger: context.logger)
            var deadline = ContinuousClock.now + fallback
            // Nothing waits: only a ring brings work. Due in the past after a run: it cannot be
            // done yet (no number, say), so look again at the fallback rather than spin.
            if let next, next.timeIntervalSinceNow > 0, next.timeIntervalSinceNow < 86_400 {
                deadline = ContinuousClock.now + .milliseconds(Int64(next.timeIntervalSinceNow * 1000) + 5)
            } else if next == nil {
                deadline = ContinuousClock.now + .seconds(86_400)
            }
            await context.timersBell.wait(until: deadline)
        }
    }

    /// Does the clock-driven work due now in one store transaction and logs it.
    /// - Returns: When the next piece falls due (nil: nothing waits, or the store failed).
    @discardableResult
    func keepTimers(logger: Logger) async -> Date? {
        let intervals = context.intervals
        let timing = DueWork.Timing(
            longTextTimeout: intervals.longTextTimeoutSeconds, acknowledgementDelay: intervals.acknowledgementDelaySeconds,
            acknowledgementTimeout: intervals.acknowledgementTimeoutSeconds)
        do {
            let outcome = try await context.store.write { tx in
                var rng = SystemRandomNumberGenerator()
                return try DueWork.run(in: tx, timing: timing, now: Date(), using: &rng)
            }
            for id in outcome.released {
                logger.notice(
                    "A long text is shown with parts missing; they did not arrive in time.", metadata: [GatewayLog.message: "\(id)"])
            }
            if outcome.queued > 0 { logger.info("Acknowledgements queued.", metadata: [GatewayLog.count: "\(outcome.queued)"]) }
            if outcome.resent > 0 {
                logger.notice("SMS not acknowledged in time are sent again.", metadata: [GatewayLog.count: "\(outcome.resent)"])
            }
            if outcome.givenUp > 0 {
                logger.warning(
                    "SMS never acknowledged are given up; their messages failed.", metadata: [GatewayLog.count: "\(outcome.givenUp)"])
            }
            if outcome.queuedOutbox { context.outboxWake.wake() }
            return outcome.nextDue
        } catch {
            logger.warning(
                "Could not hand out waiting long texts or queue acknowledgements and re-sends.", metadata: [GatewayLog.error: "\(error)"])
            return nil
        }
    }
}
