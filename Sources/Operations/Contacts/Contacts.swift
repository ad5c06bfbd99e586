import Foundation
import SMSCipher
public import Store

/// The people this gateway exchanges SMS with: adding one (with this side's pairing code),
/// changing its numbers, modem pin and name, removing it, and the view every front end shows.
/// Pairing and manual re-pairing are in `Contacts+Pairing.swift`.
public enum Contacts {
    /// Adds a contact waiting for the peer's code, and returns this side's pairing code to give
    /// them in person; one transaction.
    ///
    /// - Parameters:
    ///   - name: 1 to 64 characters, unique without regard to case.
    ///   - numbers: The peer's numbers, the main one first; none for a copy-and-paste peer.
    ///   - modem: The modem to send to the contact through while it is ready; nil for any.
    ///   - rng: Randomness for the pairing code (at least 80 bits).
    /// - Throws: ``Store/StoreError`` for a name or number already used or refused;
    ///   ``ContactError/nameStartsWithDash(name:)``.
    public static func add(
        name: String, numbers: [PhoneNumber] = [], modem: String? = nil, store: UnlockedStore,
        using rng: inout some RandomNumberGenerator
    ) throws -> AddedContact {
        try refuseLeadingDash(name)
        let code = PairingCode.generate(using: &rng)
        return try store.write { tx in
            var contact = try tx.addContact(name: name, number: numbers.first, pairingCode: code.storedData)
            if numbers.count > 1 { contact = try tx.setNumbers(numbers, forContactNamed: contact.name) }
            if let modem { contact = try tx.setModem(modem, forContactNamed: contact.name) }
            return AddedContact(name: contact.name, number: contact.number?.e164, pairingCode: code.grouped)
        }
    }

    /// What to change about a contact; nil leaves a field as it is.
    public struct Changes: Sendable, Equatable {
        /// A new name.
        public var name: String?
        /// The new numbers, replacing all of them; empty makes a copy-and-paste peer.
        public var numbers: [PhoneNumber]?
        /// The modem pin: `.some(nil)` lets any modem send.
        public var modem: String??
        /// The protocol version the peer speaks, 1 or 2 (docs/PROTOCOL.md §10).
        public var protocolVersion: Int?
        /// Whether messages are acknowledged end to end (docs/PROTOCOL.md §9).
        public var acknowledgements: Bool?

        public init(
            name: String? = nil, numbers: [PhoneNumber]? = nil, modem: String?? = nil, protocolVersion: Int? = nil,
            acknowledgements: Bool? = nil
        ) {
            self.name = name
            self.numbers = numbers
            self.modem = modem
            self.protocolVersion = protocolVersion
            self.acknowledgements = acknowledgements
        }
    }

    /// Changes a contact's numbers, modem pin, protocol version and name, in one transaction.
    ///
    /// - Returns: The contact as it is now.
    /// - Throws: ``Store/StoreError`` for an unknown contact, or a name or number refused or used.
    public static func edit(_ contactName: String, changes: Changes, store: UnlockedStore) throws -> ContactStatus {
        if let name = changes.name { try refuseLeadingDash(name) }
        return try store.write { tx in
            var contact = try tx.contact(named: contactName)
            if let numbers = changes.numbers { contact = try tx.setNumbers(numbers, forContactNamed: contact.name) }
            if let modem = changes.modem { contact = try tx.setModem(modem, forContactNamed: contact.name) }
            if let version = changes.protocolVersion {
                try tx.setProtocolVersion(version, for: contact)
                contact.protocolVersion = version
            }
            if let on = changes.acknowledgements {
                if on, contact.protocolVersion < 2 { throw ContactError.acknowledgementsNeedVersionTwo(contact: contact.name) }
                try tx.setAcknowledgements(on, for: contact)
                contact.acknowledgements = on
            }
            if let name = changes.name { contact = try tx.renameContact(named: contact.name, to: name) }
            return try ContactStatus.read(contact, in: tx)
        }
    }

    /// Refuses a new name that starts with a dash (after the spaces the store trims); contacts
    /// named so before this rule keep their names.
    private static func refuseLeadingDash(_ name: String) throws(ContactError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.hasPrefix("-") { throw .nameStartsWithDash(name: trimmed) }
    }

    /// Deletes a contact with its key state, messages, queued SMS and other numbers, then empties
    /// the write-ahead log so no old copy of its rows stays on disk.
    ///
    /// - Returns: The contact's name as stored.
    /// - Throws: ``Store/StoreError/database(_:cause:)`` (busy) when another process kept the
    ///   write-ahead log in use: the contact is removed, its old copies go when that process stops.
    @discardableResult
    public static func remove(_ contactName: String, store: UnlockedStore) throws -> String {
        let name = try store.contact(named: contactName).name
        try store.removeContact(named: name)
        return name
    }

    /// Every contact, by name, as `contact list` and `status` show them.
    public static func list(store: UnlockedStore) throws -> [ContactStatus] {
        try store.read { reader in try reader.contacts().map { try ContactStatus.read($0, in: reader) } }
    }

    /// One contact, by name (without regard to case).
    ///
    /// - Throws: ``Store/StoreError/notFound(_:)`` for an unknown name.
    public static func contact(named name: String, store: UnlockedStore) throws -> ContactStatus {
        try store.read { reader in try ContactStatus.read(reader.contact(named: name), in: reader) }
    }

    /// The modems the running daemon drives (or, when none runs, the last one drove): it records a
    /// status row for each configured modem when it starts, and only those. Empty before a daemon
    /// ever ran, when there is nothing to check a modem pin against.
    public static func drivenModems(store: UnlockedStore) throws -> [String] {
        try store.read { try $0.modemStatuses() }.map(\.name)
    }
}

/// What ``Contacts/add(name:numbers:modem:store:using:)`` stored, with this side's pairing code.
///
/// Its JSON is `{"name","number","pairingCode"}` (`number` null for a copy-and-paste peer).
public struct AddedContact: Sendable, Equatable, Encodable {
    /// The name as stored.
    public var name: String
    /// The main number, or nil for a copy-and-paste peer.
    public var number: String?
    /// This side's pairing code, grouped for reading aloud: give it to the peer in person.
    public var pairingCode: String

    enum CodingKeys: String, CodingKey { case name, number, pairingCode }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(number, forKey: .number)  // null, not absent, for a phone-only peer
        try container.encode(pairingCode, forKey: .pairingCode)
    }
}
