public import Operations

/// Each contact's numbers, modem pin, sync state and last traffic; a resync for those who may,
/// and the answer to a resync the contact's gateway asked for.
public enum ContactsPage {
    public static func render(_ contacts: [ContactStatus], viewer: ConsoleViewer) -> HTML {
        let rows = contacts.map { contact -> HTML in
            """
            <tr class="\(contact.sync.isOK ? "ok" : "attention")">\
            <td>\(contact.name)</td><td>\(contact.numbers.isEmpty ? "copy and paste" : contact.numbers.joined(separator: " "))</td>\
            <td>\(contact.modem, or: "any")</td><td>\(contact.sync.state.rawValue)\(advice(contact))</td>\
            <td>\(ConsolePage.time(contact.lastSentAt))</td><td>\(ConsolePage.time(contact.lastReceivedAt))</td>\
            <td>\(actions(contact, viewer: viewer))</td></tr>

            """
        }
        let body: HTML = """
            \(HTML.when(contacts.isEmpty, "<p class=\"none\">No contacts yet.</p>"))
            <table class="contacts"><thead><tr><th>Name</th><th>Numbers</th><th>Modem</th><th>Sync</th><th>Last sent</th>\
            <th>Last received</th><th></th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
        return ConsolePage.document(title: "Contacts", viewer: viewer, section: .contacts, body: body)
    }

    static func advice(_ contact: ContactStatus) -> HTML {
        guard let advice = contact.sync.advice else { return .empty }
        return "<br><small>\(advice.sentence)</small>"
    }

    /// Resync (or accept and reject a resync the peer asked for), for operators and admins, and
    /// only for a contact with a number and a session.
    static func actions(_ contact: ContactStatus, viewer: ConsoleViewer) -> HTML {
        guard viewer.may(.operator), !contact.numbers.isEmpty, contact.pairing == .paired else { return .empty }
        if contact.sync.state == .resyncRequested {
            return .joined([
                ConsolePage.button("Accept resync", action: "/contacts/\(segment: contact.name)/accept", viewer: viewer),
                ConsolePage.button("Reject", action: "/contacts/\(segment: contact.name)/reject", viewer: viewer),
            ])
        }
        return ConsolePage.button("Resync", action: "/contacts/\(segment: contact.name)/resync", viewer: viewer)
    }
}
