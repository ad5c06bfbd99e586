"""What a PostgreSQL write transaction costs, binary against binary: key-state writes a second
(`smsgw send bob --lines`, one seal per line, each its own write transaction), sends a second
through the HTTP API (`POST /v1/messages` to `serve --sim`, as bench_api.py's rate run), and the
statements the server ran per seal (pg_stat_statements: each is one round trip).

Every binary runs on one throw-away cluster (bench_store.py's, with pg_stat_statements loaded),
each run on a fresh database; the binaries take turns, their order rotating each round, and each
figure is printed per run and as the median of the rounds.

    python3 Benchmarks/gateway/pg_write_cost_probe.py before=PATH after=PATH [--rounds 3]
"""

import argparse
import json
import os
import sys
import time

from bench_api import post_load, start
from bench_processes import Procs, proc_usage
from bench_smsgw import Account, make_account, pair
from bench_store import Cluster, scratch, timed
from bench_support import BenchError, med, pct


def statements(cluster, database):
    """Statements the server ran on `database` so far (utility statements, BEGIN and COMMIT, included)."""
    rows = cluster.rows(database, "SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s "
                                  "JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()")
    return int(rows[0][0])


def one_run(cluster, label, smsgw, root, args, database):
    """One binary's figures on a fresh `database`."""
    cluster.create_database(database)
    cluster.rows(database, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    alice = Account(smsgw, root, database)
    alice.env.update(cluster.store_env(database))
    alice.cli("init", "--username", "alice", "--kdf-memory", "19", "--kdf-iterations", "2")
    bob = make_account(smsgw, root, database + "-bob")
    pair(alice, bob, "+15550001", "+15550002", "bob", "alice")
    start_count = statements(cluster, database)
    t_one, _ = timed(alice, ["send", "bob", "--lines"], b"one message: the unlock and the open alone\n")
    one = statements(cluster, database)
    lines = "".join(f"key-state write {k:05d}\n" for k in range(args.messages)).encode()
    t_all, _ = timed(alice, ["send", "bob", "--lines"], lines)
    # Less the one-line run's statements: the open, the unlock and one seal.
    per_seal = ((statements(cluster, database) - one) - (one - start_count)) / (args.messages - 1)
    seals = (args.messages - 1) / max(t_all - t_one, 1e-9)
    token = json.loads(alice.cli("api", "token", "create", "bench", "--scope", "send,read", "--json").stdout)["token"]
    procs = Procs()
    try:
        p, host, port = start(procs, alice, root, database + "-serve", "127.0.0.1:0")
        time.sleep(1)
        load = os.getloadavg()[0]
        cpu = proc_usage(p.pid)[0]
        latencies, statuses, elapsed = post_load(host, port, token, args.clients, args.seconds, 100000)
        cpu = proc_usage(p.pid)[0] - cpu
    finally:
        procs.stop_all()
    accepted = statuses.get(202, 0)
    result = {"seals": seals, "per_seal": per_seal, "sends": accepted / elapsed,
              "p99": pct(latencies, 99), "cpu": cpu / max(len(latencies), 1) * 1000, "load": load}
    print(f"{label:>10}: {seals:6.0f} seals/s ({per_seal:.1f} statements each); API {result['sends']:6.0f} sends/s, "
          f"p99 {result['p99']:.1f} ms, daemon CPU {result['cpu']:.2f} ms per send (load {load:.1f}; "
          f"statuses {statuses})", flush=True)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binaries", nargs="+", help="LABEL=PATH of an smsgw binary")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--messages", type=int, default=1000, help="seals in the send --lines run")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    binaries = [(b.split("=", 1)[0], os.path.abspath(b.split("=", 1)[1])) for b in args.binaries]
    results = {label: [] for label, _ in binaries}
    with scratch("smsgw-pg-cost-") as (root, holder):
        cluster = holder["cluster"] = Cluster(root, options="-c shared_preload_libraries=pg_stat_statements")
        for n in range(args.rounds):
            turn = binaries[n % len(binaries):] + binaries[:n % len(binaries)]
            for label, smsgw in turn:
                results[label].append(one_run(cluster, label, smsgw, root, args, f"{label}_{n}".lower()))
        for label, runs in results.items():
            print(f"{label:>10}, median of {len(runs)}: {med([r['seals'] for r in runs]):.0f} seals/s, "
                  f"{med([r['per_seal'] for r in runs]):.1f} statements per seal; API {med([r['sends'] for r in runs]):.0f} "
                  f"sends/s, p99 {med([r['p99'] for r in runs]):.1f} ms, daemon CPU {med([r['cpu'] for r in runs]):.2f} ms")


if __name__ == "__main__":
    try:
        main()
    except BenchError as error:
        sys.exit(f"pg_write_cost_probe: {error}")
