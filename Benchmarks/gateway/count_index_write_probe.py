"""What migration v15's count indexes (`messages_status_direction_contact`, the partial
`outbox_failed`) cost the writes of the message log: on a copy of a filled store (a `--keep` of
store_scale_probe.py), a message's life as the daemon writes it, each step its own transaction as
the store makes it (BEGIN IMMEDIATE, secure_delete on, WAL, the commit synced), timed with the
indexes and with them dropped, in turn, so both see the same file and the same machine:

- send: the log row (`queued`, outgoing) and its outbox row (StoreTransaction+Log appendLog,
  enqueueOutbox);
- sent: the outbox row and the log row moved to `sent` (markOutboxSent, setLogStatus);
- delivered: both moved to `delivered` (the status report);
- received: an incoming message logged `decrypted`.

    python3 Benchmarks/gateway/count_index_write_probe.py /tmp/year --messages 1000 --rounds 2

Prints, for each round and variant, the median and 90th percentile of each step in ms and the
whole life's mean; with --prune, then the half-year prune of store_scale_probe.py (one
transaction, rolled back) with and without the indexes, in turn. Nothing here asserts a time.
"""

import argparse, os, shutil, sqlite3, statistics, sys, tempfile, time

sys.path.insert(0, os.path.dirname(__file__))
from store_scale_probe import NOW, PRUNE

V15 = {
    "messages_status_direction_contact": "CREATE INDEX messages_status_direction_contact ON messages(status, direction, contact_id)",
    "outbox_failed": "CREATE INDEX outbox_failed ON outbox(state, updated_at) WHERE state = 'failed'",
}
STEPS = ["send", "sent", "delivered", "received"]


def transaction(db, statements):
    """Runs the statements in one write transaction; its time in ms, the commit included."""
    started = time.perf_counter()
    db.execute("BEGIN IMMEDIATE")
    for sql, arguments in statements:
        db.execute(sql, arguments)
    db.execute("COMMIT")
    return (time.perf_counter() - started) * 1000


def one_life(db, contact, number, serial):
    """One outgoing message's three transactions and one incoming message's; their times in ms."""
    now = time.time()
    uuid = f"{serial:08x}-1111-4000-8000-000000000000"
    took = {}
    # Messages.queue: the log row and the outbox row in one transaction.
    started = time.perf_counter()
    db.execute("BEGIN IMMEDIATE")
    message = db.execute(
        "INSERT INTO messages (uuid, time, direction, contact_id, remote_number, status, text, ciphertext) "
        "VALUES (?, ?, 'out', ?, NULL, 'queued', ?, ?)", (uuid, now, contact, b"x" * 60, "C" * 160)).lastrowid
    outbox = db.execute(
        "INSERT INTO outbox (message_id, contact_id, phone_number, body, state, attempts, next_attempt_at, "
        "created_at, updated_at, confirmable) VALUES (?, ?, ?, ?, 'queued', 0, ?, ?, ?, 1)",
        (message, contact, number, "C" * 160, now, now, now)).lastrowid
    db.execute("COMMIT")
    took["send"] = (time.perf_counter() - started) * 1000
    for status in ["sent", "delivered"]:
        took[status] = transaction(db, [
            (f"UPDATE outbox SET state = ?, updated_at = ?, {status}_at = ? WHERE id = ?", (status, now, now, outbox)),
            ("UPDATE messages SET status = ?, error = COALESCE(NULL, error) WHERE id = ?", (status, message)),
        ])
    took["received"] = transaction(db, [(
        "INSERT INTO messages (uuid, time, direction, contact_id, remote_number, status, text, ciphertext) "
        "VALUES (?, ?, 'in', ?, ?, 'decrypted', ?, ?)",
        (f"{serial:08x}-2222-4000-8000-000000000000", now, contact, number, b"x" * 60, "C" * 160))])
    return took


def run(db, contacts, messages, serial):
    samples = {step: [] for step in STEPS}
    for i in range(messages):
        contact, number = contacts[i % len(contacts)]
        for step, took in one_life(db, contact, number, serial + i).items():
            samples[step].append(took)
    return samples


def report(label, samples):
    parts = []
    for step in STEPS:
        values = sorted(samples[step])
        parts.append(f"{step} {statistics.median(values):.3f}/{values[int(len(values) * 0.9)]:.3f}")
    whole = sum(statistics.mean(samples[step]) for step in STEPS)
    print(f"{label:16} ms median/p90: {'  '.join(parts)}  life mean {whole:.3f}", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("store", help="a filled data directory (store_scale_probe.py --keep)")
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--prune", action="store_true", help="also time the half-year prune with and without them")
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="smsgw-count-index-probe-")
    try:
        copy = os.path.join(root, "store")
        shutil.copytree(args.store, copy)
        db = sqlite3.connect(os.path.join(copy, "smsgw.sqlite"), isolation_level=None)
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA secure_delete = ON")
        db.execute("PRAGMA temp_store = MEMORY")
        print("journal_mode", db.execute("PRAGMA journal_mode").fetchone()[0],
              "synchronous", db.execute("PRAGMA synchronous").fetchone()[0], flush=True)
        missing = [name for name in V15 if not db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?", (name,)).fetchone()]
        for name in missing:
            db.execute(V15[name])
        contacts = db.execute("SELECT id, phone_number FROM contacts ORDER BY id").fetchall()
        serial = 0x10000000
        for round_ in range(args.rounds):
            for variant in ["with v15", "without v15"]:
                if variant == "without v15":
                    for name in V15:
                        db.execute(f"DROP INDEX {name}")
                report(f"{round_ + 1} {variant}", run(db, contacts, args.messages, serial))
                serial += args.messages
                if variant == "without v15":
                    for sql in V15.values():
                        db.execute(sql)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        for round_ in range(args.rounds if args.prune else 0):
            for variant in ["with v15", "without v15"]:
                if variant == "without v15":
                    for name in V15:
                        db.execute(f"DROP INDEX {name}")
                db.execute("BEGIN IMMEDIATE")
                started = time.perf_counter()
                deleted = [db.execute(sql, (NOW - 180 * 86400,)).rowcount for sql in PRUNE]
                took = time.perf_counter() - started
                db.execute("ROLLBACK")
                # The rolled-back pages leave the -wal file, so the next run reads the database as this one did.
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                print(f"{round_ + 1} {variant:12} prune half a year in one transaction: {took:.1f} s, {deleted} deleted", flush=True)
                if variant == "without v15":
                    for sql in V15.values():
                        db.execute(sql)
        db.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
