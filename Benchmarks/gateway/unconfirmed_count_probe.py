"""What the count of sent SMS never confirmed costs on a large outbox: the read every console
`GET /banners` (each open log and status page, every 3 s), `status` and `/metrics` make.

A store made by the given smsgw (`smsgw init`, so its own schema) gets --rows outbox rows, one
SMS every few minutes over a year, in two shapes: `no-reports`, a modem with `status_reports =
false` and contacts without acknowledgements (every row stays `sent`; nothing can confirm them),
and `reports`, reports on and 1 SMS in 20 never confirmed (the rest `delivered`). In each, the
count as it was before migration `v13-outbox-unconfirmed` (the statement below, without the index)
and as it is after (the statement of `StoreReader.unconfirmedCount`, with `outbox_unconfirmed`)
runs --repeat times; its plan, its answer and the mean time per count are printed.

    python3 Benchmarks/gateway/unconfirmed_count_probe.py .build/debug/smsgw --rows 200000
"""

import argparse, os, shutil, sqlite3, sys, tempfile, time

sys.path.insert(0, os.path.dirname(__file__))
from bench_smsgw import make_account

BEFORE = ("SELECT COUNT(*) AS n, MIN(sent_at) AS oldest FROM outbox "
          "WHERE state = 'sent' AND kind = 'text' AND acknowledged_at IS NULL AND sent_at < ? AND sent_at >= ?")
AFTER = ("SELECT COUNT(*) AS n, MIN(sent_at) AS oldest FROM outbox "
         "WHERE state = 'sent' AND kind = 'text' AND acknowledged_at IS NULL AND checked_at IS NULL AND confirmable = 1 "
         "AND sent_at < ? AND sent_at >= ?")
INDEX = ("CREATE INDEX outbox_unconfirmed ON outbox(state, sent_at) WHERE state = 'sent' AND kind = 'text' "
         "AND acknowledged_at IS NULL AND checked_at IS NULL AND confirmable = 1")
NOW = 1_800_000_000.0


def fill(db, rows, shape):
    """`rows` text SMS, the newest a minute before NOW, spread over a year."""
    step = 365 * 86400 / rows
    db.execute("DELETE FROM outbox")
    values = []
    for i in range(rows):
        sent = NOW - 60 - i * step
        unconfirmed = shape == "no-reports" or i % 20 == 0
        state = "sent" if unconfirmed else "delivered"
        confirmable = 0 if shape == "no-reports" else 1
        values.append(("00000000-0000-0000-0000-000000000001", "+15550002", "C" * 160, state, sent, sent, sent, sent,
                       confirmable))
    db.executemany(
        "INSERT INTO outbox (contact_id, phone_number, body, state, next_attempt_at, created_at, updated_at, sent_at, "
        "confirmable) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
    db.commit()


def measure(db, statement, repeat):
    bounds = (NOW - 6 * 3600, NOW - 7 * 86400)
    plan = "; ".join(row[3] for row in db.execute("EXPLAIN QUERY PLAN " + statement, bounds))
    answer = db.execute(statement, bounds).fetchone()
    started = time.perf_counter()
    for _ in range(repeat):
        db.execute(statement, bounds).fetchone()
    return plan, answer[0], (time.perf_counter() - started) / repeat * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("smsgw")
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="smsgw-unconfirmed-probe-")
    try:
        account = make_account(os.path.abspath(args.smsgw), root, "alice")
        db = sqlite3.connect(os.path.join(account.dir, "smsgw.sqlite"))
        for shape in ["no-reports", "reports"]:
            fill(db, args.rows, shape)
            db.execute("DROP INDEX outbox_unconfirmed")
            before = measure(db, BEFORE, args.repeat)
            db.execute(INDEX)
            after = measure(db, AFTER, args.repeat)
            for label, (plan, count, ms) in [("before", before), ("after", after)]:
                print(f"{shape:10} {label:6} {ms:9.3f} ms per count, counted {count:6}, plan: {plan}")
        db.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
