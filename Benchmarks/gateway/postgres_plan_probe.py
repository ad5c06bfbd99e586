"""The plans PostgreSQL makes for the store's hot reads on a filled store, not on the empty tables
ReadIndexPlanTests and CountIndexPlanTests see (they forbid sequential scans to see which index a
read can take; here the planner chooses freely, with the statistics autovacuum or ANALYZE left).

Fill a PostgreSQL store from a store_scale_probe.py --keep with `smsgw store migrate` (a throw-away
cluster, as TestSupport's PostgresCluster makes one: initdb as the postgres user, trust on its
socket), then:

    python3 Benchmarks/gateway/postgres_plan_probe.py --host /tmp/pg --port 55432 --database year

Each read runs as EXPLAIN (ANALYZE) with its arguments written in (postgres-nio sends each statement
unnamed, so the server plans it for the values it is given); printed: the execution time the server
reports and the plan's nodes that read a table or an index. With --analyze, ANALYZE runs first.
Nothing here asserts a time.
"""

import argparse, subprocess

NOW = 1_800_000_000.0
MSG = ("m.id, m.uuid, m.time, m.direction, m.contact_id, c.name AS contact_name, m.remote_number, m.status, m.text, "
       "m.ciphertext, m.error, m.fingerprint, (SELECT MAX(e.seq) FROM message_events e WHERE e.message_id = m.id) AS sequence")
PAGE = f"SELECT {MSG} FROM messages m LEFT JOIN contacts c ON c.id = m.contact_id WHERE {{}} ORDER BY m.id {{}} LIMIT 50"


def reads(contact):
    """(name, statement): the reads whose plans the tests check, with their arguments written in."""
    return [
        ("log: newest 50 failed (messages_status)", PAGE.format("m.id > 0 AND m.status = 'failed'", "DESC")),
        ("log: oldest 50 failed", PAGE.format("m.id > 0 AND m.status = 'failed'", "ASC")),
        ("log: newest 50 outgoing failed", PAGE.format("m.id > 0 AND m.direction = 'out' AND m.status = 'failed'", "DESC")),
        ("log: newest 50 resynced (none)", PAGE.format("m.id > 0 AND m.status = 'resynced'", "DESC")),
        ("log: a contact's newest 50 delivered (messages_contact_status)",
         PAGE.format(f"m.id > 0 AND m.contact_id = '{contact}' AND m.direction = 'out' AND m.status = 'delivered'", "DESC")),
        ("log: a contact's outgoing failed",
         PAGE.format(f"m.id > 0 AND m.contact_id = '{contact}' AND m.direction = 'out' AND m.status = 'failed'", "ASC")),
        ("log: newest 50 incoming", PAGE.format("m.id > 0 AND m.direction = 'in'", "DESC")),
        ("status: a contact's last acknowledgement (outbox_acknowledged)",
         f"SELECT MAX(acknowledged_at) FROM outbox WHERE contact_id = '{contact}' AND acknowledged_at IS NOT NULL"),
        ("claim: the last claim's number (outbox_claim_sequence)", "SELECT MAX(claim_sequence) FROM outbox"),
        ("metrics: messages by direction and status (messages_status_direction_contact)",
         "SELECT direction, status, COUNT(*) AS n FROM messages GROUP BY direction, status ORDER BY direction, status"),
        ("status: the day's newest failures (outbox_failed)",
         f"SELECT * FROM outbox WHERE state = 'failed' AND updated_at > {NOW - 86400} ORDER BY id DESC LIMIT 5"),
        ("status: outbox counts", "SELECT state, COUNT(*) AS n FROM outbox GROUP BY state"),
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True, help="the socket's directory or the host")
    parser.add_argument("--port", default="5432")
    parser.add_argument("--user", default="postgres")
    parser.add_argument("--database", required=True)
    parser.add_argument("--analyze", action="store_true", help="run ANALYZE first")
    args = parser.parse_args()

    def psql(sql):
        command = ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", f"--host={args.host}", f"--port={args.port}",
                   f"--username={args.user}", f"--dbname={args.database}", f"--command={sql}"]
        return subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines()

    if args.analyze:
        psql("ANALYZE")
    contact = psql("SELECT id FROM contacts ORDER BY id LIMIT 1")[0]
    for name, sql in reads(contact):
        plan = psql("EXPLAIN (ANALYZE, COSTS OFF) " + sql)
        took = next((line.split(":")[1].strip() for line in plan if line.startswith("Execution Time")), "?")
        reads_ = [line.strip().lstrip("-> ") for line in plan if " on " in line or "Scan" in line]
        print(f"{took:>12}  {name}\n{'':14}{' | '.join(reads_)}")


if __name__ == "__main__":
    main()
