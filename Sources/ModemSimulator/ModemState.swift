/// An SMS in a simulated modem's memory, as +CMGL and +CMGR list it.
struct StoredMessage: Sendable, Equatable {
    /// `<stat>` of 3GPP TS 27.005: 0 received unread, 1 received read, 2 stored unsent, 3 stored sent.
    var status: Int
    /// SMSC address followed by the TPDU.
    var pdu: [UInt8]
    /// Octets of the TPDU alone (`<length>`).
    var tpduLength: Int
    /// The PDU line exactly as +CMGL and +CMGR show it, when it is not the hex of ``pdu``: an
    /// entry that firmware or a flash fault garbled (see ``SimulatedModem/store(line:status:)``).
    var rawLine: String? = nil

    /// The PDU line +CMGL and +CMGR print.
    var pduLine: String { rawLine ?? Hex.encode(pdu) }
}

/// The SIM's PIN state as AT+CPIN? reports it.
enum SIMLockState: Sendable, Equatable {
    case ready
    case pinRequired
    case pukRequired
}

/// Everything an AT modem remembers between commands. Guarded by ``SimulatedModem``'s mutex.
struct ModemState: Sendable {
    // Terminal settings.
    var echo = true
    var verbose = true
    var cmee = 0
    var textMode = false
    var characterSet = "GSM"
    /// AT+CNMI <mode>,<mt>,<bm>,<ds>,<bfr>; the default stores SMS and reports with +CMTI/+CDSI.
    var cnmi = [2, 1, 0, 2, 0]
    var cregMode = 0
    var copsFormat = 0
    var csmp = [17, 167, 0, 0]
    var serviceCentre = "+15550000"

    // SIM and radio.
    var pin: String?
    var lock: SIMLockState = .ready
    var pinAttempts = 3
    var radioOn = true

    // Memory: "SM" and "ME", each index 1...capacity.
    var capacity: Int
    var memories: [String: [Int: StoredMessage]] = ["SM": [:], "ME": [:]]
    /// AT+CPMS <mem1> (read, list, delete), <mem2> (write, send), <mem3> (receive).
    var readMemory = "SM"
    var writeMemory = "SM"
    var receiveMemory = "SM"

    // Link.
    var hung = false
    var plugged = false
    var inputBuffer: [UInt8] = []
    /// Set between AT+CMGS=<length> and the Ctrl-Z that ends its PDU.
    var pendingSend: PendingSend?
    /// Unsolicited result codes held back while a command is being answered.
    var heldUnsolicited: [String] = []
    var busy = false
    /// Whether the modem offers only <mt> 2 in AT+CNMI=?, so a client asks for +CMT delivery.
    var directDelivery = false

    // Counters.
    var nextMessageReference: UInt8 = 1
    var submitted = 0
    var delivered = 0
    var generation = 0

    init(capacity: Int, pin: String?) {
        self.capacity = capacity
        self.pin = pin
        self.lock = pin == nil ? .ready : .pinRequired
    }

    /// The lowest free index in `memory`, or `nil` when it is full.
    func freeIndex(in memory: String) -> Int? {
        let used = memories[memory] ?? [:]
        return (1...max(capacity, 1)).first { used[$0] == nil && $0 <= capacity }
    }

    func count(in memory: String) -> Int { memories[memory]?.count ?? 0 }
}

/// What AT+CMGS is waiting for after its "> " prompt.
struct PendingSend: Sendable {
    /// `<length>` in PDU mode; 0 in text mode.
    var length: Int
    /// The destination in text mode.
    var textDestination: String?
    var buffer: [UInt8] = []
}
