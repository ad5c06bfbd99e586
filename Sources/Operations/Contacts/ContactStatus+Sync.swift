import Foundation
import SMSCipher
public import Store

/// The rules that turn a contact's counters and session into the sync state every front end
/// shows (`ok`, `not paired`, `resync requested`, `resync pending`, `resync unanswered`, `failing`).
///
/// Keys restored from a backup show as `failing` with their own advice (not a count of failures,
/// which stays the true one) until a resync completes; a handshake under way shows as such. A
/// contact the backup knew only as not paired, paired in the replaced store, shows as `not
/// paired` with the advice to pair again from new codes.
public enum SyncPolicy {
    /// Consecutive verification failures after which a contact shows as failing.
    public static let failureThreshold = 3
    /// Sends of one resync handshake in all, the first included; after that it shows as unanswered
    /// and the daemon stops repeating it.
    public static let handshakeAttempts = 6
}

extension ContactStatus {
    /// The contact as every front end shows it, read inside the caller's snapshot.
    ///
    /// A key state that cannot be read shows as not paired here; the operations that use it say why.
    public static func read(_ contact: Contact, in reader: StoreReader) throws -> ContactStatus {
        let session = try? reader.loadSession(for: contact)
        // The daemon writes a row for each modem it drives when it starts, and only those.
        let modemNames = Set(try reader.modemStatuses().map(\.name))
        let modemMissing = contact.modem.map { !modemNames.isEmpty && !modemNames.contains($0) } ?? false
        let attempts = try session?.pendingResyncMessage.map { try reader.outboxAttempts(of: $0, to: contact).count } ?? 0
        var status = ContactStatus(
            contact, session: session, sync: syncState(contact, session: session, handshakeAttempts: attempts),
            lastResync: session?.lastResync.map { GatewayStatus.LastResync(epoch: $0.epoch, completedAt: $0.completedAt) },
            quarantined: try reader.quarantineCount(for: contact), modemMissing: modemMissing)
        status.lastAcknowledgedAt = try reader.lastAcknowledgement(for: contact)
        return status
    }

    /// - Parameter handshakeAttempts: How many times the pending handshake was queued.
    static func syncState(_ contact: Contact, session: Session?, handshakeAttempts: Int = 0) -> GatewayStatus.SyncState {
        var state = syncState(contact.verificationFailures, session: session, handshakeAttempts: handshakeAttempts)
        if session == nil, let restored = contact.keysRestoredAt {
            state.keysRestoredAt = restored
            state.advice = .pairAgainAfterRestore(restoredAt: restored)
        }
        if session != nil, let restored = contact.keysRestoredAt {
            state.keysRestoredAt = restored
            // A handshake not sent yet (one a restore started in place of the backup's) is the advice's to send.
            if state.state == .ok || state.state == .failing || (state.state == .resyncPending && handshakeAttempts == 0) {
                state.state = .failing
                state.advice = .resyncAfterRestore(restoredAt: restored)
            }
        }
        return state
    }

    private static func syncState(_ failures: Int, session: Session?, handshakeAttempts: Int) -> GatewayStatus.SyncState {
        guard let session else {
            return .init(state: .notPaired, consecutiveFailures: failures, advice: .pair)
        }
        if let request = session.resyncRequest {
            return .init(state: .resyncRequested, consecutiveFailures: failures, advice: .decideResyncRequest(code: request.code))
        }
        if let code = session.pendingResyncCode, handshakeAttempts >= SyncPolicy.handshakeAttempts {
            return .init(state: .resyncUnanswered, consecutiveFailures: failures, advice: .restartUnansweredResync(code: code))
        }
        if let code = session.pendingResyncCode {
            return .init(state: .resyncPending, consecutiveFailures: failures, advice: .awaitResyncAnswer(code: code))
        }
        if failures >= SyncPolicy.failureThreshold {
            return .init(state: .failing, consecutiveFailures: failures, advice: .resync(failures: failures))
        }
        return .init(state: .ok, consecutiveFailures: failures, advice: nil)
    }
}
