"""The store's hot reads on a store that has run for a year: the statements every front end's
reads make (`status`, the console's banners, `log` with and without its filters, `GET
/v1/messages` in both orders, the log feed after a cursor, the key search's candidates, the
outbox claim, the retention prune), as the store issues them (each statement's source is named
beside it), timed with SQLite's planner as it is and after `PRAGMA optimize`.

A store made by the given smsgw (`smsgw init`, so its own schema and migrations) gets --contacts
contacts (copies of one added with `smsgw contact add`) and --messages messages over a year,
through SQL with the schema's triggers on: half sent (each with its outbox row; 90 % delivered,
8 % sent, 1.5 % acknowledged, 0.5 % failed), half received (96 % decrypted, 2 % plain, 1 %
rejected, 1 % quarantined-looking `unreadable`). Each change of status goes through an UPDATE, so
`message_events` and the journal `events` fill as they do in service; their times are then set
back to the message's.

    python3 Benchmarks/gateway/store_scale_probe.py .build/debug/smsgw --messages 500000 --keep /tmp/year
    python3 Benchmarks/gateway/store_scale_probe.py OLD/smsgw --store /tmp/year --optimize
    python3 Benchmarks/gateway/store_scale_probe.py NEW/smsgw --store /tmp/year

For each read: its plan (EXPLAIN QUERY PLAN), its answer's size and the median of --repeat runs,
in ms; with --optimize, the same after `PRAGMA optimize` (SQLite's statistics). The prune runs
last, once, in one transaction rolled back, with secure_delete on as the store opens its
connections (`log prune` itself deletes in batches: time `smsgw log prune` on a copy for its whole
run). Nothing here asserts a time.
"""

import argparse, os, random, shutil, sqlite3, statistics, sys, tempfile, time

sys.path.insert(0, os.path.dirname(__file__))
from bench_smsgw import Account, make_account

NOW = 1_800_000_000.0
YEAR = 365 * 86400
MSG = "m.id, m.uuid, m.time, m.direction, m.contact_id, c.name AS contact_name, m.remote_number, m.status, m.text, " \
      "m.ciphertext, m.error, m.fingerprint, (SELECT MAX(e.seq) FROM message_events e WHERE e.message_id = m.id) AS sequence"
PAGE = f"SELECT {MSG} FROM messages m LEFT JOIN contacts c ON c.id = m.contact_id WHERE {{}} ORDER BY m.id {{}} LIMIT ?"
FEED = (f"SELECT e.seq AS event_seq, e.status AS event_status, e.time AS event_time, "
        f"e.seq = (SELECT MIN(f.seq) FROM message_events f WHERE f.message_id = e.message_id) AS event_is_new, {MSG} "
        "FROM message_events e JOIN messages m ON m.id = e.message_id LEFT JOIN contacts c ON c.id = m.contact_id "
        "WHERE {} ORDER BY e.seq ASC LIMIT ?")
UNCONFIRMED = ("SELECT COUNT(*) AS n, MIN(sent_at) AS oldest FROM outbox WHERE state = 'sent' AND kind = 'text' "
               "AND acknowledged_at IS NULL AND checked_at IS NULL AND confirmable = 1 AND sent_at < ? AND sent_at >= ?")
CLAIM = ("SELECT o.id FROM outbox o WHERE o.state = 'queued' AND o.next_attempt_at <= ? "
         "ORDER BY (SELECT MAX(p.claim_sequence) FROM outbox p WHERE p.contact_id = o.contact_id) ASC NULLS FIRST, "
         "o.id ASC LIMIT 1")
PRUNE = ["DELETE FROM messages WHERE time < ? AND id NOT IN (SELECT message_id FROM outbox "
         "WHERE message_id IS NOT NULL AND state IN ('queued', 'submitting'))",
         "DELETE FROM webhook_deliveries WHERE state <> 'pending' AND updated_at < ?",
         "DELETE FROM events WHERE time < ? AND id <= COALESCE((SELECT MIN(cursor) FROM webhook_endpoints "
         "WHERE disabled_at IS NULL), id) AND id NOT IN (SELECT event_id FROM webhook_deliveries WHERE state = 'pending')"]


def pick(rng, mix):
    draw = rng.random()
    for status, share in mix:
        draw -= share
        if draw < 0:
            return status
    return mix[-1][0]


def fill(db, contacts, messages):
    """The contacts, then the messages oldest first with their outbox rows and status changes."""
    first = db.execute("SELECT * FROM contacts").fetchone()
    columns = [d[0] for d in db.execute("SELECT * FROM contacts").description]
    db.execute("DELETE FROM contacts")
    ids = []
    for i in range(contacts):
        row = dict(zip(columns, first))
        row.update(id=f"00000000-0000-4000-8000-{i:012d}", name=f"c{i:03d}", name_key=f"c{i:03d}",
                   phone_number=f"+4477009{i:05d}", last_sent_at=NOW - i * 600, last_received_at=NOW - i * 900)
        db.execute(f"INSERT INTO contacts ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", list(row.values()))
        ids.append(row["id"])
    rng = random.Random(7)
    step = YEAR / messages
    out_mix = [("delivered", 0.90), ("sent", 0.08), ("acknowledged", 0.015), ("failed", 0.005)]
    in_mix = [("decrypted", 0.96), ("plain", 0.02), ("rejected", 0.01), ("unreadable", 0.01)]
    changes = []
    for i in range(messages):
        when = NOW - YEAR + i * step
        contact = ids[rng.randrange(contacts)]
        outgoing = i % 2 == 0
        status = pick(rng, out_mix if outgoing else in_mix)
        cursor = db.execute(
            "INSERT INTO messages (uuid, time, direction, contact_id, remote_number, status, text, ciphertext) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (f"{i:08x}-0000-4000-8000-000000000000", when, "out" if outgoing else "in", contact, None,
             "queued" if outgoing else status, b"x" * 60, "C" * 160))
        if not outgoing:
            continue
        message = cursor.lastrowid
        state = {"acknowledged": "delivered"}.get(status, status)
        db.execute(
            "INSERT INTO outbox (message_id, contact_id, phone_number, body, state, attempts, next_attempt_at, "
            "claim_sequence, modem, message_reference, created_at, updated_at, sent_at, delivered_at, acknowledged_at, "
            "confirmable) VALUES (?, ?, '+447700900000', ?, ?, 1, ?, ?, 'modem', ?, ?, ?, ?, ?, ?, 1)",
            (message, contact, "C" * 160, state, when, i + 1, i % 256, when, when + 5,
             None if state == "failed" else when + 1, when + 5 if state == "delivered" else None,
             when + 60 if status == "acknowledged" else None))
        changes.append((message, status))
    for message, status in changes:
        if status != "failed":
            db.execute("UPDATE messages SET status = 'sent' WHERE id = ?", (message,))
        if status != "sent":
            db.execute("UPDATE messages SET status = ? WHERE id = ?", (status, message))
    db.execute("UPDATE message_events SET time = (SELECT time FROM messages WHERE id = message_id) + (seq % 7)")
    db.execute("UPDATE events SET time = COALESCE((SELECT time FROM messages WHERE id = message_id), time)")
    db.commit()


def reads(db):
    """(name, statements, arguments): each read as the store makes it, with its source."""
    some = db.execute("SELECT id FROM contacts ORDER BY id LIMIT 1").fetchone()[0]
    top = db.execute("SELECT MAX(id) FROM messages").fetchone()[0]
    seq = db.execute("SELECT MAX(seq) FROM message_events").fetchone()[0]
    contacts = [r[0] for r in db.execute("SELECT id FROM contacts")]
    bounds = (NOW - 6 * 3600, NOW - 7 * 86400)
    per_contact = [("SELECT COUNT(*) FROM quarantine WHERE contact_id = ?", (c,)) for c in contacts] + \
        [("SELECT MAX(acknowledged_at) FROM outbox WHERE contact_id = ? AND acknowledged_at IS NOT NULL", (c,))
         for c in contacts]
    return [
        # GatewayStatus.read: OutboxItem.swift outboxCounts, OutboxEntry.queueEntries (outboxItems in states),
        # ContactStatus.read per contact (QuarantinedMessage, StoreTransaction+Acknowledgements), Unconfirmed.
        ("status: outbox counts", [("SELECT state, COUNT(*) AS n FROM outbox GROUP BY state", ())]),
        ("status: queue (queued, submitting)",
         [("SELECT * FROM outbox WHERE state IN ('queued', 'submitting') ORDER BY id", ())]),
        ("status: failed outbox rows", [("SELECT * FROM outbox WHERE state IN ('failed') ORDER BY id", ())]),
        # OutboxEntry.queueEntries since v15 (StoreReader.recentFailures): the failures of the last day, newest 5.
        ("status: recent failures (last day, newest 5)",
         [("SELECT * FROM outbox WHERE state = 'failed' AND updated_at > ? ORDER BY id DESC LIMIT ?", (NOW - 86400, 5))]),
        # APIMetrics.figures: StoreReader.messageCounts, at each scrape of /metrics.
        ("metrics: messages by direction and status",
         [("SELECT direction, status, COUNT(*) AS n FROM messages GROUP BY direction, status ORDER BY direction, status", ())]),
        (f"status: per contact x{len(contacts)} (quarantined, last acknowledgement)", per_contact),
        ("status/banners: unconfirmed", [(UNCONFIRMED, bounds)]),
        ("banners: contacts with restored keys",
         [("SELECT * FROM contacts WHERE keys_restored_at IS NOT NULL ORDER BY name_key", ())]),
        # MessageLog.recent and GET /v1/messages: StoreReader+LogPage.logPage; LogEvent.latestLogSequence.
        ("log: latest sequence", [("SELECT COALESCE(MAX(seq), 0) FROM message_events", ())]),
        ("log: newest 50", [(PAGE.format("m.id > ?", "DESC"), (0, 50))]),
        ("log: newest 50 of a contact", [(PAGE.format("m.id > ? AND m.contact_id = ?", "DESC"), (0, some, 50))]),
        ("log: newest 50 incoming", [(PAGE.format("m.id > ? AND m.direction = ?", "DESC"), (0, "in", 50))]),
        ("log: newest 50 failed", [(PAGE.format("m.id > ? AND m.status = ?", "DESC"), (0, "failed", 50))]),
        ("log: newest 50 rejected", [(PAGE.format("m.id > ? AND m.status = ?", "DESC"), (0, "rejected", 50))]),
        ("log: newest 50 resynced (there are none)",
         [(PAGE.format("m.id > ? AND m.status = ?", "DESC"), (0, "resynced", 50))]),
        ("log: newest 50 delivered of a contact",
         [(PAGE.format("m.id > ? AND m.contact_id = ? AND m.status = ?", "DESC"), (0, some, "delivered", 50))]),
        ("log: newest 50 outgoing failed of a contact",
         [(PAGE.format("m.id > ? AND m.direction = ? AND m.contact_id = ? AND m.status = ?", "DESC"),
           (0, "out", some, "failed", 50))]),
        ("api: messages page 100, oldest first, middle",
         [(PAGE.format("m.id > ?", "ASC"), (top // 2, 100))]),
        ("api: messages page 100, newest first, middle",
         [(PAGE.format("m.id < ?", "DESC"), (top // 2, 100))]),
        ("api: messages page 100 failed, oldest first",
         [(PAGE.format("m.id > ? AND m.status = ?", "ASC"), (0, "failed", 100))]),
        # LogEvent.logEvents: the feed after a cursor (a follower 1,000 changes behind; a filtered one).
        ("feed: 500 after a cursor", [(FEED.format("e.seq > ?"), (seq - 1000, 500))]),
        ("feed: failed after a day-old cursor",
         [(FEED.format("e.seq > ? AND e.status = ?"), (seq - 3000, "failed", 500))]),
        # StoreReader+KeySearch.contactsWithKeys.
        ("key search: candidates (200)",
         [("SELECT COUNT(*) FROM contacts WHERE session IS NOT NULL AND id <> ?", ("",)),
          ("SELECT * FROM contacts WHERE session IS NOT NULL AND id <> ? ORDER BY CASE WHEN "
           "COALESCE(last_received_at, 0) >= COALESCE(last_sent_at, 0) THEN COALESCE(last_received_at, 0) "
           "ELSE last_sent_at END DESC, name_key LIMIT ?", ("", 200))]),
        # StoreTransaction+Claims.claimNextOutbox (nothing queued: the daemon's common case; the next number).
        ("claim: next due row", [(CLAIM, (NOW,))]),
        ("claim: next claim sequence", [("SELECT MAX(claim_sequence) FROM outbox", ())]),
    ]


def run(db, statements):
    rows = 0
    for sql, arguments in statements:
        rows += len(db.execute(sql, arguments).fetchall())
    return rows


def measure(db, repeat, label, prune=True):
    for name, statements in reads(db):
        plan = " | ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + statements[-1][0], statements[-1][1]))
        rows = run(db, statements)
        samples = []
        for _ in range(repeat):
            started = time.perf_counter()
            run(db, statements)
            samples.append((time.perf_counter() - started) * 1000)
        print(f"{label:7} {statistics.median(samples):9.3f} ms  {rows:6} rows  {name}\n{'':26}plan: {plan}")
    if not prune:
        return
    db.execute("BEGIN")
    started = time.perf_counter()
    deleted = [db.execute(sql, (NOW - 180 * 86400,)).rowcount for sql in PRUNE]
    took = (time.perf_counter() - started) * 1000
    db.execute("ROLLBACK")
    print(f"{label:7} {took:9.3f} ms  {deleted} deleted  prune: half a year")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("smsgw")
    parser.add_argument("--messages", type=int, default=500_000)
    parser.add_argument("--contacts", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--keep", help="keep the filled store's data directory here")
    parser.add_argument("--store", help="measure this filled data directory (a --keep) instead of filling one; the "
                        "given smsgw opens it first, which runs its migrations")
    parser.add_argument("--optimize", action="store_true", help="measure again after PRAGMA optimize")
    parser.add_argument("--no-prune", action="store_true", help="leave the prune out (it takes a minute)")
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="smsgw-scale-probe-")
    try:
        if args.store:
            account = Account(os.path.abspath(args.smsgw), root, "alice")
            shutil.copytree(args.store, account.dir)
            account.cli("contact", "list")
        else:
            account = make_account(os.path.abspath(args.smsgw), root, "alice")
            account.cli("contact", "add", "seed", "--number", "+447700900001")
        path = os.path.join(account.dir, "smsgw.sqlite")
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("PRAGMA foreign_keys = ON")
        if not args.store:
            started = time.perf_counter()
            db.execute("BEGIN")
            fill(db, args.contacts, args.messages)
            print(f"filled in {time.perf_counter() - started:.0f} s")
        # As the store opens its connections: the prune below zeroes what it frees, as `log prune` does.
        db.execute("PRAGMA secure_delete = ON")
        counts = [db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                  for t in ["messages", "message_events", "events", "outbox"]]
        print(f"messages, message_events, events, outbox = {counts}")
        measure(db, args.repeat, "as is", prune=not args.no_prune)
        if args.keep:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            shutil.copytree(account.dir, args.keep)
        if args.optimize:
            db.execute("PRAGMA optimize=0x10002")
            measure(db, args.repeat, "optimize", prune=not args.no_prune)
        db.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
