/// Vault titles follow the store's rules for names, so the vault compares them as contacts and OTP
/// entries are compared: trimmed, NFC, without regard to case or width.
///
/// The store keeps no title in the clear (not even a hash): the application layer opens the items
/// inside its transaction and compares these keys there.
public enum VaultTitle {
    /// The title as it is kept (trimmed, NFC) and its comparison key.
    ///
    /// - Throws: ``StoreError/invalidInput(_:)`` for an empty title, one over 64 characters, or one
    ///   with control characters.
    public static func validate(_ raw: String) throws(StoreError) -> (title: String, key: String) {
        let (title, key) = try NameRules.validate(raw, what: "vault item")
        return (title, key)
    }

    /// The comparison key of a title as typed.
    public static func key(for title: String) -> String { NameRules.key(for: title) }
}
