/// What the gateway needs from one modem: open and reopen it, see whether it answers, send, list
/// and delete stored SMS, read its health, and hear what it announces.
///
/// ``GammuModem`` is the real one (libgammu on a serial port); tests drive the gateway's services
/// with an in-memory double. A conforming type runs at most one call at a time per modem only if
/// its caller asks so: the gateway serialises calls itself.
///
/// Every call throws ``ModemError``, whose ``ModemError/needsRecovery``, ``ModemError/isRetryable``
/// and ``ModemError/mayHaveBeenSent`` tell the caller what to do next.
public protocol SMSModem: AnyObject, Sendable {
    /// The modem's name in the configuration, for logs.
    var name: String { get }
    /// The device as configured or as the gammurc names it (a path, or a non-path gammu device).
    var device: String { get }
    /// Whether ``device`` is there to be opened: false for a path that does not exist (unplugged).
    var deviceIsPresent: Bool { get }
    /// Unsolicited events: new messages, direct deliveries, status reports, a full storage,
    /// disconnection. One consumer.
    var events: AsyncStream<ModemEvent> { get }
    /// Whether the modem is connected as far as this object knows.
    var isConnected: Bool { get }
    /// Whether a call timed out or the device failed since the last successful (re)connect.
    var needsRecovery: Bool { get }
    /// Whether the modem announces new messages itself (+CMTI), so its storage need not be polled.
    var supportsNotifications: Bool { get }

    /// Opens the port and initialises the modem, entering the PIN at most once per refusal rule.
    func connect() async throws(ModemError)
    /// Closes the port and connects again.
    func reopen() async throws(ModemError)
    /// Closes the port; safe when not connected.
    func disconnect() async
    /// A cheap round trip with a short deadline: is the modem answering?
    func probe(timeout: Duration) async throws(ModemError)
    /// Switches the radio off and on again; the port stays open.
    func radioReset() async throws(ModemError)

    /// Sends exactly `text` as one SMS and returns its message reference (TP-MR).
    func send(text: String, to number: String, statusReport: Bool) async throws(ModemError) -> Int
    /// Everything in the modem's storage: received SMS, outbox copies, unreadable entries.
    func storage() async throws(ModemError) -> StorageListing
    /// How many SMS each memory holds and can hold.
    func storageUsage() async throws(ModemError) -> StorageUsage
    /// Deletes one stored entry; ``StoredMessage/Location/notStored`` is left alone.
    func delete(_ location: StoredMessage.Location) async throws(ModemError)
    /// Signal, registration, operator and identity.
    func status() async throws(ModemError) -> ModemStatus
}

extension SMSModem {
    /// Not known to announce anything: the caller polls the storage.
    public var supportsNotifications: Bool { false }
}
