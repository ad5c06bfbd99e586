public import Foundation

/// One SMS read from the modem's storage (SIM or phone memory): a received text or a status report.
public struct StoredMessage: Sendable, Hashable {
    /// Where a message sits in the modem, as libgammu numbers it; pass it to ``GammuModem/delete(_:)``.
    public struct Location: Sendable, Hashable, CustomStringConvertible {
        /// libgammu's folder number (for AT modems: 1 SIM inbox, 2 SIM outbox, 3 phone inbox, 4 phone outbox).
        public var folder: Int
        /// libgammu's location inside the folder.
        public var index: Int
        /// The storage the folder lives in.
        public var memory: Memory

        public init(folder: Int, index: Int, memory: Memory) {
            self.folder = folder
            self.index = index
            self.memory = memory
        }

        public var description: String { isStored ? "\(memory.rawValue):\(folder)/\(index)" : "not stored" }

        /// Where an SMS the modem handed over directly (+CMT) is: nowhere; deleting it does nothing.
        public static let notStored = Location(folder: 0, index: 0, memory: .other)

        /// Whether the message occupies storage (false for a direct +CMT delivery).
        public var isStored: Bool { index > 0 }
    }

    /// The storage a message lives in.
    public enum Memory: String, Sendable, Hashable {
        case sim = "SM"
        case phone = "ME"
        case other = "other"
    }

    /// How the user data was coded (TP-DCS).
    public enum Coding: String, Sendable, Hashable {
        /// GSM 03.38 default alphabet, 7-bit.
        case gsm7
        /// UCS-2 (UTF-16BE).
        case ucs2
        /// 8-bit data; ``StoredMessage/text`` holds it as lowercase hex.
        case eightBit
        /// Compressed or unknown coding; ``StoredMessage/text`` is whatever libgammu decoded.
        case other
    }

    /// Concatenation info from the user data header (TS 23.040 §9.2.3.24.1).
    public struct Concatenation: Sendable, Hashable {
        /// The reference shared by all parts (8- or 16-bit).
        public var reference: Int
        /// This part's number, from 1.
        public var part: Int
        /// The number of parts.
        public var total: Int

        public init(reference: Int, part: Int, total: Int) {
            self.reference = reference
            self.part = part
            self.total = total
        }
    }

    /// Where the message is stored.
    public var location: Location
    /// The sender (or, for a status report, the recipient of the original SMS).
    public var number: String
    /// The decoded text (GSM-7 and UCS-2 as text, 8-bit as lowercase hex).
    public var text: String
    /// The data coding.
    public var coding: Coding
    /// The SMSC timestamp (TP-SCTS), if the modem gave a valid one.
    public var timestamp: Date?
    /// Concatenation info when the SMS is one part of a longer message.
    public var concatenation: Concatenation?
    /// For a status report: the status, else `nil`.
    public var deliveryStatus: DeliveryStatus?
    /// For a status report: the TP-MR of the SMS it reports on, else `nil`.
    public var messageReference: Int?
    /// A stable fingerprint of the raw fields (SHA-256 over number, timestamp, coding, UDH, text,
    /// status), the same across processes, so the caller can recognise a message it already
    /// handled. Opaque: compare it, never parse it.
    public var fingerprint: String

    /// Whether this is a status report (delivery report) rather than a received text.
    public var isStatusReport: Bool { deliveryStatus != nil }

    public init(
        location: Location, number: String, text: String, coding: Coding, timestamp: Date?,
        concatenation: Concatenation?, deliveryStatus: DeliveryStatus?, messageReference: Int?, fingerprint: String
    ) {
        self.location = location
        self.number = number
        self.text = text
        self.coding = coding
        self.timestamp = timestamp
        self.concatenation = concatenation
        self.deliveryStatus = deliveryStatus
        self.messageReference = messageReference
        self.fingerprint = fingerprint
    }
}

/// The TP-Status of a status report (TS 23.040 §9.2.3.15).
public struct DeliveryStatus: Sendable, Hashable, CustomStringConvertible {
    /// The raw TP-ST octet.
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The SMS reached the recipient (0x00…0x1F: transaction completed).
    public var isDelivered: Bool { rawValue <= 0x1F }
    /// The SMSC is still trying (0x20…0x3F).
    public var isPending: Bool { (0x20...0x3F).contains(rawValue) }
    /// The SMSC gave up (0x40 and above).
    public var isFailed: Bool { rawValue >= 0x40 }

    public var description: String {
        let hex = String(rawValue, radix: 16)
        if isDelivered { return "delivered (0x\(hex))" }
        if isPending { return "pending (0x\(hex))" }
        return "failed (0x\(hex))"
    }
}

/// Something the modem told us without being asked.
public enum ModemEvent: Sendable, Hashable {
    /// A new SMS is in storage: read it with ``GammuModem/storage()``.
    case newMessage
    /// The modem handed an SMS over directly (+CMT) instead of storing it: this event is its only
    /// copy, so process it at once; its location is ``StoredMessage/Location/notStored``.
    case received(StoredMessage)
    /// The modem said its SMS storage is full: new SMS wait at the network until space is freed.
    case storageFull
    /// A status report for the SMS with this TP-MR arrived (it also stays in storage until deleted).
    case statusReport(reference: Int, status: DeliveryStatus)
    /// The device went away (unplugged or closed); recover with ``GammuModem/reopen()``.
    case disconnected
}
