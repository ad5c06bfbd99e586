public import Foundation

/// A stored one-time-passcode entry: its secret and parameters (one opaque blob, encrypted)
/// and a small verification state (last accepted step, throttling; also encrypted).
///
/// The OTP module defines what the blobs contain; the store only keeps them safe.
public struct OTPEntry: Sendable, Hashable, Identifiable {
    public var id: UUID
    /// Unique without regard to case, 1 to 64 characters.
    public var name: String
    /// The decrypted secret and parameters.
    public var secret: Data
    /// The decrypted verification state, if any was stored.
    public var state: Data?
    public var createdAt: Date
    public var updatedAt: Date
}

extension OTPEntry {
    /// The name an older smsgw gave the login secret's entry; reserved, so that no entry made
    /// with `smsgw otp` can pass for the login secret (an older binary would take it as one).
    public static let reservedLoginName = "smsgw-login"

    /// Whether `name` is the reserved login name under the store's own comparison of names
    /// (trimmed, NFC, case- and width-folded), so no spelling of it reaches another entry.
    public static func isReservedName(_ name: String) -> Bool {
        NameRules.key(for: name) == NameRules.key(for: reservedLoginName)
    }
}

extension OTPEntry: CustomStringConvertible, CustomReflectable {
    /// Never shows the secret or the state.
    public var description: String { "OTPEntry(name: \(name))" }
    /// Keeps `dump` and debuggers from printing the secret or the state.
    public var customMirror: Mirror { Mirror(self, children: ["id": id, "name": name]) }
}

extension StoreReader {
    /// The OTP entry with this name (without regard to case), decrypted.
    public func otpEntry(named name: String) throws -> OTPEntry {
        guard !OTPEntry.isReservedName(name),
            let row = try db.row(
                sql: "SELECT * FROM otp_entries WHERE name_key = ?", arguments: [NameRules.key(for: name)]
            )
        else {
            throw StoreError.notFound(.otpEntry(named: name))
        }
        return try otpEntry(row)
    }

    /// All OTP entries, sorted by name, decrypted.
    public func otpEntries() throws -> [OTPEntry] {
        try db.rows(
            sql: "SELECT * FROM otp_entries WHERE name_key != ? ORDER BY name_key",
            arguments: [NameRules.key(for: OTPEntry.reservedLoginName)]
        ).map(otpEntry)
    }

    private func otpEntry(_ row: StoreRow) throws -> OTPEntry {
        let id = try UUID.fromStore(row["id"])
        let sealedState: Data? = row["state"]
        return OTPEntry(
            id: id,
            name: row["name"],
            secret: try dataKey.open(row["secret"], for: .otpSecret(id)),
            state: try sealedState.map { blob throws(StoreError) in try dataKey.open(blob, for: .otpState(id)) },
            createdAt: Date(timeIntervalSince1970: row["created_at"]),
            updatedAt: Date(timeIntervalSince1970: row["updated_at"])
        )
    }
}

extension StoreTransaction {
    /// Adds an OTP entry.
    @discardableResult
    public func addOTPEntry(name: String, secret: Data, state: Data? = nil) throws -> OTPEntry {
        let (name, key) = try NameRules.validate(name, what: "OTP entry")
        guard !OTPEntry.isReservedName(name) else {
            throw StoreError.invalidInput(
                "\"\(OTPEntry.reservedLoginName)\" is reserved for two-factor login; choose another name."
            )
        }
        if try db.value(Bool.self, sql: "SELECT EXISTS (SELECT 1 FROM otp_entries WHERE name_key = ?)", arguments: [key]) == true {
            throw StoreError.alreadyExists("An OTP entry named \"\(name)\" already exists; choose another name.")
        }
        let id = UUID()
        let time = now
        try db.execute(
            sql: """
                INSERT INTO otp_entries (id, name, name_key, secret, state, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                id.storeString, name, key, try dataKey.seal(secret, for: .otpSecret(id)),
                try state.map { blob throws(StoreError) in try dataKey.seal(blob, for: .otpState(id)) }, time, time,
            ]
        )
        return try otpEntry(named: name)
    }

    /// Replaces an entry's secret and/or state; nil leaves that part unchanged.
    @discardableResult
    public func updateOTPEntry(named name: String, secret: Data? = nil, state: Data? = nil) throws -> OTPEntry {
        let entry = try otpEntry(named: name)
        let sealedSecret = try dataKey.seal(secret ?? entry.secret, for: .otpSecret(entry.id))
        let sealedState = try (state ?? entry.state).map { blob throws(StoreError) in
            try dataKey.seal(blob, for: .otpState(entry.id))
        }
        try db.execute(
            sql: "UPDATE otp_entries SET secret = ?, state = ?, updated_at = ? WHERE id = ?",
            arguments: [sealedSecret, sealedState, now, entry.id.storeString]
        )
        return try otpEntry(named: name)
    }

    /// Deletes an OTP entry.
    public func removeOTPEntry(named name: String) throws {
        let entry = try otpEntry(named: name)
        try db.execute(sql: "DELETE FROM otp_entries WHERE id = ?", arguments: [entry.id.storeString])
    }
}

extension UnlockedStore {
    /// Adds an OTP entry in its own transaction.
    @discardableResult
    public func addOTPEntry(name: String, secret: Data, state: Data? = nil) throws -> OTPEntry {
        try write { try $0.addOTPEntry(name: name, secret: secret, state: state) }
    }

    /// All OTP entries, decrypted.
    public func otpEntries() throws -> [OTPEntry] { try read { try $0.otpEntries() } }

    /// One OTP entry, decrypted.
    public func otpEntry(named name: String) throws -> OTPEntry { try read { try $0.otpEntry(named: name) } }

    /// Replaces an entry's secret and/or state in its own transaction. For check-and-update of the
    /// verification state (replay rejection), use ``UnlockedStore/write(_:_:)`` and do both inside it.
    @discardableResult
    public func updateOTPEntry(named name: String, secret: Data? = nil, state: Data? = nil) throws -> OTPEntry {
        try write { try $0.updateOTPEntry(named: name, secret: secret, state: state) }
    }

    /// Deletes an OTP entry.
    public func removeOTPEntry(named name: String) throws { try write { try $0.removeOTPEntry(named: name) } }
}
