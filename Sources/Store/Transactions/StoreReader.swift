public import Foundation

/// Read access inside ``UnlockedStore/read(_:)`` or ``UnlockedStore/write(_:_:)``: contacts,
/// decrypted secrets, the message log, the outbox and OTP entries.
///
/// Valid only during the closure it is passed to, on that closure's thread.
public class StoreReader {
    let db: StoreDatabase
    let dataKey: DataKey
    let accountID: UUID

    init(db: StoreDatabase, dataKey: DataKey, accountID: UUID) {
        self.db = db
        self.dataKey = dataKey
        self.accountID = accountID
    }

    // MARK: Contacts

    /// The contact with this name (compared without regard to case).
    ///
    /// - Throws: ``StoreError/notFound(_:)`` with ``StoreError/Missing/contact(named:)``.
    public func contact(named name: String) throws -> Contact {
        let row = try db.row(
            sql: "SELECT \(Contact.columns) FROM contacts WHERE name_key = ?", arguments: [NameRules.key(for: name)]
        )
        guard let row else {
            throw StoreError.notFound(.contact(named: name))
        }
        return try contact(row: row)
    }

    /// The contact with this identifier.
    public func contact(id: UUID) throws -> Contact {
        let row = try db.row(
            sql: "SELECT \(Contact.columns) FROM contacts WHERE id = ?", arguments: [id.storeString]
        )
        guard let row else {
            throw StoreError.notFound(.removedContact(nil))
        }
        return try contact(row: row)
    }

    /// The contact with this number (its main number or one of its others), or nil for an unknown sender.
    public func contact(withNumber number: PhoneNumber) throws -> Contact? {
        try db.row(
            sql:
                """
                SELECT \(Contact.columns) FROM contacts
                WHERE phone_number = ?1 OR id = (SELECT contact_id FROM contact_numbers WHERE phone_number = ?1)
                """,
            arguments: [number.e164]
        ).map(contact(row:))
    }

    /// All contacts, sorted by name.
    public func contacts() throws -> [Contact] {
        try contacts(rows: db.rows(sql: "SELECT \(Contact.columns) FROM contacts ORDER BY name_key"))
    }

    /// The contacts whose keys were restored from a backup and not resynced since
    /// (``Contact/keysRestoredAt``), sorted by name: usually none, so a reader that needs only
    /// them (the console's banners) does not read every contact.
    public func contactsWithRestoredKeys() throws -> [Contact] {
        try contacts(rows: db.rows(sql: "SELECT \(Contact.columns) FROM contacts WHERE keys_restored_at IS NOT NULL ORDER BY name_key"))
    }

    /// A contact from its row, with its other numbers.
    func contact(row: StoreRow) throws -> Contact {
        var contact = try Contact(row: row)
        contact.otherNumbers = try db.values(
            String.self, sql: "SELECT phone_number FROM contact_numbers WHERE contact_id = ? ORDER BY position",
            arguments: [contact.id.storeString]
        ).map { value throws(StoreError) in try PhoneNumber(storedE164: value) }
        return contact
    }

    /// Contacts from their rows, in their order, with their other numbers read in one statement
    /// for all of them rather than one each: a list of thousands of contacts on PostgreSQL is
    /// otherwise as many round trips.
    func contacts(rows: [StoreRow]) throws -> [Contact] {
        guard rows.count > 1 else { return try rows.map(contact(row:)) }
        var contacts = try rows.map { row in try Contact(row: row) }
        var others: [String: [PhoneNumber]] = [:]
        for row in try db.rows(sql: "SELECT contact_id, phone_number FROM contact_numbers ORDER BY contact_id, position") {
            let number: String = row["phone_number"]
            others[row["contact_id"], default: []].append(try PhoneNumber(storedE164: number))
        }
        for index in contacts.indices { contacts[index].otherNumbers = others[contacts[index].id.storeString] ?? [] }
        return contacts
    }

    /// The contact's decrypted session blob (ratchet state), or nil before pairing.
    public func session(for contact: Contact) throws -> Data? {
        try secret(column: "session", of: contact, context: .contactSession(contact.id))
    }

    /// This side's decrypted pairing code, or nil once paired.
    public func pairingCode(for contact: Contact) throws -> Data? {
        try secret(column: "pairing_code", of: contact, context: .contactPairingCode(contact.id))
    }

    func secret(column: String, of contact: Contact, context: SecretContext) throws -> Data? {
        guard
            let row = try db.row(
                sql: "SELECT \(column) AS secret FROM contacts WHERE id = ?", arguments: [contact.id.storeString]
            )
        else {
            throw StoreError.notFound(.removedContact(contact.name))
        }
        let sealed: Data? = row["secret"]
        return try sealed.map { blob throws(StoreError) in try dataKey.open(blob, for: context) }
    }
}

// A reader wraps a connection inside a transaction, which must stay on its thread.
@available(*, unavailable)
extension StoreReader: Sendable {}
