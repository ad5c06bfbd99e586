import CGammu

extension ModemError {
    /// Maps a libgammu error from `operation` to a ``ModemError`` that says what to do.
    /// - Parameters:
    ///   - error: The libgammu result (never `ERR_NONE`).
    ///   - operation: What was being done, for the message (`"reading messages"`).
    ///   - device: The device path, for messages about the port.
    ///   - cms: The last `+CMS ERROR` number seen during the call.
    ///   - cme: The last `+CME ERROR` number seen during the call.
    static func gammu(
        _ error: GSM_Error, _ operation: String, device: String, cms: Int? = nil, cme: Int? = nil
    ) -> ModemError {
        let name = GSM_ErrorName(error).map { String(cString: $0) } ?? "\(error.rawValue)"
        let libraryText = GSM_ErrorString(error).map { String(cString: $0) } ?? name
        func make(_ code: Code, _ advice: String) -> ModemError {
            ModemError(
                code, "\(operation.prefix(1).uppercased() + operation.dropFirst()) failed: \(advice)",
                gammuError: name, cmsError: cms, cmeError: cme)
        }
        if let cms, error != ERR_TIMEOUT {
            if cms == 322 || cms == 208 || cms == 211 {
                return make(.storageFull, "the message storage is full. Delete read messages and retry.")
            }
            if cms == 321 {
                return make(.invalidLocation, "there is no message at that location. List the messages again.")
            }
            if [310, 313, 315].contains(cms) {
                return make(.noSIM, "the SIM is missing or failed. Check the SIM card.")
            }
            let advice =
                isTemporaryCMS(cms)
                ? "the modem reported a temporary error; retry later." : "the modem refused the request; retrying unchanged will not help."
            return make(.modemFailure, advice)
        }
        switch error {
        case ERR_TIMEOUT:
            return make(.timeout, "the modem did not answer in time. Probe it; reset the radio or reopen the port if it stays silent.")
        case ERR_ABORTED, ERR_CANCELED:
            return make(.timeout, "the call was aborted after overrunning its deadline. Reopen the modem.")
        case ERR_DEVICENOTEXIST:
            return make(.deviceNotFound, "the device \(device) does not exist. Check the cable and the device path, then reopen.")
        case ERR_DEVICEOPENERROR, ERR_DEVICELOCKED, ERR_DEVICEBUSY, ERR_DEVICENOPERMISSION, ERR_DEVICENODRIVER,
            ERR_DEVICENOTWORK:
            return make(
                .deviceOpenFailed,
                "the device \(device) could not be opened (\(libraryText)). Check that this user may open it (dialout group) and that no other program such as ModemManager holds it."
            )
        case ERR_DEVICEWRITEERROR, ERR_DEVICEREADERROR, ERR_DEVICEDTRRTSERROR, ERR_DEVICECHANGESPEEDERROR,
            ERR_DEVICEPARITYERROR:
            return make(
                .deviceGone, "the device \(device) stopped working (\(libraryText)); it was probably unplugged. Reopen it once it is back.")
        case ERR_NOTCONNECTED:
            return make(.notConnected, "the modem is not connected. Connect or reopen it.")
        case ERR_SECURITYERROR:
            return make(.pinRequired, "the SIM wants a security code. Configure the PIN, or unlock the SIM in a phone.")
        case ERR_NOSIM:
            return make(.noSIM, "there is no usable SIM card. Insert or reseat the SIM.")
        case ERR_FULL, ERR_MEMORY_NOT_AVAILABLE:
            return make(.storageFull, "the message storage is full. Delete read messages and retry.")
        case ERR_EMPTY, ERR_INVALIDLOCATION:
            return make(.invalidLocation, "there is no message at that location. List the messages again.")
        case ERR_GETTING_SMSC, ERR_EMPTYSMSC:
            return make(.smscUnavailable, "the SMSC number could not be read. Set it on the SIM (AT+CSCA) and retry.")
        case ERR_NOTSUPPORTED, ERR_NOTIMPLEMENTED, ERR_DISABLED:
            return make(.notSupported, "the modem or its driver does not support this.")
        case ERR_UNKNOWNCONNECTIONTYPESTRING:
            return make(.configuration, "the connection type is not one gammu knows. Use for example \"at\" or \"at115200\".")
        case ERR_UNKNOWNMODELSTRING:
            return make(.configuration, "the model is not one gammu knows. Leave it empty or use \"at\".")
        case ERR_UNCONFIGURED, ERR_NONE_SECTION, ERR_CANTOPENFILE, ERR_FILENOTEXIST:
            return make(.configuration, "the gammu configuration could not be read (\(libraryText)). Check the gammurc path and section.")
        default:
            return make(.modemFailure, "\(libraryText) Retry; if it persists, reopen the modem.")
        }
    }
}
