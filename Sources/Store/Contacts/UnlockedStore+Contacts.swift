public import Foundation

/// One-transaction conveniences over ``StoreTransaction`` and ``StoreReader`` for the CLI.
extension UnlockedStore {
    /// Adds a pending contact; see ``StoreTransaction/addContact(name:number:pairingCode:)``.
    @discardableResult
    public func addContact(name: String, number: PhoneNumber?, pairingCode: Data) throws -> Contact {
        try write { try $0.addContact(name: name, number: number, pairingCode: pairingCode) }
    }

    /// The contact with this name (without regard to case); throws ``StoreError/notFound(_:)``.
    public func contact(named name: String) throws -> Contact {
        try read { try $0.contact(named: name) }
    }

    /// All contacts, sorted by name.
    public func contacts() throws -> [Contact] {
        try read { try $0.contacts() }
    }

    /// Renames a contact.
    @discardableResult
    public func renameContact(named name: String, to newName: String) throws -> Contact {
        try write { try $0.renameContact(named: name, to: newName) }
    }

    /// Sets or clears a contact's number.
    @discardableResult
    public func setNumber(_ number: PhoneNumber?, forContactNamed name: String) throws -> Contact {
        try write { try $0.setNumber(number, forContactNamed: name) }
    }

    /// Deletes a contact with its keys, messages and outbox rows, and empties the `-wal` file so
    /// no old page image of them stays on disk (see ``GatewayStore/truncateWriteAheadLog(within:)``).
    ///
    /// - Throws: ``StoreError/database(_:cause:)`` (busy) when another process kept the `-wal` in
    ///   use: the contact is removed, but old copies of its rows stay there until that process stops.
    public func removeContact(named name: String) throws {
        try write { try $0.removeContact(named: name) }
        logger.info("Removed a contact and its keys and messages.")
        try gateway.requireTruncatedWriteAheadLog(after: "the contact is removed")
    }
}
