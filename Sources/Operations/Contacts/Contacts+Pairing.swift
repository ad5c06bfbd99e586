public import Foundation
public import SMSCipher
public import Store

extension Contacts {
    /// Enters the peer's pairing code: combines it with this side's into a session and returns the
    /// safety code both people compare; one transaction.
    ///
    /// After a manual re-pairing (``startRePairing(_:store:using:)``) this completes it and keeps
    /// the old receive chain for the grace period, so messages sent before still open.
    ///
    /// - Parameters:
    ///   - contactName: The contact's name.
    ///   - code: The code the peer gave.
    ///   - now: The clock, from which the old chain's grace period runs.
    /// - Throws: ``ContactError/alreadyPaired(contact:)`` when no pairing waits for a code;
    ///   ``ContactError/codeFromBeforeRestore(contact:)`` when the waiting code came back with a
    ///   restored backup taken before the pairing completed (its keys were used already);
    ///   ``SMSCipher/CipherError/invalidPairing(_:)`` for this side's own code.
    public static func pair(_ contactName: String, code: PairingCode, store: UnlockedStore, now: Date) throws -> PairedContact {
        try store.write { tx in
            let contact = try tx.contact(named: contactName)
            guard let mine = try tx.loadPairingCode(for: contact) else { throw ContactError.alreadyPaired(contact: contact.name) }
            let current = try tx.loadSession(for: contact)
            // Not paired, yet marked by a restore: the code is the backup's, whose keys the
            // replaced store paired with and used (``startRePairing`` replaces it and the mark).
            if current == nil, contact.keysRestoredAt != nil { throw ContactError.codeFromBeforeRestore(contact: contact.name) }
            let session =
                try current.map { try $0.repaired(mine: mine, peer: code, now: now) }
                ?? Session.paired(mine: mine, peer: code)
            try tx.savePaired(session, for: contact)
            return PairedContact(name: contact.name, safetyCode: session.safetyCode, rePaired: current != nil)
        }
    }

    /// Starts a manual re-pairing (new codes exchanged in person, the fallback when a resync over
    /// SMS cannot help): stores a new pairing code and keeps the current session, so messages keep
    /// flowing until ``pair(_:code:store:now:)`` completes it; one transaction. Without a session
    /// it replaces the code (one lost, or one a restore brought back from before the pairing,
    /// whose mark it clears: the new code has never made keys).
    ///
    /// - Returns: This side's new code to give the peer.
    public static func startRePairing(
        _ contactName: String, store: UnlockedStore, using rng: inout some RandomNumberGenerator
    ) throws -> RePairing {
        let code = PairingCode.generate(using: &rng)
        return try store.write { tx in
            let contact = try tx.contact(named: contactName)
            let current = try tx.session(for: contact)
            try tx.resetPairing(contact, pairingCode: code.storedData)
            // resetPairing forgets the session; put it back so messages keep flowing until the
            // re-pairing completes (and so pairing can keep its receive chain for late ones).
            if let current { try tx.setSession(current, for: contact) } else { try tx.clearPairingLost(contact) }
            return RePairing(name: contact.name, pairingCode: code.grouped)
        }
    }
}

/// What ``Contacts/pair(_:code:store:now:)`` did.
///
/// Its JSON is `{"name","safetyCode"}`.
public struct PairedContact: Sendable, Equatable, Encodable {
    /// The name as stored.
    public var name: String
    /// Six digits as "123 456" that both people read to each other: they match when both codes
    /// were entered right.
    public var safetyCode: String
    /// Whether this completed a manual re-pairing (a session existed before).
    public var rePaired: Bool

    enum CodingKeys: String, CodingKey { case name, safetyCode }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(safetyCode, forKey: .safetyCode)
    }
}

/// What ``Contacts/startRePairing(_:store:using:)`` stored.
///
/// Its JSON is `{"name","pairingCode"}`.
public struct RePairing: Sendable, Equatable, Encodable {
    /// The name as stored.
    public var name: String
    /// This side's new code, grouped for reading aloud.
    public var pairingCode: String
}
