import Operations
import Store
import TerminalIO

extension ContactCommand {
    /// Warns on stderr when `--modem` pinned the contact to a modem the daemon does not drive (or,
    /// when none runs, last drove): a typo would otherwise only show when the contact's SMS go
    /// elsewhere. Whether the pin is missing is the application layer's rule
    /// (``ContactStatus/modemMissing``, which says nothing before a daemon ever ran).
    static func warnIfUnknown(modem: String?, contact: String, store: UnlockedStore) throws {
        guard let modem, try Contacts.contact(named: contact, store: store).modemMissing else { return }
        let configured = try Contacts.drivenModems(store: store)
        Output.warning(
            "no modem named \"\(modem)\" is configured (the daemon drives \(configured.joined(separator: ", "))); until one is, any modem sends to \(contact). Check the name with `smsgw status`."
        )
    }
}
