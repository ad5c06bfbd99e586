public import Foundation

extension StoreReader {
    /// The contact's reassembly state (its long texts still missing parts, docs/PROTOCOL.md §8.2),
    /// opened; nil when it waits for none. Its form belongs to the caller.
    public func reassembly(for contact: Contact) throws -> Data? {
        try secret(column: "reassembly", of: contact, context: .contactReassembly(contact.id))
    }

    /// The contacts that wait for parts of a long text, for the timeout that hands their texts out.
    public func contactsWaitingForParts() throws -> [Contact] {
        let ids = try db.values(String.self, sql: "SELECT id FROM contacts WHERE reassembly IS NOT NULL ORDER BY name_key")
        return try ids.map { id in try contact(id: UUID.fromStore(id)) }
    }
}

extension StoreTransaction {
    /// Replaces the contact's reassembly state (sealed with its own associated data); nil when it
    /// waits for no part any more.
    public func setReassembly(_ state: Data?, for contact: Contact) throws {
        let sealed = try state.map { value in try dataKey.seal(value, for: .contactReassembly(contact.id)) }
        try updateContact(contact, set: "reassembly = ?", [sealed])
    }

    /// Sets the protocol version the contact's peer speaks (docs/PROTOCOL.md §10).
    ///
    /// - Throws: ``StoreError/invalidInput(_:)`` for a version other than 1 or 2.
    public func setProtocolVersion(_ version: Int, for contact: Contact) throws {
        guard version == 1 || version == 2 else {
            throw StoreError.invalidInput("The protocol version is \(version); it is 1 or 2.")
        }
        try updateContact(contact, set: "protocol_version = ?", [version])
    }
}
