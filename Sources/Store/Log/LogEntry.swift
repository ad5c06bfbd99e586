public import Foundation

/// Which way a logged message went.
public enum MessageDirection: String, Sendable, Hashable, Codable {
    case incoming = "in"
    case outgoing = "out"
}

/// What happened to a logged message. A struct rather than an enum so later versions can add
/// statuses without breaking older readers of the same database.
public struct MessageStatus: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Outgoing text encrypted (for copy and paste, not queued).
    public static let encrypted = MessageStatus(rawValue: "encrypted")
    /// Incoming text verified and decrypted.
    public static let decrypted = MessageStatus(rawValue: "decrypted")
    /// Outgoing text waiting in the outbox.
    public static let queued = MessageStatus(rawValue: "queued")
    /// Submitted to the network.
    public static let sent = MessageStatus(rawValue: "sent")
    /// A delivery report confirmed it.
    public static let delivered = MessageStatus(rawValue: "delivered")
    /// Sending failed for good.
    public static let failed = MessageStatus(rawValue: "failed")
    /// An incoming SMS already processed (a replay or a second read from the SIM).
    public static let duplicate = MessageStatus(rawValue: "duplicate")
    /// An incoming SMS that failed verification; no state changed.
    public static let rejected = MessageStatus(rawValue: "rejected")
    /// An incoming SMS that is not encrypted (or from an unknown sender).
    public static let plain = MessageStatus(rawValue: "plain")
    /// A resynchronisation handshake message that did not (yet) put new keys in force: started,
    /// requested by the peer and waiting for the operator, repeated, superseded.
    public static let resync = MessageStatus(rawValue: "resync")
    /// A stored entry the modem could not read or decode; its raw form is the text, as evidence.
    public static let unreadable = MessageStatus(rawValue: "unreadable")
    /// An incoming typed message (docs/PROTOCOL.md §3.4) kept without acting on it: a kind this
    /// version does not handle. The text holds its kind and body; the error says so.
    public static let typed = MessageStatus(rawValue: "typed")
    /// An incoming part of a long text (its segment as text, docs/PROTOCOL.md §8); the whole text
    /// follows as its own `decrypted` row once complete, or as `partial`.
    public static let part = MessageStatus(rawValue: "part")
    /// A long text shown with its missing parts marked: it waited too long, or made room for another.
    public static let partial = MessageStatus(rawValue: "partial")
    /// The peer's gateway acknowledged every SMS of the outgoing message (docs/PROTOCOL.md §9).
    public static let acknowledged = MessageStatus(rawValue: "acknowledged")
    /// A resynchronisation that completed: new keys are in force from this message on.
    public static let resynced = MessageStatus(rawValue: "resynced")

    /// Every status this version writes, for a filter's choices and its check.
    public static let known: [MessageStatus] = [
        .queued, .sent, .delivered, .acknowledged, .failed, .encrypted, .decrypted, .part, .partial, .rejected, .duplicate, .plain,
        .unreadable, .typed, .resync, .resynced,
    ]

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A message to add to the log with ``StoreTransaction/appendLog(_:)``.
public struct NewLogEntry: Sendable, Hashable {
    public var time: Date
    public var direction: MessageDirection
    /// The contact, or nil for an unknown sender.
    public var contactID: UUID?
    /// The number the SMS came from or went to (may be an alphanumeric sender id), if any.
    public var remoteNumber: String?
    public var status: MessageStatus
    /// The plaintext; stored encrypted.
    public var text: String?
    /// The 160-character ciphertext as sent or received (not secret).
    public var ciphertext: String?
    /// What went wrong, in a plain sentence (never key material).
    public var error: String?
    /// The received PDU's fingerprint as the modem computed it, for incoming SMS; the store
    /// keeps only its keyed form.
    public var fingerprint: String?

    /// - Parameters:
    ///   - contact: The contact; its number is used when `remoteNumber` is nil.
    public init(
        time: Date = Date(),
        direction: MessageDirection,
        contact: Contact?,
        remoteNumber: String? = nil,
        status: MessageStatus,
        text: String? = nil,
        ciphertext: String? = nil,
        error: String? = nil,
        fingerprint: String? = nil
    ) {
        self.time = time
        self.direction = direction
        self.contactID = contact?.id
        self.remoteNumber = remoteNumber ?? contact?.number?.e164
        self.status = status
        self.text = text
        self.ciphertext = ciphertext
        self.error = error
        self.fingerprint = fingerprint
    }
}

/// A message as read back from the log, its text decrypted.
public struct LogEntry: Sendable, Hashable, Codable, Identifiable {
    /// Increasing with insertion order; use it with `afterId` to follow the log.
    public var id: Int64
    public var time: Date
    public var direction: MessageDirection
    public var contactID: UUID?
    /// The contact's current name, or nil for an unknown sender.
    public var contactName: String?
    public var remoteNumber: String?
    public var status: MessageStatus
    public var text: String?
    public var ciphertext: String?
    public var error: String?
    /// The keyed fingerprint of the received PDU (HMAC under a key derived from the data key),
    /// not the modem's raw one.
    public var fingerprint: String?
    /// The change feed's number for the message's latest status (see ``LogEvent``): a reader of
    /// ``StoreReader/logEvents(after:selection:limit:)`` that starts after it misses nothing newer.
    public var sequence: Int64
}

extension LogEntry {
    /// The columns ``init(row:dataKey:)`` reads, from `messages m` joined with `contacts c`.
    static let columns = """
        m.id, m.uuid, m.time, m.direction, m.contact_id, c.name AS contact_name, m.remote_number,
            m.status, m.text, m.ciphertext, m.error, m.fingerprint,
            (SELECT MAX(e.seq) FROM message_events e WHERE e.message_id = m.id) AS sequence
        """

    static let selection = "SELECT \(columns) FROM messages m LEFT JOIN contacts c ON c.id = m.contact_id"

    /// The entry ``StoreTransaction/appendLog(_:)`` wrote as `id`, as a read in the same
    /// transaction would return it, without the read: the time as stored (seconds since 1970),
    /// the text in the clear. Only for an entry without a received fingerprint (the store keeps
    /// that in a keyed form only a read gives), that is an outgoing one.
    ///
    /// - Parameters:
    ///   - contactName: The contact's name as stored now (nil without a contact).
    ///   - sequence: The change feed's number of its status (its ``MessageStateChange``'s).
    public init(written entry: NewLogEntry, id: Int64, contactName: String?, sequence: Int64) {
        precondition(entry.fingerprint == nil, "A received entry's fingerprint is stored keyed; read the entry back.")
        self.init(
            id: id, time: Date(timeIntervalSince1970: entry.time.timeIntervalSince1970), direction: entry.direction,
            contactID: entry.contactID, contactName: entry.contactID == nil ? nil : contactName,
            remoteNumber: entry.remoteNumber, status: entry.status, text: entry.text, ciphertext: entry.ciphertext,
            error: entry.error, fingerprint: nil, sequence: sequence)
    }

    init(row: StoreRow, dataKey: DataKey) throws {
        let uuid = try UUID.fromStore(row["uuid"])
        let sealed: Data? = row["text"]
        let contactID: String? = row["contact_id"]
        guard let direction = MessageDirection(rawValue: row["direction"]) else {
            throw StoreError.corrupted("A logged message has an unknown direction; restore the database from a backup.")
        }
        self.init(
            id: row["id"],
            time: Date(timeIntervalSince1970: row["time"]),
            direction: direction,
            contactID: try contactID.map { value throws(StoreError) in try UUID.fromStore(value) },
            contactName: row["contact_name"],
            remoteNumber: row["remote_number"],
            status: MessageStatus(rawValue: row["status"]),
            text: try sealed.map { blob throws(StoreError) in try dataKey.openString(blob, for: .messageText(uuid)) },
            ciphertext: row["ciphertext"],
            error: row["error"],
            fingerprint: row["fingerprint"],
            sequence: row["sequence"] ?? 0
        )
    }
}
