/// Metadata keys of the gateway's log lines. Values never hold texts, keys, ciphertexts or PINs.
public enum GatewayLog {
    public static let modem = "smsgw.modem"
    public static let error = "smsgw.error"
    public static let contact = "smsgw.contact"
    public static let outbox = "smsgw.outbox.id"
    public static let attempt = "smsgw.outbox.attempt"
    public static let reference = "smsgw.modem.reference"
    public static let retryIn = "smsgw.outbox.retry-in"
    public static let failures = "smsgw.contact.failures"
    public static let count = "smsgw.count"
}
