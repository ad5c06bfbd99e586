/// Classification of `+CMS ERROR` and `+CME ERROR` numbers into temporary and permanent.
///
/// Sources: 3GPP TS 27.005 §3.2.5 (`<err>` values), TS 24.011 Annex E (RP causes 0…127) and
/// TS 23.040 §9.2.3.22 (TP-FCS 128…255). "Temporary" means the same SMS may go through later
/// unchanged; "permanent" means something must change first (number, subscription, SIM, config).
///
/// | CMS            | meaning                                        | class      |
/// |----------------|------------------------------------------------|------------|
/// | 1              | unassigned (unallocated) number                | permanent  |
/// | 8, 10          | operator determined barring, call barred       | permanent  |
/// | 17             | network failure                                | temporary  |
/// | 21             | short message transfer rejected                | permanent  |
/// | 22             | memory capacity exceeded (receiver)            | temporary  |
/// | 27             | destination out of service                     | temporary  |
/// | 28, 29, 30     | unidentified subscriber, facility rejected, unknown subscriber | permanent |
/// | 38             | network out of order                           | temporary  |
/// | 41, 42, 47     | temporary failure, congestion, resources unavailable | temporary |
/// | 50, 69         | facility not subscribed, not implemented       | permanent  |
/// | 81             | invalid SM transfer reference value            | temporary  |
/// | 95, 96, 97, 99 | invalid message, invalid mandatory information, message type / IE non-existent | permanent |
/// | 98             | message not compatible with protocol state     | temporary  |
/// | 111, 127       | protocol error, interworking unspecified       | temporary  |
/// | 128…191        | TP-PID / TP-DCS / TP-Command errors            | permanent  |
/// | 192 (0xC0)     | SC busy                                        | temporary  |
/// | 193, 195…199   | no SC subscription, invalid SME address, SME barred, duplicate rejected, VPF/VP unsupported | permanent |
/// | 194 (0xC2)     | SC system failure                              | temporary  |
/// | 208…255        | SIM/MS storage and toolkit errors, unspecified | temporary  |
/// | 300, 301       | ME failure, SMS service of ME reserved         | temporary  |
/// | 302…305        | operation not allowed / supported, invalid PDU or text mode parameter | permanent (302, 304, 305 temporary for a send: ``isTemporarySendCMS(_:)``) |
/// | 310…313, 315…318 | SIM not inserted, PIN/PUK required, SIM failure, SIM wrong | permanent |
/// | 314            | SIM busy                                       | temporary  |
/// | 320, 322       | memory failure, memory full (free storage and retry) | temporary |
/// | 321            | invalid memory index                           | permanent  |
/// | 330            | SMSC address unknown (configure the SMSC)      | permanent  |
/// | 331, 332       | no network service, network timeout            | temporary  |
/// | 340            | no +CNMA acknowledgement expected              | permanent  |
/// | 500, 512+      | unknown / manufacturer specific                | temporary  |
/// | anything else  | unlisted cause                                 | temporary  |
///
/// CME (TS 27.007 §9.2): 3, 4 (not allowed / supported), 10 (SIM not inserted), 11…13, 15…18
/// (PIN/PUK required, SIM failure, wrong SIM), 16 (incorrect password), 20…22, 24…27 (memory,
/// index, text or dial string) are permanent; the rest (0 phone failure, 14 SIM busy, 30…32 network,
/// 100 unknown, …) temporary.
extension ModemError {
    static func isTemporaryCMS(_ code: Int) -> Bool {
        switch code {
        case 1, 8, 10, 21, 28, 29, 30, 50, 69, 95, 96, 97, 99: return false
        case 128...191: return false
        case 193, 195...199: return false
        case 302...305, 310...313, 315...318, 321, 330, 340: return false
        default: return true
        }
    }

    static func isTemporaryCME(_ code: Int) -> Bool {
        switch code {
        case 3, 4, 10, 11, 12, 13, 15, 16, 17, 18, 20, 21, 22, 24, 25, 26, 27: return false
        default: return true
        }
    }

    /// A short English meaning of a CMS number, for ``description``.
    static func cmsMeaning(_ code: Int) -> String {
        switch code {
        case 1: return "unassigned number"
        case 8: return "operator determined barring"
        case 10: return "call barred"
        case 17: return "network failure"
        case 21: return "short message transfer rejected"
        case 22: return "memory capacity exceeded"
        case 27: return "destination out of service"
        case 28: return "unidentified subscriber"
        case 29: return "facility rejected"
        case 30: return "unknown subscriber"
        case 38: return "network out of order"
        case 41: return "temporary failure"
        case 42: return "congestion"
        case 47: return "resources unavailable"
        case 50: return "requested facility not subscribed"
        case 69: return "requested facility not implemented"
        case 81: return "invalid short message transfer reference value"
        case 95: return "invalid message"
        case 96: return "invalid mandatory information"
        case 97: return "message type non-existent"
        case 98: return "message not compatible with short message protocol state"
        case 99: return "information element non-existent"
        case 111: return "protocol error"
        case 127: return "interworking unspecified"
        case 128...143: return "TP-PID error"
        case 144...159: return "TP-DCS error"
        case 160...175: return "TP-Command error"
        case 192: return "SC busy"
        case 193: return "no SC subscription"
        case 194: return "SC system failure"
        case 195: return "invalid SME address"
        case 196: return "destination SME barred"
        case 197: return "SM rejected, duplicate SM"
        case 208: return "SIM SMS storage full"
        case 210: return "error in MS"
        case 211: return "memory capacity exceeded"
        case 300: return "ME failure"
        case 301: return "SMS service of ME reserved"
        case 302: return "operation not allowed"
        case 303: return "operation not supported"
        case 304: return "invalid PDU mode parameter"
        case 305: return "invalid text mode parameter"
        case 310: return "SIM not inserted"
        case 311: return "SIM PIN required"
        case 313: return "SIM failure"
        case 314: return "SIM busy"
        case 316: return "SIM PUK required"
        case 320: return "memory failure"
        case 321: return "invalid memory index"
        case 322: return "memory full"
        case 330: return "SMSC address unknown"
        case 331: return "no network service"
        case 332: return "network timeout"
        case 500: return "unknown error"
        default: return "unlisted cause"
        }
    }

    /// The error for an SMS the network or modem refused with a CMS number.
    static func sendRejected(cms: Int) -> ModemError {
        let advice: String
        if isTemporarySendCMS(cms) {
            advice = "This is temporary: retry the same text later."
        } else if cms == 330 {
            advice = "Configure the SMSC number on the SIM (AT+CSCA) and retry."
        } else if [1, 28, 30, 195].contains(cms) {
            advice = "Check the destination number; retrying will not help."
        } else {
            advice = "This is permanent: do not retry unchanged."
        }
        return ModemError(.sendRejected, "The SMS was refused. \(advice)", cmsError: cms)
    }
}
