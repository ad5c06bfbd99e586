import GRDB

extension StoreSchema {
    /// The migrations of the event journal and its webhook deliveries (docs/STORAGE.md, migrations `v6-…`).
    /// Registered after every earlier one.
    static func registerWebhooks(in migrator: inout DatabaseMigrator) {
        // A message event's payload: the row's facts and the contact's name, never its text.
        let messagePayload = """
            json_object(
                'message', json_object('id', NEW.id, 'direction', NEW.direction, 'status', NEW.status,
                    'contact', (SELECT name FROM contacts WHERE id = NEW.contact_id), 'number', NEW.remote_number, 'error', NEW.error),
                'contact', (SELECT name FROM contacts WHERE id = NEW.contact_id))
            """
        migrator.registerMigration("v6-event-journal") { db in
            // What happened, for webhooks and the API's event stream: one row per event, numbered
            // by `id`, written in the transaction of its cause. Triggers write the message, resync
            // and modem events, so every writer (the CLI, the daemon, a later front end) feeds the
            // journal without knowing; `contact.desync` is written by the operation that counts the
            // failure. The payload is JSON without any text: a webhook that is allowed the text
            // reads it from the encrypted log when it delivers. Removing a contact or pruning a
            // message deletes its events (they name the contact and its number). SQLite has one writer at a time,
            // so rows become visible in `id` order, as in `message_events`.
            try db.execute(
                sql: """
                    CREATE TABLE events (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        type TEXT NOT NULL,
                        time REAL NOT NULL,
                        contact_id TEXT REFERENCES contacts(id) ON DELETE CASCADE,
                        message_id INTEGER REFERENCES messages(id) ON DELETE CASCADE,
                        payload TEXT NOT NULL CHECK (json_valid(payload))
                    ) STRICT;
                    CREATE INDEX events_message ON events(message_id);
                    CREATE INDEX events_contact ON events(contact_id);
                    CREATE TRIGGER events_message_logged AFTER INSERT ON messages
                    WHEN (NEW.direction = 'in' AND NEW.status IN ('decrypted', 'partial')) OR NEW.status = 'resynced' BEGIN
                        INSERT INTO events (type, time, contact_id, message_id, payload)
                        VALUES (
                            CASE NEW.status WHEN 'resynced' THEN 'contact.resynced' ELSE 'message.received' END,
                            NEW.time, NEW.contact_id, NEW.id,
                            \(messagePayload));
                    END;
                    CREATE TRIGGER events_message_changed AFTER UPDATE OF status ON messages
                    WHEN NEW.direction = 'out' AND OLD.status IN ('queued', 'sent')
                        AND NEW.status IN ('sent', 'delivered', 'acknowledged', 'failed') AND NEW.status IS NOT OLD.status BEGIN
                        INSERT INTO events (type, time, contact_id, message_id, payload)
                        VALUES (
                            CASE NEW.status WHEN 'sent' THEN 'message.sent' WHEN 'failed' THEN 'message.failed'
                                ELSE 'message.delivered' END,
                            (julianday('now') - 2440587.5) * 86400.0, NEW.contact_id, NEW.id,
                            \(messagePayload));
                    END;
                    CREATE TRIGGER events_modem_changed BEFORE INSERT ON modem_status
                    WHEN (NEW.state = 'ready') IS NOT (COALESCE((SELECT state FROM modem_status WHERE name = NEW.name), '') = 'ready') BEGIN
                        INSERT INTO events (type, time, payload)
                        VALUES (
                            CASE NEW.state WHEN 'ready' THEN 'modem.up' ELSE 'modem.down' END, NEW.updated_at,
                            json_object('modem', json_object('name', NEW.name, 'state', NEW.state, 'error', NEW.last_error)));
                    END;
                    """)
        }

        migrator.registerMigration("v6-webhook-deliveries") { db in
            // Per webhook endpoint (its URL): how far into the journal it has been given events,
            // and whether a 410 disabled it. Per event and endpoint: one delivery, pending until a
            // 2xx (then delivered) or until retries ran out (failed). Progress commits only after
            // the receiver's answer, so a crash repeats a delivery (same webhook-id), never loses it.
            try db.execute(
                sql: """
                    CREATE TABLE webhook_endpoints (
                        url TEXT PRIMARY KEY NOT NULL,
                        cursor INTEGER NOT NULL,
                        disabled_at REAL,
                        disabled_reason TEXT,
                        created_at REAL NOT NULL
                    ) STRICT, WITHOUT ROWID;
                    CREATE TABLE webhook_deliveries (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        endpoint TEXT NOT NULL REFERENCES webhook_endpoints(url) ON DELETE CASCADE,
                        event_id INTEGER NOT NULL,
                        state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
                        attempts INTEGER NOT NULL DEFAULT 0,
                        first_attempt_at REAL,
                        next_attempt_at REAL NOT NULL,
                        last_status INTEGER,
                        last_error TEXT,
                        created_at REAL NOT NULL,
                        updated_at REAL NOT NULL,
                        delivered_at REAL,
                        UNIQUE (endpoint, event_id)
                    ) STRICT;
                    CREATE INDEX webhook_deliveries_state ON webhook_deliveries(endpoint, state, event_id);
                    """)
        }
    }
}
