/// What one read of a modem's SMS storage found, from ``GammuModem/storage()``.
public struct StorageListing: Sendable, Hashable {
    /// Received texts and status reports.
    public var messages: [StoredMessage] = []
    /// SMS-SUBMIT copies in the outbox folders (drafts and sent copies that another program
    /// stored): never incoming, so never processed; they take storage space all the same.
    public var outboxCopies: [StoredMessage.Location] = []
    /// Entries neither the modem nor libgammu could read or decode, each with its raw form.
    public var unreadable: [UnreadableEntry] = []
    /// How full the storage is, when it was read (only when the fast listing failed, or on
    /// request with ``GammuModem/storageUsage()``).
    public var usage: StorageUsage?

    public init(
        messages: [StoredMessage] = [], outboxCopies: [StoredMessage.Location] = [],
        unreadable: [UnreadableEntry] = [], usage: StorageUsage? = nil
    ) {
        self.messages = messages
        self.outboxCopies = outboxCopies
        self.unreadable = unreadable
        self.usage = usage
    }
}

/// A stored entry that could not be read: its location, its raw form as evidence, and why.
///
/// The raw form holds the modem's answer to reading it (for an AT modem the `+CMGR` line and the
/// PDU as it came), so it may hold a message text: store it like one, never log it.
public struct UnreadableEntry: Sendable, Hashable {
    /// Where it sits; ``GammuModem/delete(_:)`` takes it.
    public var location: StoredMessage.Location
    /// The modem's answer when the entry was read, one line each, without the command itself.
    public var evidence: [String]
    /// libgammu's error name, for example `ERR_CORRUPTED`.
    public var reason: String
    /// A SHA-256 based fingerprint of location and evidence: the same entry read again has the
    /// same one, so it is reported once.
    public var fingerprint: String

    public init(location: StoredMessage.Location, evidence: [String], reason: String, fingerprint: String) {
        self.location = location
        self.evidence = evidence
        self.reason = reason
        self.fingerprint = fingerprint
    }
}

/// How many SMS each memory holds and can hold (`GSM_GetSMSStatus`, AT+CPMS).
public struct StorageUsage: Sendable, Hashable {
    public var simUsed: Int
    public var simSize: Int
    public var phoneUsed: Int
    public var phoneSize: Int

    public init(simUsed: Int, simSize: Int, phoneUsed: Int, phoneSize: Int) {
        self.simUsed = simUsed
        self.simSize = simSize
        self.phoneUsed = phoneUsed
        self.phoneSize = phoneSize
    }

    /// Whether a memory that exists has no free slot: the network then holds new SMS back.
    public var isFull: Bool {
        (simSize > 0 && simUsed >= simSize) || (phoneSize > 0 && phoneUsed >= phoneSize)
    }
}
