"""What a PostgreSQL write transaction costs, binary against binary: key-state writes a second
(`smsgw send bob --lines`, one seal per line, each its own write transaction), sends a second
through the HTTP API (`POST /v1/messages` to `serve --sim`, as bench_api.py's rate run), the
statements the server ran per seal (pg_stat_statements: each is one round trip), and the CPU per
seal and per send of smsgw and of the server.

Every binary runs on one throw-away cluster (bench_store.py's, with pg_stat_statements loaded),
each run on a fresh database; the binaries take turns, their order rotating each round, and each
figure is printed per run and as the median of the rounds.

    python3 Benchmarks/gateway/pg_write_cost_probe.py before=PATH after=PATH [--rounds 3]
"""

import argparse
import json
import os
import resource
import sys
import time

from bench_api import post_load, start
from bench_processes import CLK_TCK, Procs, proc_usage
from bench_smsgw import Account, make_account, pair
from bench_store import Cluster, scratch, timed
from bench_support import BenchError, med, pct


def statements(cluster, database):
    """Statements the server ran on `database` so far (utility statements, BEGIN and COMMIT, included)."""
    rows = cluster.rows(database, "SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s "
                                  "JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()")
    return int(rows[0][0])


def server_cpu(cluster):
    """CPU seconds the server's processes used so far: the postmaster's reaped children (the
    backends of connections closed) and its live ones."""
    with open(os.path.join(cluster.dir, "data", "postmaster.pid")) as f:
        postmaster = int(f.readline())
    total = sum(fields[13:15]) if (fields := stat(postmaster)) else 0
    with open(f"/proc/{postmaster}/task/{postmaster}/children") as f:
        for child in f.read().split():
            if fields := stat(int(child)):
                total += fields[11] + fields[12]
    return total / CLK_TCK


def stat(pid):
    """The numeric fields of /proc/PID/stat after the command's name, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return [int(x) if x.lstrip("-").isdigit() else 0 for x in f.read().rsplit(")", 1)[1].split()]
    except OSError:
        return None


def own_children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_run(cluster, label, smsgw, root, args, database):
    """One binary's figures on a fresh `database`."""
    cluster.create_database(database)
    cluster.rows(database, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    alice = Account(smsgw, root, database)
    alice.env.update(cluster.store_env(database))
    alice.cli("init", "--username", "alice", "--kdf-memory", "19", "--kdf-iterations", "2")
    bob = make_account(smsgw, root, database + "-bob")
    pair(alice, bob, "+15550001", "+15550002", "bob", "alice")

    def send(data):
        """(seconds, statements, CPU seconds of the command, of the server) of one `send --lines`."""
        count, cpu, server = statements(cluster, database), own_children_cpu(), server_cpu(cluster)
        elapsed, _ = timed(alice, ["send", "bob", "--lines"], data)
        time.sleep(0.5)  # until the postmaster reaped the command's backend
        return (elapsed, statements(cluster, database) - count, own_children_cpu() - cpu, server_cpu(cluster) - server)

    one = send(b"one message: the unlock and the open alone\n")
    full = send("".join(f"key-state write {k:05d}\n" for k in range(args.messages)).encode())
    # Less the one-line run's: the open, the unlock and one seal (the count query itself is one statement).
    t_one, t_all = one[0], full[0]
    per_seal, cpu, server = ((full[k] - one[k]) / (args.messages - 1) for k in (1, 2, 3))
    seals = (args.messages - 1) / max(t_all - t_one, 1e-9)
    token = json.loads(alice.cli("api", "token", "create", "bench", "--scope", "send,read", "--json").stdout)["token"]
    procs = Procs()
    try:
        p, host, port = start(procs, alice, root, database + "-serve", "127.0.0.1:0")
        time.sleep(1)
        load = os.getloadavg()[0]
        daemon, api_server = proc_usage(p.pid)[0], server_cpu(cluster)
        latencies, statuses, elapsed = post_load(host, port, token, args.clients, args.seconds, 100000)
        daemon, api_server = proc_usage(p.pid)[0] - daemon, server_cpu(cluster) - api_server
    finally:
        procs.stop_all()
    accepted = statuses.get(202, 0)
    requests = max(len(latencies), 1)
    result = {"seals": seals, "per_seal": per_seal, "seal_cpu": cpu * 1000,
              "seal_server": server * 1000, "sends": accepted / elapsed,
              "p99": pct(latencies, 99), "cpu": daemon / requests * 1000, "server": api_server / requests * 1000}
    print(f"{label:>10}: {seals:6.0f} seals/s ({per_seal:.1f} statements, CPU {result['seal_cpu']:.2f} ms + server "
          f"{result['seal_server']:.2f} ms each); API {result['sends']:6.0f} sends/s, p99 {result['p99']:.1f} ms, "
          f"CPU per send {result['cpu']:.2f} ms + server {result['server']:.2f} ms (load {load:.1f}; "
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
            m = {key: med([r[key] for r in runs]) for key in runs[0]}
            print(f"{label:>10}, median of {len(runs)}: {m['seals']:.0f} seals/s, {m['per_seal']:.1f} statements, "
                  f"CPU {m['seal_cpu']:.2f} + server {m['seal_server']:.2f} ms per seal; API {m['sends']:.0f} sends/s, "
                  f"p99 {m['p99']:.1f} ms, CPU {m['cpu']:.2f} + server {m['server']:.2f} ms per send")


if __name__ == "__main__":
    try:
        main()
    except BenchError as error:
        sys.exit(f"pg_write_cost_probe: {error}")
