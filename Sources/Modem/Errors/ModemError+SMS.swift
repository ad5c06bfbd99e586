extension ModemError {
    /// Why an SMS sent through the modem named `modem` failed, as the SMS's own record keeps it.
    ///
    /// Every reader of the message sees that record (a console viewer, an API token with the read
    /// scope), so it holds only what may be shown to them: the modem by its configured name, the
    /// kind of failure and the modem's or libgammu's error number. Never the device path, nor a text
    /// of the host or of libgammu (a ``message`` may carry those); the modem's status and the log
    /// keep the whole ``description`` for those who run the gateway.
    ///
    /// A refusal by the network or the modem (``Code/sendRejected``) keeps its ``message``, which
    /// this module writes from the error number alone and which says whether a retry helps.
    public func sentence(forSMSThrough modem: String) -> String {
        let lead: String
        switch code {
        case .sendRejected: lead = message
        case .timeout: lead = "The modem did not answer in time."
        case .ambiguousSend: lead = "The SMS was handed to the modem but no confirmation arrived, so it may have been sent."
        case .deviceNotFound, .deviceOpenFailed, .deviceGone, .notConnected:
            lead = "The modem could not be reached (unplugged, reset or held by another program)."
        case .storageFull: lead = "The modem's message storage is full."
        case .noSIM, .pinRequired, .wrongPIN, .simLocked:
            lead = "The modem has no usable SIM (missing, failed, locked or waiting for its PIN)."
        case .smscUnavailable: lead = "The modem could not read its SMSC number."
        case .invalidMessage, .invalidNumber: lead = "The modem could not take the SMS: its text or number does not fit one SMS."
        case .notSupported: lead = "The modem does not support sending this SMS."
        case .configuration: lead = "The modem's configuration is unusable."
        default: lead = "The modem failed."
        }
        let named = "modem \"\(modem)\""
        return lead + " (\(([named] + causes).joined(separator: "; ")))"
    }
}
