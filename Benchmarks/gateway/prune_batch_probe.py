"""How large a batch of `smsgw log prune` should be: on a copy of a store filled by
store_scale_probe.py (its --keep), the prune's statements as UnlockedStore+Prune.swift issues them
(each batch's ids found by a read, then one IMMEDIATE transaction deleting that id range, then the
pause), with secure_delete and foreign keys on as the store opens its connections, while a second
connection stands for the daemon and logs a message every 50 ms, each in its own IMMEDIATE
transaction with the store's busy timeout.

    python3 Benchmarks/gateway/prune_batch_probe.py /tmp/year --sizes 250,1000,4000 --batches 40

For each size, one after the other on the same copy (each takes the next oldest messages): the
median and the longest batch transaction, the messages per second with the pauses, and how long
the daemon's writes waited for the lock (median, longest) and whether any failed as busy. Half a
year of the probe's store is 253,425 messages. Nothing here asserts a time.
"""

import argparse, os, shutil, sqlite3, statistics, tempfile, threading, time

NOW = 1_800_000_000.0
CUTOFF = NOW - 180 * 86400
OLD = ("time < ? AND id NOT IN (SELECT message_id FROM outbox "
       "WHERE message_id IS NOT NULL AND state IN ('queued', 'submitting'))")


def connect(path):
    db = sqlite3.connect(path, isolation_level=None, timeout=15, check_same_thread=False)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA secure_delete = ON")
    return db


def daemon(path, stop, waits, failures):
    """Logs a message every 50 ms, as the daemon logs an SMS received, timing each write."""
    db = connect(path)
    while not stop.is_set():
        started = time.perf_counter()
        try:
            db.execute("BEGIN IMMEDIATE")
            waits.append((time.perf_counter() - started) * 1000)
            db.execute("INSERT INTO messages (uuid, time, direction, status, text) VALUES (?, ?, 'in', 'plain', ?)",
                       (f"probe-{time.perf_counter_ns()}", NOW, b"x" * 60))
            db.execute("COMMIT")
        except sqlite3.OperationalError as error:
            failures.append(str(error))
        time.sleep(0.05)
    db.close()


def batches(db, size, count, pause, cursor):
    """`count` batches of `size` from `cursor`; the transactions' durations in ms and the new cursor."""
    took = []
    for index in range(count):
        upper = db.execute(f"SELECT MAX(id) FROM (SELECT id FROM messages WHERE id > ? AND {OLD} ORDER BY id LIMIT ?)",
                           (cursor, CUTOFF, size)).fetchone()[0]
        if upper is None:
            break
        if index > 0:
            time.sleep(pause)
        started = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        arguments = (cursor, upper, CUTOFF)
        db.execute(f"SELECT COUNT(*) FROM events WHERE message_id IN (SELECT id FROM messages WHERE id > ? AND id <= ? "
                   f"AND {OLD})", arguments).fetchone()
        db.execute(f"DELETE FROM messages WHERE id > ? AND id <= ? AND {OLD}", arguments)
        db.execute("COMMIT")
        took.append((time.perf_counter() - started) * 1000)
        cursor = upper
    return took, cursor


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("store", help="a data directory kept by store_scale_probe.py --keep")
    parser.add_argument("--sizes", default="250,1000,4000")
    parser.add_argument("--batches", type=int, default=40, help="batches measured for each size")
    parser.add_argument("--pause", type=float, default=0.12, help="seconds between batches (UnlockedStore.prunePause)")
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="smsgw-prune-probe-")
    try:
        copy = os.path.join(root, "store")
        shutil.copytree(args.store, copy)
        path = os.path.join(copy, "smsgw.sqlite")
        db = connect(path)
        cursor = 0
        for size in [int(s) for s in args.sizes.split(",")]:
            stop, waits, failures = threading.Event(), [], []
            writer = threading.Thread(target=daemon, args=(path, stop, waits, failures))
            writer.start()
            started = time.perf_counter()
            took, cursor = batches(db, size, args.batches, args.pause, cursor)
            elapsed = time.perf_counter() - started
            stop.set()
            writer.join()
            if not took:
                print(f"size {size}: nothing left to delete")
                continue
            print(f"size {size:5}: {len(took)} batches, transaction median {statistics.median(took):7.1f} ms, "
                  f"longest {max(took):7.1f} ms; {len(took) * size / elapsed:7.0f} messages/s with the pauses; "
                  f"daemon's {len(waits)} writes waited median {statistics.median(waits):6.1f} ms, "
                  f"longest {max(waits):7.1f} ms; {len(failures)} failed {failures[:1]}")
        db.close()
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
