extension PostgresSchema {
    /// `v12-contact-keys-restored` on PostgreSQL (``StoreSchema/registerKeysRestored(in:)`` says why).
    static let keysRestored: [Migration] = [
        Migration("v12-contact-keys-restored", ["ALTER TABLE contacts ADD COLUMN keys_restored_at DOUBLE PRECISION"])
    ]
}
