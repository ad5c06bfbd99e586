/// Why a modem operation failed, what it means and what to do, in one value.
///
/// A struct with a ``Code`` (grow it with new static constants, as GRDB's `ResultCode` does) plus the
/// raw causes when there are some: the libgammu error name and the modem's `+CMS ERROR` / `+CME ERROR`
/// number. ``isRetryable`` says whether trying the same operation later can succeed. Never carries a PIN.
public struct ModemError: Error, Sendable, Hashable {
    /// The kind of failure.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The operation overran its deadline; the watchdog aborted it. The modem needs recovery.
        public static let timeout = Code(rawValue: "timeout")
        /// The SMS was handed to the modem but no confirmation came back: it may have gone out.
        public static let ambiguousSend = Code(rawValue: "ambiguousSend")
        /// The SIM rejected the configured PIN. Never retried automatically.
        public static let wrongPIN = Code(rawValue: "wrongPIN")
        /// The SIM asks for a PIN and none is configured.
        public static let pinRequired = Code(rawValue: "pinRequired")
        /// The SIM is PUK-locked (or asks for another code than the PIN).
        public static let simLocked = Code(rawValue: "simLocked")
        /// No SIM card in the modem, or the SIM failed.
        public static let noSIM = Code(rawValue: "noSIM")
        /// The device path does not exist (unplugged, wrong path).
        public static let deviceNotFound = Code(rawValue: "deviceNotFound")
        /// The device exists but could not be opened (permissions, busy, locked).
        public static let deviceOpenFailed = Code(rawValue: "deviceOpenFailed")
        /// Reading or writing the device failed: the modem was unplugged or reset.
        public static let deviceGone = Code(rawValue: "deviceGone")
        /// No connection: call ``GammuModem/connect()`` (or ``GammuModem/reopen()``) first.
        public static let notConnected = Code(rawValue: "notConnected")
        /// The message storage is full.
        public static let storageFull = Code(rawValue: "storageFull")
        /// The network or the SMSC refused the SMS (see ``ModemError/cmsError``).
        public static let sendRejected = Code(rawValue: "sendRejected")
        /// The text is not exactly one GSM-7 SMS.
        public static let invalidMessage = Code(rawValue: "invalidMessage")
        /// The destination number is not a phone number.
        public static let invalidNumber = Code(rawValue: "invalidNumber")
        /// The SMSC number could not be read or is empty.
        public static let smscUnavailable = Code(rawValue: "smscUnavailable")
        /// The message location is empty or does not exist.
        public static let invalidLocation = Code(rawValue: "invalidLocation")
        /// The modem or its driver does not support the operation.
        public static let notSupported = Code(rawValue: "notSupported")
        /// The configuration or gammurc file is unusable.
        public static let configuration = Code(rawValue: "configuration")
        /// Any other modem or libgammu failure.
        public static let modemFailure = Code(rawValue: "modemFailure")
    }

    /// The kind of failure.
    public var code: Code
    /// What happened and what to do, in plain sentences.
    public var message: String
    /// The libgammu error name (`"TIMEOUT"`, `"DEVICENOTEXIST"`, …) when libgammu reported one.
    public var gammuError: String?
    /// The `+CMS ERROR` number the modem reported, if any (3GPP TS 27.005 §3.2.5).
    public var cmsError: Int?
    /// The `+CME ERROR` number the modem reported, if any (3GPP TS 27.007 §9.2).
    public var cmeError: Int?

    /// Creates an error.
    public init(_ code: Code, _ message: String, gammuError: String? = nil, cmsError: Int? = nil, cmeError: Int? = nil) {
        self.code = code
        self.message = message
        self.gammuError = gammuError
        self.cmsError = cmsError
        self.cmeError = cmeError
    }

    /// Whether the same operation may succeed later without a person changing something.
    ///
    /// For ``Code/ambiguousSend`` this is `true` in one sense only: resend the SAME stored text (the
    /// peer drops a duplicate), never encrypt new text for the same slot.
    public var isRetryable: Bool {
        if let cms = cmsError { return code == .sendRejected ? Self.isTemporarySendCMS(cms) : Self.isTemporaryCMS(cms) }
        if let cme = cmeError { return Self.isTemporaryCME(cme) }
        switch code {
        case .timeout, .ambiguousSend, .deviceNotFound, .deviceGone, .notConnected, .storageFull,
            .smscUnavailable, .modemFailure, .deviceOpenFailed:
            return true
        default:
            return false
        }
    }

    /// Whether the SMS may have reached the network although the call failed.
    public var mayHaveBeenSent: Bool { code == .ambiguousSend }

    /// Whether the modem should be probed, reset or reopened before the next call.
    public var needsRecovery: Bool {
        [.timeout, .ambiguousSend, .deviceGone, .deviceNotFound, .notConnected].contains(code)
    }

    public var description: String {
        let suffix = causes.isEmpty ? "" : " (\(causes.joined(separator: "; ")))"
        return message + suffix
    }

    /// The raw causes by their numbers and names: the modem's `+CMS ERROR` and `+CME ERROR`, libgammu's error.
    var causes: [String] {
        var causes: [String] = []
        if let cmsError { causes.append("+CMS ERROR \(cmsError): \(Self.cmsMeaning(cmsError))") }
        if let cmeError { causes.append("+CME ERROR \(cmeError)") }
        if let gammuError { causes.append("libgammu \(gammuError)") }
        return causes
    }
}

extension ModemError {
    static func timeout(_ operation: String, after limit: Duration) -> ModemError {
        ModemError(
            .timeout,
            "The modem did not finish \(operation) within \(limit); the call was aborted. "
                + "Probe the modem, then reset the radio or reopen the port if it stays silent."
        )
    }

    static func ambiguousSend(after limit: Duration) -> ModemError {
        ModemError(
            .ambiguousSend,
            "The SMS was handed to the modem but no confirmation arrived within \(limit), so it may "
                + "have been sent. Resend the same text later or wait for a delivery report; never "
                + "encrypt new text for it."
        )
    }

    static let notConnected = ModemError(
        .notConnected, "The modem is not connected. Call connect() or reopen() first."
    )
}
