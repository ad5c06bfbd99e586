import Foundation

/// The associated data that binds one ciphertext to its table, row and purpose.
///
/// A blob sealed for `smsgw/v1/contact/<uuid>/session` fails to open anywhere else:
/// in another row, another column or another account's database.
struct SecretContext: Sendable, Hashable, CustomStringConvertible {
    let label: String

    private init(_ label: String) { self.label = label }

    var bytes: Data { Data(label.utf8) }
    var description: String { label }

    /// The data key, wrapped by the passphrase-derived key.
    ///
    /// With two-factor login on, the label says so: clearing the setting in the file (or deleting
    /// the login secret) makes the wrapped key fail to open instead of switching the code off.
    static func dataKey(account: UUID, twoFactor: Bool = false) -> SecretContext {
        SecretContext("smsgw/v1/account/\(account.storeString)/data-key" + (twoFactor ? "/two-factor" : ""))
    }

    /// The login TOTP secret and parameters (format owned by the CLI).
    static func twoFactorSecret(account: UUID) -> SecretContext {
        SecretContext("smsgw/v1/account/\(account.storeString)/two-factor-secret")
    }

    /// The login TOTP verification state (last accepted step).
    static func twoFactorState(account: UUID) -> SecretContext {
        SecretContext("smsgw/v1/account/\(account.storeString)/two-factor-state")
    }

    /// A contact's ratchet state (the session blob).
    static func contactSession(_ contact: UUID) -> SecretContext {
        SecretContext("smsgw/v1/contact/\(contact.storeString)/session")
    }

    /// The contact's long texts still missing parts (docs/PROTOCOL.md §8.2).
    static func contactReassembly(_ contact: UUID) -> SecretContext {
        SecretContext("smsgw/v1/contact/\(contact.storeString)/reassembly")
    }

    /// This side's pairing code, kept until the contact is paired.
    static func contactPairingCode(_ contact: UUID) -> SecretContext {
        SecretContext("smsgw/v1/contact/\(contact.storeString)/pairing-code")
    }

    /// The plaintext of one logged message.
    static func messageText(_ message: UUID) -> SecretContext {
        SecretContext("smsgw/v1/message/\(message.storeString)/text")
    }

    /// An operator's password verifier.
    static func operatorPassword(_ id: UUID) -> SecretContext {
        SecretContext("smsgw/v1/operator/\(id.storeString)/password")
    }

    /// An operator's second-factor secret and parameters.
    static func operatorSecondFactor(_ id: UUID) -> SecretContext {
        SecretContext("smsgw/v1/operator/\(id.storeString)/second-factor")
    }

    /// An operator's second-factor verification state (last accepted step).
    static func operatorSecondFactorState(_ id: UUID) -> SecretContext {
        SecretContext("smsgw/v1/operator/\(id.storeString)/second-factor-state")
    }

    /// An OTP entry's secret and parameters.
    static func otpSecret(_ entry: UUID) -> SecretContext {
        SecretContext("smsgw/v1/otp/\(entry.storeString)/secret")
    }

    /// A vault item's fields (title, username, password, website, notes, TOTP URI, times).
    static func vaultItem(_ item: UUID) -> SecretContext {
        SecretContext("smsgw/v1/vault/item/\(item.storeString)")
    }

    /// One earlier password of a vault item.
    static func vaultHistory(_ entry: UUID) -> SecretContext {
        SecretContext("smsgw/v1/vault/history/\(entry.storeString)")
    }

    /// One part of a shared vault item received from a contact, waiting for the rest.
    static func vaultPart(_ part: UUID) -> SecretContext {
        SecretContext("smsgw/v1/vault/part/\(part.storeString)")
    }

    /// One event of the vault's log.
    static func vaultEvent(_ event: UUID) -> SecretContext {
        SecretContext("smsgw/v1/vault/event/\(event.storeString)")
    }

    /// An OTP entry's verification state (last accepted step, throttling).
    static func otpState(_ entry: UUID) -> SecretContext {
        SecretContext("smsgw/v1/otp/\(entry.storeString)/state")
    }
}

extension UUID {
    /// The lowercase form stored in the database and used in associated data.
    var storeString: String { uuidString.lowercased() }

    /// A random (version 4) identifier from the system's generator (`getrandom`): Foundation's
    /// `UUID()` opens and reads `/dev/urandom` for each one on Linux, a file opened per message.
    static func random() -> UUID {
        var generator = SystemRandomNumberGenerator()
        var words = (generator.next() as UInt64, generator.next() as UInt64)
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeBytes(of: &words) { random in withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: random) } }
        uuid.6 = uuid.6 & 0x0F | 0x40  // version 4
        uuid.8 = uuid.8 & 0x3F | 0x80  // the RFC 4122 variant
        return UUID(uuid: uuid)
    }

    /// Parses the stored form, throwing ``StoreError/corrupted(_:)`` on anything else.
    static func fromStore(_ string: String) throws(StoreError) -> UUID {
        guard let uuid = UUID(uuidString: string) else {
            throw .corrupted("A row holds a malformed identifier; restore the database from a backup.")
        }
        return uuid
    }
}
