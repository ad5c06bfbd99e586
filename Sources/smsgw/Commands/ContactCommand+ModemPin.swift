import Operations
import Store
import TerminalIO

extension ContactCommand {
    /// Warns on stderr when `modem` names no modem the daemon drives (or, when none runs, last
    /// drove): a typo in `--modem` would otherwise only show when the contact's SMS go elsewhere.
    ///
    /// The daemon records a status row for each configured modem when it starts, and only
    /// those, so the rows are the configuration it runs (or ran) with. Nothing is said before the
    /// daemon ever ran: there is nothing to compare with.
    static func warnIfUnknown(modem: String?, contact: String, store: UnlockedStore) throws {
        guard let modem else { return }
        let configured = try Contacts.drivenModems(store: store)
        guard !configured.isEmpty, !configured.contains(modem) else { return }
        Output.error(
            "smsgw: warning: no modem named \"\(modem)\" is configured (the daemon drives \(configured.joined(separator: ", "))); until one is, any modem sends to \(contact). Check the name with `smsgw status`.")
    }
}
