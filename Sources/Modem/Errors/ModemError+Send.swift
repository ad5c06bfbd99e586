/// How a refused send is classified: the CMS table of ``ModemError/isTemporaryCMS(_:)`` with
/// the exceptions a send implies, and the `+CME ERROR` numbers libgammu reports through the same
/// send status.
extension ModemError {
    /// Whether a `+CMS ERROR` answered to AT+CMGS may go away by itself.
    ///
    /// As ``isTemporaryCMS(_:)``, except for the modem's complaints about the command or the
    /// PDU: 302 (operation not allowed), 304 (invalid PDU mode parameter) and 305 (invalid text
    /// mode parameter). The PDU was checked bit for bit against libgammu's own encoder before it
    /// went out, so the modem refusing it means it got other bytes than those (an exchange out of
    /// step: a prompt that came late, the PDU typed while the modem waited for something else) or
    /// was in a state it leaves again (busy, just reset, still reading the SIM). Neither says
    /// anything about the SMS or its destination: the same text sent again goes through.
    static func isTemporarySendCMS(_ code: Int) -> Bool {
        [302, 304, 305].contains(code) || isTemporaryCMS(code)
    }

    /// The error for an SMS the modem refused with `status`, the number libgammu's send-status
    /// callback reported: a `+CMS ERROR` number, or, since libgammu reports a `+CME ERROR` through
    /// the same callback, a CME number when that is the error the modem answered.
    ///
    /// - Parameters:
    ///   - cms: The last `+CMS ERROR` number seen during the call.
    ///   - cme: The last `+CME ERROR` number seen during the call.
    static func sendRefused(status: Int, cms: Int?, cme: Int?) -> ModemError {
        guard cms == nil, cme == status else { return sendRejected(cms: status) }
        // A CME number read as a CMS one would misclassify: CME 30 (no network service,
        // temporary) is CMS 30 (unknown subscriber, permanent).
        let advice =
            isTemporaryCME(status)
            ? "This is temporary: retry the same text later." : "This is permanent: do not retry unchanged."
        return ModemError(.sendRejected, "The modem refused the SMS. \(advice)", cmeError: status)
    }
}
