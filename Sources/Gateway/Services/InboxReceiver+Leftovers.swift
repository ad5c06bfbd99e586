import Foundation
import Logging
import Modem
import Store

/// What could otherwise stay on a modem for ever: parts whose group never completes, entries that
/// cannot be read, and whatever fills the storage.
extension InboxReceiver {
    /// Parts one sender may have waiting on one modem; beyond it, that sender's oldest groups are
    /// logged as partial and deleted, so one sender cannot fill the SIM (a bulk SMS API sends
    /// parts of a long SMS that will never be completed as easily as anything else).
    static let partsPerSender = 10

    /// A group of parts still waiting for the rest, and since when.
    struct WaitingGroup {
        var key: PartialGroupKey
        var parts: [StoredMessage]
        var firstSeen: Date
    }

    /// Processes complete groups, records when incomplete ones were first seen, and logs as
    /// partial (then deletes) those that waited too long or whose sender has too many waiting.
    /// - Returns: The groups still waiting, oldest first.
    func handleGroups(
        _ groups: [PartialGroupKey: [StoredMessage]], link: ModemLink, logger: Logger, left: inout InboxLeftovers
    ) async -> [WaitingGroup] {
        var incomplete: [PartialGroupKey: [StoredMessage]] = [:]
        for (key, parts) in groups {
            let distinct = Set(parts.compactMap { $0.concatenation?.part })
            if key.total > 0, (1...key.total).allSatisfy(distinct.contains) {
                await flush(parts, note: nil, link: link, logger: logger, left: &left)
            } else {
                incomplete[key] = parts
            }
        }
        let name = link.name
        let keys = Set(incomplete.keys)
        guard let firstSeen = try? await context.store.write(.database, { tx in try tx.notePartialGroups(keys, modem: name) }) else {
            return []
        }
        var waiting = incomplete.map { WaitingGroup(key: $0.key, parts: $0.value, firstSeen: firstSeen[$0.key] ?? Date()) }
            .sorted { $0.firstSeen < $1.firstSeen }
        let timeout = context.intervals.partTimeoutSeconds
        let now = Date()
        for group in waiting where now.timeIntervalSince(group.firstSeen) >= timeout {
            let note = "the rest did not arrive within \(Int(timeout)) seconds"
            await flush(group.parts, note: Self.partialNote(group, because: note), link: link, logger: logger, left: &left)
        }
        waiting.removeAll { now.timeIntervalSince($0.firstSeen) >= timeout }
        var perSender = Dictionary(grouping: waiting, by: \.key.sender).mapValues { $0.reduce(0) { $0 + $1.parts.count } }
        var kept: [WaitingGroup] = []
        for group in waiting {  // oldest first: a sender over the cap loses its oldest groups
            if let count = perSender[group.key.sender], count > Self.partsPerSender {
                perSender[group.key.sender] = count - group.parts.count
                let note = "more than \(Self.partsPerSender) parts from this sender were waiting"
                await flush(group.parts, note: Self.partialNote(group, because: note), link: link, logger: logger, left: &left)
            } else {
                kept.append(group)
            }
        }
        return kept
    }

    /// When the storage is full after everything was committed: logs the oldest waiting parts as
    /// partial and deletes them, then deletes outbox copies, until a fifth of it is free again.
    /// A contact's SMS is never among them: every one was committed and deleted before this.
    func freeStorageIfFull(
        waiting: [WaitingGroup], listing: StorageListing, link: ModemLink, logger: Logger, left: inout InboxLeftovers
    ) async {
        let reported = link.takeStorageFullReport()
        let leftovers = waiting.count + listing.outboxCopies.count
        guard reported || leftovers > 0 || listing.usage?.isFull == true else { return }
        guard let usage = try? await link.call({ try await $0.storageUsage() }), usage.isFull else { return }
        var wanted = max(1, max(usage.simSize, usage.phoneSize) / 5)
        var freed = 0
        for group in waiting where wanted > 0 {
            let note = "the modem's storage was full"
            await flush(group.parts, note: Self.partialNote(group, because: note), link: link, logger: logger, left: &left)
            wanted -= group.parts.count
            freed += group.parts.count
        }
        for location in listing.outboxCopies.prefix(max(0, wanted)) {
            await delete(location, fingerprint: "outbox:\(location)", link: link, logger: logger)
            freed += 1
        }
        logger.warning(
            "The modem's SMS storage was full; waiting parts and outbox copies were removed to make room.",
            metadata: [
                GatewayLog.count: "\(freed)"
            ])
    }

    /// Logs an entry that cannot be read (once: its fingerprint is recorded), then deletes it.
    /// One the store refuses stays on the modem and is counted in `left` (the caller says so once
    /// per refusal, ``EntryRefusals``).
    func handleUnreadable(_ entry: UnreadableEntry, link: ModemLink, logger: Logger, left: inout InboxLeftovers) async {
        let name = link.name
        do {
            let logged = try await context.store.write { tx in try IncomingProcessor.recordUnreadable(entry, modem: name, in: tx) }
            if logged {
                logger.warning(
                    "The modem held an entry it cannot read; its raw form is in the message log and it is deleted from the modem.",
                    metadata: [
                        GatewayLog.error: "\(entry.reason) at \(entry.location)"
                    ])
            }
        } catch {
            left.refusedUnreadable += 1
            left.error = "\(error)"
            return
        }
        await delete(entry.location, fingerprint: entry.fingerprint, link: link, logger: logger)
    }

    /// Logs parts (all of a group, or what arrived with a note saying why) and deletes them; parts
    /// the store refused stay on the modem and are counted in `left`.
    private func flush(_ parts: [StoredMessage], note: String?, link: ModemLink, logger: Logger, left: inout InboxLeftovers) async {
        do {
            let sender = parts.first.flatMap { try? PhoneNumber($0.number) }
            let outcome = try await context.store.write(.contact(number: sender)) { tx in
                try IncomingProcessor.processParts(parts, note: note, resync: context.resync, in: tx)
            }
            await record(outcome, link: link, logger: logger)
            for part in parts { await delete(part.location, fingerprint: part.fingerprint, link: link, logger: logger) }
        } catch {
            left.refusedConcatenated += 1
            left.error = "\(error)"
        }
    }

    /// "Incomplete long SMS: parts 1, 3 of 4 arrived; …"
    static func partialNote(_ group: WaitingGroup, because reason: String) -> String {
        let numbers = Set(group.parts.compactMap { $0.concatenation?.part }).sorted().map(String.init)
        let which = numbers.count == 1 ? "part \(numbers[0])" : "parts \(numbers.joined(separator: ", "))"
        return
            "Incomplete long SMS: only \(which) of \(group.key.total) arrived, and \(reason); what arrived is logged here and was deleted from the modem."
    }
}
