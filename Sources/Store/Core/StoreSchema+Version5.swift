import GRDB

extension StoreSchema {
    /// The migrations of protocol version 2: the peer's protocol version, long texts waiting for
    /// parts, and acknowledgements (docs/PROTOCOL.md §8-10). Registered after every earlier one.
    static func registerVersion5(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v5-protocol-version-2") { db in
            // Contacts stored before protocol version 2 keep speaking version 1 until the operator
            // (or a typed message from the peer) says otherwise; new contacts are inserted at 2.
            // The reassembly state holds a contact's long texts still missing parts (sealed).
            try db.execute(
                sql: """
                    ALTER TABLE contacts ADD COLUMN protocol_version INTEGER NOT NULL DEFAULT 1
                        CHECK (protocol_version IN (1, 2));
                    ALTER TABLE contacts ADD COLUMN reassembly BLOB;
                    """)
        }

        migrator.registerMigration("v5-acknowledgements") { db in
            // Acknowledgements (docs/PROTOCOL.md §9): a per-contact switch; each outbox row keeps the
            // epoch and position it was sealed at, whether it is re-sent until acknowledged, how often
            // it was re-sent and when it was acknowledged; acknowledgement SMS are a kind of their
            // own (the kind's CHECK needs the table rebuilt); positions decrypted and not yet
            // acknowledged wait in pending_acks.
            try db.execute(
                sql: """
                    ALTER TABLE contacts ADD COLUMN acks INTEGER NOT NULL DEFAULT 0 CHECK (acks IN (0, 1));
                    CREATE TABLE outbox_v5 (
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
                        delivered_at REAL,
                        kind TEXT NOT NULL DEFAULT 'text' CHECK (kind IN ('text', 'handshake', 'acknowledgement')),
                        epoch INTEGER,
                        position INTEGER,
                        awaits_ack INTEGER NOT NULL DEFAULT 0 CHECK (awaits_ack IN (0, 1)),
                        resends INTEGER NOT NULL DEFAULT 0,
                        acknowledged_at REAL
                    ) STRICT;
                    INSERT INTO outbox_v5 (id, message_id, contact_id, phone_number, body, state, attempts, last_error,
                        error_permanent, next_attempt_at, claim_sequence, modem, message_reference, created_at, updated_at,
                        sent_at, delivered_at, kind)
                    SELECT id, message_id, contact_id, phone_number, body, state, attempts, last_error, error_permanent,
                        next_attempt_at, claim_sequence, modem, message_reference, created_at, updated_at, sent_at,
                        delivered_at, kind
                    FROM outbox;
                    DROP TABLE outbox;
                    ALTER TABLE outbox_v5 RENAME TO outbox;
                    CREATE INDEX outbox_due ON outbox(state, next_attempt_at);
                    CREATE INDEX outbox_contact_claims ON outbox(contact_id, claim_sequence);
                    CREATE INDEX outbox_reference ON outbox(modem, message_reference);
                    CREATE INDEX outbox_kind ON outbox(contact_id, kind, id);
                    CREATE INDEX outbox_positions ON outbox(contact_id, epoch, position);
                    CREATE TABLE pending_acks (
                        contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
                        epoch INTEGER NOT NULL,
                        position INTEGER NOT NULL,
                        received_at REAL NOT NULL,
                        ciphertext TEXT NOT NULL,
                        queued_at REAL,
                        PRIMARY KEY (contact_id, epoch, position)
                    ) STRICT, WITHOUT ROWID;
                    CREATE INDEX pending_acks_ciphertext ON pending_acks(contact_id, ciphertext);
                    """)
        }
    }
}
