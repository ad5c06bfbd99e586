/// Metadata keys of the Modem module's log lines, the one place they are named; values never
/// hold texts or PINs.
enum ModemLog {
    static let modem = "smsgw.modem"
    static let error = "smsgw.modem.error"
    static let model = "smsgw.modem.model"
    static let notifications = "smsgw.modem.notifications"
    static let reference = "smsgw.modem.reference"
    static let septets = "smsgw.modem.septets"
    static let operation = "smsgw.modem.operation"
}
