public import OTP
public import Store

/// The OTP generators kept in the store (HOTP and TOTP, secrets encrypted): enrol, list, give a
/// code, verify a code, show the enrolment URI, remove. Each is one transaction.
///
/// Every operation refuses the name reserved for two-factor login (``requireUserName(_:)``),
/// compared as the store compares names, so no spelling of it reaches the login secret.
public enum OTPEntries {
    /// Throws ``OTPEntryError/reservedName(_:)`` when `name` is, in any spelling the store
    /// takes for the same name (case, width, surrounding spaces), the one reserved for
    /// two-factor login. A front end may call it before unlocking, so a refused name costs no
    /// passphrase.
    public static func requireUserName(_ name: String) throws {
        if OTPEntry.isReservedName(name) { throw OTPEntryError.reservedName(name) }
    }

    /// Every entry, sorted by name, without secrets.
    public static func list(in store: UnlockedStore) throws -> [OTPEntrySummary] {
        try store.read { reader in
            try reader.otpEntries().map { entry in
                OTPEntrySummary(name: entry.name, enrolment: try enrolment(of: entry), createdAt: entry.createdAt)
            }
        }
    }

    /// The entry's `otpauth://` URI, which holds its secret (for an authenticator app).
    public static func uri(named name: String, in store: UnlockedStore) throws -> OTPAuthURI {
        try requireUserName(name)
        return try store.read { reader in try enrolment(of: reader.otpEntry(named: name)).uri() }
    }

    /// Deletes the entry.
    public static func remove(named name: String, from store: UnlockedStore) throws {
        try requireUserName(name)
        try store.write { tx in try tx.removeOTPEntry(named: name) }
    }

    /// The stored enrolment of `entry`.
    static func enrolment(of entry: OTPEntry) throws -> OTPEnrolment {
        try OTPEnrolment(decoding: entry.secret, unreadable: OTPEntryError.unreadable(entry.name))
    }
}
