public import Foundation

/// A person the gateway exchanges encrypted SMS with. Holds no secret: the pairing code and
/// the ratchet state are read separately, decrypted, inside a transaction.
public struct Contact: Sendable, Hashable, Codable, Identifiable {
    /// A random identifier, stable for the contact's life; it names the contact's secrets' AAD.
    public var id: UUID
    /// The display name: unique without regard to case, 1 to 64 characters.
    public var name: String
    /// The contact's number, or nil for a phone-only peer reached by copy and paste.
    public var number: PhoneNumber?
    /// Further numbers of the same peer (a peer gateway with several modems): SMS from any of
    /// them are this contact's, and SMS to the contact go to ``numbers`` in turn.
    public var otherNumbers: [PhoneNumber] = []
    /// The modem (its `name` in the gateway configuration) that sends to this contact while it
    /// is ready; nil lets any modem send. When the pinned modem is not ready, the others take over.
    public var modem: String?
    /// Whether the two sides have exchanged pairing codes yet.
    public var pairingState: PairingState
    public var createdAt: Date
    public var updatedAt: Date
    /// When an SMS to this contact was last sent, if ever.
    public var lastSentAt: Date?
    /// When an SMS from this contact was last received, if ever.
    public var lastReceivedAt: Date?
    /// Consecutive incoming messages that failed verification.
    public var verificationFailures: Int
    /// The protocol version the peer speaks (docs/PROTOCOL.md §10): 2 for contacts added since
    /// version 2, 1 for older ones until set or until the peer sends a typed message.
    public var protocolVersion: Int = 2
    /// Whether this side acknowledges what it decrypts from the contact, and expects the
    /// contact's gateway to do the same (docs/PROTOCOL.md §9; off by default: each costs an SMS).
    public var acknowledgements = false
    /// When a restore put this side's keys for the contact back to a backup's, until a resync
    /// with the contact (or a manual re-pairing) completes; nil otherwise. A message from the
    /// contact that opens does not clear it: the keys this side seals with are still rewound.
    public var keysRestoredAt: Date?

    /// Every number of the contact, the main one first; empty for a copy-and-paste peer.
    public var numbers: [PhoneNumber] { number.map { [$0] + otherNumbers } ?? [] }
}

/// A contact's pairing progress.
public enum PairingState: String, Sendable, Hashable, Codable {
    /// Our pairing code is stored (encrypted) until the peer's code is entered.
    case pending
    /// A session (ratchet state) exists.
    case paired
}

extension Contact {
    /// The non-secret columns, in the order ``init(row:)`` reads them.
    static let columns = """
        id, name, phone_number, pairing_state, created_at, updated_at, last_sent_at,
        last_received_at, verification_failures, modem, protocol_version, acks, keys_restored_at
        """

    init(row: StoreRow) throws {
        let number: String? = row["phone_number"]
        let stateName: String = row["pairing_state"]
        guard let state = PairingState(rawValue: stateName) else {
            throw StoreError.corrupted("A contact has an unknown pairing state; restore the database from a backup.")
        }
        self.init(
            id: try UUID.fromStore(row["id"]),
            name: row["name"],
            number: try number.map { value throws(StoreError) in try PhoneNumber(storedE164: value) },
            pairingState: state,
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            updatedAt: Date(timeIntervalSince1970: row["updated_at"]),
            lastSentAt: (row["last_sent_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            lastReceivedAt: (row["last_received_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
            verificationFailures: row["verification_failures"]
        )
        self.modem = row["modem"]
        self.protocolVersion = row["protocol_version"]
        self.acknowledgements = row["acks"]
        self.keysRestoredAt = (row["keys_restored_at"] as Double?).map(Date.init(timeIntervalSince1970:))
    }
}

/// Rules for names of contacts and OTP entries: trimmed, NFC, 1 to 64 characters, no control characters.
enum NameRules {
    /// The validated display name and the key that makes uniqueness case-insensitive.
    static func validate(_ raw: String, what: String) throws(StoreError) -> (name: String, key: String) {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        guard !name.isEmpty else {
            throw .invalidInput("The \(what) name is empty; give 1 to 64 characters.")
        }
        guard name.count <= 64 else {
            throw .invalidInput("The \(what) name is \(name.count) characters long; shorten it to 64 at most.")
        }
        guard !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else {
            throw .invalidInput("The \(what) name contains control characters; use printable characters only.")
        }
        return (name, key(for: name))
    }

    /// The case-folded lookup key for a name (also used to find names as typed).
    static func key(for name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines)
            .precomposedStringWithCanonicalMapping
            .folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }
}
