import GRDB

/// The versioned schema: one migration per step, applied in order, never edited once shipped.
///
/// Encrypted columns (BLOB, AES-GCM nonce ‖ ciphertext ‖ tag) are listed in docs/STORAGE.md with
/// the associated data that binds each one to its row.
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1-account") { db in
            try db.execute(sql: """
                CREATE TABLE account (
                    id TEXT PRIMARY KEY NOT NULL,
                    singleton INTEGER NOT NULL DEFAULT 1 UNIQUE CHECK (singleton = 1),
                    username TEXT NOT NULL,
                    kdf_salt BLOB NOT NULL,
                    kdf_memory_kib INTEGER NOT NULL,
                    kdf_iterations INTEGER NOT NULL,
                    kdf_parallelism INTEGER NOT NULL,
                    wrapped_data_key BLOB NOT NULL,
                    failed_attempts INTEGER NOT NULL DEFAULT 0,
                    locked_until REAL,
                    created_at REAL NOT NULL,
                    updated_at REAL NOT NULL
                ) STRICT
                """)
        }

        migrator.registerMigration("v1-contacts") { db in
            try db.execute(sql: """
                CREATE TABLE contacts (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    name_key TEXT NOT NULL UNIQUE,
                    phone_number TEXT UNIQUE,
                    pairing_state TEXT NOT NULL CHECK (pairing_state IN ('pending', 'paired')),
                    pairing_code BLOB,
                    session BLOB,
                    created_at REAL NOT NULL,
                    updated_at REAL NOT NULL,
                    last_sent_at REAL,
                    last_received_at REAL,
                    verification_failures INTEGER NOT NULL DEFAULT 0
                ) STRICT
                """)
        }

        migrator.registerMigration("v1-messages") { db in
            try db.execute(sql: """
                CREATE TABLE messages (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    uuid TEXT NOT NULL UNIQUE,
                    time REAL NOT NULL,
                    direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
                    contact_id TEXT REFERENCES contacts(id) ON DELETE CASCADE,
                    remote_number TEXT,
                    status TEXT NOT NULL,
                    text BLOB,
                    ciphertext TEXT,
                    error TEXT,
                    fingerprint TEXT
                ) STRICT;
                CREATE INDEX messages_contact ON messages(contact_id, id);
                """)
        }

        migrator.registerMigration("v1-outbox") { db in
            try db.execute(sql: """
                CREATE TABLE outbox (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    message_id INTEGER REFERENCES messages(id) ON DELETE CASCADE,
                    contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
                    phone_number TEXT NOT NULL,
                    body TEXT NOT NULL,
                    state TEXT NOT NULL
                        CHECK (state IN ('queued', 'submitting', 'sent', 'delivered', 'failed')),
                    attempts INTEGER NOT NULL DEFAULT 0,
                    last_error TEXT,
                    error_permanent INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at REAL NOT NULL,
                    claim_sequence INTEGER,
                    modem TEXT,
                    message_reference INTEGER,
                    created_at REAL NOT NULL,
                    updated_at REAL NOT NULL,
                    sent_at REAL,
                    delivered_at REAL
                ) STRICT;
                CREATE INDEX outbox_due ON outbox(state, next_attempt_at);
                CREATE INDEX outbox_contact_claims ON outbox(contact_id, claim_sequence);
                CREATE INDEX outbox_reference ON outbox(modem, message_reference);
                """)
        }

        migrator.registerMigration("v1-received-pdus") { db in
            try db.execute(sql: """
                CREATE TABLE received_pdus (
                    fingerprint TEXT PRIMARY KEY NOT NULL,
                    received_at REAL NOT NULL
                ) STRICT, WITHOUT ROWID
                """)
        }

        migrator.registerMigration("v1-otp-entries") { db in
            try db.execute(sql: """
                CREATE TABLE otp_entries (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    name_key TEXT NOT NULL UNIQUE,
                    secret BLOB NOT NULL,
                    state BLOB,
                    created_at REAL NOT NULL,
                    updated_at REAL NOT NULL
                ) STRICT
                """)
        }

        migrator.registerMigration("v2-gateway") { db in
            try db.execute(sql: """
                ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'text'
                    CHECK (kind IN ('text', 'handshake'));
                CREATE INDEX outbox_kind ON outbox(contact_id, kind, id);
                CREATE TABLE modem_status (
                    name TEXT PRIMARY KEY NOT NULL,
                    state TEXT NOT NULL,
                    connected INTEGER NOT NULL DEFAULT 0,
                    signal_percent INTEGER,
                    operator TEXT,
                    last_error TEXT,
                    sent_count INTEGER NOT NULL DEFAULT 0,
                    received_count INTEGER NOT NULL DEFAULT 0,
                    updated_at REAL NOT NULL
                ) STRICT;
                CREATE TABLE quarantine (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
                    message_id INTEGER REFERENCES messages(id) ON DELETE SET NULL,
                    ciphertext TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    received_at REAL NOT NULL
                ) STRICT;
                CREATE INDEX quarantine_contact ON quarantine(contact_id, id);
                """)
        }

        migrator.registerMigration("v3-routing") { db in
            // A peer gateway with several modems has several numbers (SMS to it go to each in
            // turn, `number_turn`); a contact may be pinned to one of this side's modems (NULL:
            // any modem sends).
            try db.execute(sql: """
                ALTER TABLE contacts ADD COLUMN modem TEXT;
                ALTER TABLE contacts ADD COLUMN number_turn INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE contact_numbers (
                    phone_number TEXT PRIMARY KEY NOT NULL,
                    contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL
                ) STRICT, WITHOUT ROWID;
                CREATE INDEX contact_numbers_contact ON contact_numbers(contact_id, position);
                """)
        }

        migrator.registerMigration("v4-two-factor-binding") { db in
            // Whether two-factor login is on must be known before unlocking (to ask for the code
            // before the unlock lock is taken), and it is bound into the wrapping of the data key
            // (docs/STORAGE.md), so deleting or flipping it breaks the unwrap. The login secret and
            // its verification state move out of otp_entries into the account row at the next
            // unlock; until then a legacy `smsgw-login` entry means two-factor login is on.
            try db.execute(sql: """
                ALTER TABLE account ADD COLUMN two_factor INTEGER NOT NULL DEFAULT 0 CHECK (two_factor IN (0, 1));
                ALTER TABLE account ADD COLUMN two_factor_secret BLOB;
                ALTER TABLE account ADD COLUMN two_factor_state BLOB;
                UPDATE account SET two_factor = 1
                    WHERE EXISTS (SELECT 1 FROM otp_entries WHERE name_key = 'smsgw-login');
                """)
        }

        migrator.registerMigration("v4-keyed-fingerprints") { db in
            // Fingerprints written before this migration are unkeyed hashes of the raw SMS; the
            // first unlock (which has the data key) replaces them with keyed ones and sets the flag.
            try db.execute(sql: """
                ALTER TABLE account ADD COLUMN fingerprints_keyed INTEGER NOT NULL DEFAULT 0
                    CHECK (fingerprints_keyed IN (0, 1));
                """)
        }

        migrator.registerMigration("v4-data-key-generation") { db in
            // Counts data key rotations, so a process still holding the previous key refuses to
            // write rows the current key could not open.
            try db.execute(sql: "ALTER TABLE account ADD COLUMN key_generation INTEGER NOT NULL DEFAULT 1")
        }

        return migrator
    }

    /// Every table the store owns, children before parents (the order ``UnlockedStore/deleteAccount()`` wipes them in).
    static let tables = ["outbox", "contact_numbers", "quarantine", "modem_status", "messages", "received_pdus", "otp_entries", "contacts", "account"]
}
