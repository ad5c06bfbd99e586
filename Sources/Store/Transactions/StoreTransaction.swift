public import Foundation

/// Write access inside ``UnlockedStore/write(_:_:)``: everything ``StoreReader`` offers plus the
/// changes, all committed together or not at all.
///
/// Valid only during the closure it is passed to, on that closure's thread.
public final class StoreTransaction: StoreReader {
    var now: Double { Date().timeIntervalSince1970 }

    /// Refuses this transaction when a copy moved its store (``GatewayStore/refuseIfMoved(within:)``):
    /// asked by every write of a contact's key state, once the contact's lock is held.
    private let refuseIfMoved: (StoreDatabase) throws -> Void

    init(db: StoreDatabase, dataKey: DataKey, accountID: UUID, refusingMoved: @escaping (StoreDatabase) throws -> Void) {
        self.refuseIfMoved = refusingMoved
        super.init(db: db, dataKey: dataKey, accountID: accountID)
    }

    // MARK: Contacts

    /// Adds a contact in the pending state, storing this side's pairing code encrypted.
    ///
    /// - Parameters:
    ///   - name: 1 to 64 characters, unique without regard to case.
    ///   - number: The contact's number, or nil for a phone-only peer.
    ///   - pairingCode: This side's pairing code (opaque to the store).
    public func addContact(name: String, number: PhoneNumber?, pairingCode: Data) throws -> Contact {
        let (name, key) = try NameRules.validate(name, what: "contact")
        try ensureNameIsFree(key: key, name: name, except: nil)
        if let number { try ensureNumberIsFree(number, except: nil) }
        let id = UUID()
        let sealed = try dataKey.seal(pairingCode, for: .contactPairingCode(id))
        let time = now
        try db.execute(
            sql: """
                INSERT INTO contacts (id, name, name_key, phone_number, pairing_state, pairing_code,
                    created_at, updated_at, protocol_version)
                VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, 2)
                """,
            arguments: [id.storeString, name, key, number?.e164, sealed, time, time]
        )
        return try contact(id: id)
    }

    /// Renames a contact; the new name must be free (a change of case alone is allowed).
    public func renameContact(named name: String, to newName: String) throws -> Contact {
        let existing = try contact(named: name)
        let (newName, key) = try NameRules.validate(newName, what: "contact")
        try ensureNameIsFree(key: key, name: newName, except: existing.id)
        try db.execute(
            sql: "UPDATE contacts SET name = ?, name_key = ?, updated_at = ? WHERE id = ?",
            arguments: [newName, key, now, existing.id.storeString]
        )
        return try contact(id: existing.id)
    }

    /// Sets or clears a contact's number (and drops any other numbers).
    public func setNumber(_ number: PhoneNumber?, forContactNamed name: String) throws -> Contact {
        try setNumbers(number.map { [$0] } ?? [], forContactNamed: name)
    }

    /// Replaces all of a contact's numbers: the first is its main number, the others are further
    /// numbers of the same peer (see ``Contact/otherNumbers``); an empty list makes it a
    /// copy-and-paste peer. Each number may belong to one contact only. The contact's SMS not
    /// sent yet (queued, or failed and so waiting for a retry) that were for a number it no longer
    /// has go to its new main number, their log rows with them: a retry after a wrong number was
    /// corrected must not go to that number again, and a permanent failure there no longer says
    /// that a retry cannot help (``OutboxItem/lastErrorIsPermanent`` cleared).
    public func setNumbers(_ numbers: [PhoneNumber], forContactNamed name: String) throws -> Contact {
        let existing = try contact(named: name)
        var seen: Set<PhoneNumber> = []
        for number in numbers {
            guard seen.insert(number).inserted else {
                throw StoreError.invalidInput("The number \(number) is given twice; give each number once.")
            }
            try ensureNumberIsFree(number, except: existing.id)
        }
        try db.execute(sql: "DELETE FROM contact_numbers WHERE contact_id = ?", arguments: [existing.id.storeString])
        try db.execute(
            sql: "UPDATE contacts SET phone_number = ?, updated_at = ? WHERE id = ?",
            arguments: [numbers.first?.e164, now, existing.id.storeString]
        )
        for (position, number) in numbers.dropFirst().enumerated() {
            try db.execute(
                sql: "INSERT INTO contact_numbers (phone_number, contact_id, position) VALUES (?, ?, ?)",
                arguments: [number.e164, existing.id.storeString, position]
            )
        }
        if let main = numbers.first {
            let kept = numbers.map { _ in "?" }.joined(separator: ", ")
            let unsent = "contact_id = ? AND state IN ('queued', 'failed') AND phone_number NOT IN (\(kept))"
            let arguments: StoreArguments = [main.e164, existing.id.storeString] + StoreArguments(numbers.map(\.e164))
            try db.execute(
                sql: "UPDATE messages SET remote_number = ? WHERE id IN (SELECT message_id FROM outbox WHERE \(unsent))",
                arguments: arguments)
            // A permanent failure was the old number's to know: a retry to the new one may go through.
            try db.execute(sql: "UPDATE outbox SET phone_number = ?, error_permanent = 0 WHERE \(unsent)", arguments: arguments)
        }
        return try contact(id: existing.id)
    }

    /// Pins the contact to the modem named `modem` (its `name` in the gateway configuration), or
    /// with nil lets any modem send to it.
    public func setModem(_ modem: String?, forContactNamed name: String) throws -> Contact {
        let existing = try contact(named: name)
        if let modem, modem.isEmpty || modem.count > 64 || modem.contains(where: \.isNewline) {
            throw StoreError.invalidInput("A modem name has 1 to 64 characters on one line; use the name from the configuration.")
        }
        try updateContact(existing, set: "modem = ?", [modem])
        return try contact(id: existing.id)
    }

    /// Deletes a contact with its keys, its messages and its outbox rows.
    public func removeContact(named name: String) throws {
        let existing = try contact(named: name)
        try db.execute(sql: "DELETE FROM contacts WHERE id = ?", arguments: [existing.id.storeString])
    }

    // MARK: Pairing and ratchet state
    //
    // Every write of a key state is refused on a store a copy moved since it was opened: the
    // copy goes on from the state it read, and a step here would use a pad the copy uses again.
    // The record is looked for in this transaction, under the contact's lock (the whole
    // database's on SQLite), so no step commits after a move was recorded.

    /// Replaces the contact's session blob (encrypted with its own AAD).
    ///
    /// - Throws: ``StoreError/configuration(_:)`` when a copy moved the store (as its open would).
    public func setSession(_ session: Data, for contact: Contact) throws {
        try refuseIfMoved(db)
        let sealed = try dataKey.seal(session, for: .contactSession(contact.id))
        try updateContact(contact, set: "session = ?", [sealed])
    }

    /// Marks the contact paired with its first session blob and forgets the pairing code.
    ///
    /// - Throws: ``StoreError/configuration(_:)`` when a copy moved the store.
    public func setPaired(_ contact: Contact, session: Data) throws {
        try refuseIfMoved(db)
        let sealed = try dataKey.seal(session, for: .contactSession(contact.id))
        try updateContact(
            contact, set: "pairing_state = 'paired', session = ?, pairing_code = NULL, verification_failures = 0, keys_restored_at = NULL",
            [sealed]
        )
    }

    /// Returns the contact to the pending state with a new pairing code, deleting its session
    /// (manual re-pairing).
    ///
    /// - Throws: ``StoreError/configuration(_:)`` when a copy moved the store.
    public func resetPairing(_ contact: Contact, pairingCode: Data) throws {
        try refuseIfMoved(db)
        let sealed = try dataKey.seal(pairingCode, for: .contactPairingCode(contact.id))
        try updateContact(contact, set: "pairing_state = 'pending', session = NULL, pairing_code = ?", [sealed])
    }

    // MARK: Counters

    /// Counts one more consecutive verification failure and returns the new count.
    @discardableResult
    public func incrementFailures(for contact: Contact) throws -> Int {
        try updateContact(contact, set: "verification_failures = verification_failures + 1", [])
        return try self.contact(id: contact.id).verificationFailures
    }

    /// Clears the consecutive verification failures (after a message verifies).
    public func resetFailures(for contact: Contact) throws {
        try updateContact(contact, set: "verification_failures = 0", [])
    }

    /// Records that a resync with the contact completed (new keys on both sides): the failure
    /// count is cleared and so is the mark of keys restored from a backup.
    public func completeResync(for contact: Contact) throws {
        try updateContact(contact, set: "verification_failures = 0, keys_restored_at = NULL", [])
    }

    /// Records that an SMS to the contact was sent at `time`.
    public func recordSent(to contact: Contact, at time: Date = Date()) throws {
        try updateContact(contact, set: "last_sent_at = ?", [time.timeIntervalSince1970])
    }

    /// Records that an SMS from the contact was received at `time`.
    public func recordReceived(from contact: Contact, at time: Date = Date()) throws {
        try updateContact(contact, set: "last_received_at = ?", [time.timeIntervalSince1970])
    }

    // MARK: Helpers

    func updateContact(_ contact: Contact, set assignments: String, _ values: [(any StoreValueConvertible)?]) throws {
        try db.execute(
            sql: "UPDATE contacts SET \(assignments), updated_at = ? WHERE id = ?",
            arguments: StoreArguments(values + [now, contact.id.storeString]))
        if db.changesCount == 0 {
            throw StoreError.notFound(.removedContact(contact.name))
        }
    }

    private func ensureNameIsFree(key: String, name: String, except id: UUID?) throws {
        let owner = try db.row(sql: "SELECT id, name FROM contacts WHERE name_key = ?", arguments: [key])
        if let owner, (owner["id"] as String) != id?.storeString {
            // Names are compared ignoring case and width, so the taken name may be spelled otherwise.
            let taken: String = owner["name"]
            throw StoreError.alreadyExists(
                taken == name
                    ? "A contact named \"\(name)\" already exists; choose another name."
                    : "\"\(name)\" is taken by the contact \"\(taken)\" (names are compared ignoring case and width); choose another name."
            )
        }
    }

    private func ensureNumberIsFree(_ number: PhoneNumber, except id: UUID?) throws {
        let row = try db.row(
            sql: """
                SELECT id, name FROM contacts
                WHERE phone_number = ?1 OR id = (SELECT contact_id FROM contact_numbers WHERE phone_number = ?1)
                """,
            arguments: [number.e164])
        if let row, (row["id"] as String) != id?.storeString {
            let name: String = row["name"]
            throw StoreError.alreadyExists(
                "The number \(number) already belongs to the contact \"\(name)\"; incoming SMS are matched by number, so use one contact per number."
            )
        }
    }
}
