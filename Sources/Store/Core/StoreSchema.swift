import GRDB

/// The versioned schema: one migration per step, applied in order, never edited once shipped.
///
/// Encrypted columns (BLOB, AES-GCM nonce ‖ ciphertext ‖ tag) are listed in docs/STORAGE.md with
/// the associated data that binds each one to its row.
enum StoreSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("v1-account") { db in
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
                    CREATE TABLE received_pdus (
                        fingerprint TEXT PRIMARY KEY NOT NULL,
                        received_at REAL NOT NULL
                    ) STRICT, WITHOUT ROWID
                    """)
        }

        migrator.registerMigration("v1-otp-entries") { db in
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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

        migrator.registerMigration("v4-message-events") { db in
            // The log's change feed: one row when a message is logged and one each time its status
            // changes, numbered by `seq`, so `smsgw log --follow --since SEQ` resumes where a
            // reader stopped. Triggers write it, so every writer of `messages` (the CLI, the
            // daemon's outbox updates, any later status) feeds it without knowing. SQLite has one
            // writer at a time, so rows become visible in `seq` order: a reader that saw `seq` N
            // never sees a smaller one later. Existing messages get one row each, oldest first.
            try db.execute(
                sql: """
                    CREATE TABLE message_events (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
                        status TEXT NOT NULL,
                        time REAL NOT NULL
                    ) STRICT;
                    CREATE INDEX message_events_message ON message_events(message_id, seq);
                    INSERT INTO message_events (message_id, status, time) SELECT id, status, time FROM messages ORDER BY id;
                    CREATE TRIGGER message_events_logged AFTER INSERT ON messages BEGIN
                        INSERT INTO message_events (message_id, status, time) VALUES (NEW.id, NEW.status, NEW.time);
                    END;
                    CREATE TRIGGER message_events_changed AFTER UPDATE OF status ON messages
                    WHEN NEW.status IS NOT OLD.status BEGIN
                        INSERT INTO message_events (message_id, status, time)
                        VALUES (NEW.id, NEW.status, (julianday('now') - 2440587.5) * 86400.0);
                    END;
                    """)
        }

        migrator.registerMigration("v4-inbox-partial-groups") { db in
            // Parts of a concatenated SMS waiting on a modem for the rest: when each group was
            // first seen, so the wait is bounded across restarts (the SIM keeps the parts).
            try db.execute(
                sql: """
                    CREATE TABLE partial_groups (
                        modem TEXT NOT NULL,
                        sender TEXT NOT NULL,
                        reference INTEGER NOT NULL,
                        total INTEGER NOT NULL,
                        first_seen REAL NOT NULL,
                        PRIMARY KEY (modem, sender, reference, total)
                    ) STRICT, WITHOUT ROWID
                    """)
        }

        migrator.registerMigration("v4-automatic-replies") { db in
            // SMS the gateway sent (or withheld) on its own in answer to incoming ones, per contact,
            // for the hourly budget that keeps replayed SMS from making it send without bound.
            // Rows older than the budget's window are deleted as new ones are counted.
            try db.execute(
                sql: """
                    CREATE TABLE automatic_replies (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
                        time REAL NOT NULL,
                        withheld INTEGER NOT NULL CHECK (withheld IN (0, 1))
                    ) STRICT;
                    CREATE INDEX automatic_replies_contact ON automatic_replies(contact_id, time);
                    """)
        }

        migrator.registerMigration("v4-two-factor-binding") { db in
            // Whether two-factor login is on must be known before unlocking (to ask for the code
            // before the unlock lock is taken), and it is bound into the wrapping of the data key
            // (docs/STORAGE.md), so deleting or flipping it breaks the unwrap. The login secret and
            // its verification state move out of otp_entries into the account row at the next
            // unlock; until then a legacy `smsgw-login` entry means two-factor login is on.
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
                    ALTER TABLE account ADD COLUMN fingerprints_keyed INTEGER NOT NULL DEFAULT 0
                        CHECK (fingerprints_keyed IN (0, 1));
                    """)
        }

        migrator.registerMigration("v4-data-key-generation") { db in
            // Counts data key rotations, so a process still holding the previous key refuses to
            // write rows the current key could not open.
            try db.execute(sql: "ALTER TABLE account ADD COLUMN key_generation INTEGER NOT NULL DEFAULT 1")
        }

        registerVersion5(in: &migrator)
        registerOperators(in: &migrator)
        registerVault(in: &migrator)
        registerAPI(in: &migrator)
        registerWebhooks(in: &migrator)
        registerVaultShareParts(in: &migrator)
        registerVersion7(in: &migrator)
        registerNodes(in: &migrator)
        registerVersion8(in: &migrator)
        registerIdempotencyScope(in: &migrator)
        registerOutboxFailures(in: &migrator)
        registerNodeInstances(in: &migrator)
        registerKeysRestored(in: &migrator)
        registerUnconfirmed(in: &migrator)
        registerReadIndexes(in: &migrator)
        registerCountIndexes(in: &migrator)

        return migrator
    }

    /// Every table the store owns, children before parents (the order ``UnlockedStore/deleteAccount()`` wipes them in).
    static let tables = [
        "console_sessions", "audit_events", "operators", "vault_parts", "vault_events", "vault_history", "vault_items", "idempotency_keys",
        "api_tokens", "webhook_deliveries", "webhook_endpoints", "events", "pending_acks", "automatic_replies", "outbox", "contact_numbers",
        "quarantine", "modem_status", "nodes", "message_events", "messages",
        "received_pdus", "partial_groups", "otp_entries", "contacts", "account",
    ]
}
