public import Foundation

extension StoreReader {
    /// The contacts that have keys (a session), the most recently active first: by the later of
    /// the last SMS received from and sent to each, those never active last, then by name. At
    /// most `limit` of them, and how many others have keys.
    ///
    /// For the key search, which tries a ciphertext from a number no contact has with contacts'
    /// keys and must stop somewhere: a peer who changed SIM is most likely one recently heard.
    public func contactsWithKeys(
        mostRecentlyActiveFirst limit: Int, excluding excluded: Contact? = nil
    ) throws -> (contacts: [Contact], others: Int) {
        let excludedID = excluded?.id.storeString ?? ""
        let total =
            try db.value(
                Int.self, sql: "SELECT COUNT(*) FROM contacts WHERE session IS NOT NULL AND id <> ?", arguments: [excludedID]) ?? 0
        guard limit > 0 else { return ([], total) }
        let contacts = try contacts(
            rows: db.rows(
                sql: """
                    SELECT \(Contact.columns) FROM contacts WHERE session IS NOT NULL AND id <> ?
                    ORDER BY CASE WHEN COALESCE(last_received_at, 0) >= COALESCE(last_sent_at, 0)
                        THEN COALESCE(last_received_at, 0) ELSE last_sent_at END DESC, name_key
                    LIMIT ?
                    """,
                arguments: [excludedID, min(limit, total)]))
        return (contacts, total - contacts.count)
    }
}
