"""Several nodes on one PostgreSQL store, on the simulated network: two nodes with two modems each
against one node with four (the same texts queued to a peer gateway, messages per second from the
first queued to the last sent), and the time a surviving node takes to send a node's texts after
that node is killed with `kill -9`, with the daemon's default lease and a short one.

PostgreSQL is a throw-away cluster started as bench_store.py starts one, with a fresh database per
run; the peer gateway bob keeps its store in SQLite. Each measurement is repeated `--runs` times
(the layouts in turn) and printed as the median and the range.

    swift build -c release --product smsgw --scratch-path .build-bench
    python3 Benchmarks/gateway/bench_nodes.py --smsgw .build-bench/release/smsgw [--texts 200] [--runs 3]
"""

import argparse
import itertools
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time

from bench_nodes_rig import NodesRig
from bench_processes import proc_usage
from bench_store import Cluster
from bench_support import BenchError, wait_until

LAYOUTS = {"one node x 4 modems": {"alpha": 4}, "two nodes x 2 modems": {"alpha": 2, "beta": 2}}
SENT = "state IN ('sent', 'delivered')"


def spread(values, unit="", digits=2):
    """The median and the range of one figure over the runs."""
    f = f"{{:.{digits}f}}"
    return f"{f.format(statistics.median(values))}{unit} ({f.format(min(values))}–{f.format(max(values))})"


def queue(rig, texts, words):
    """Queues `texts` texts to bob through the first node's host (`send --lines`: one transaction each)."""
    lines = "".join(f"{words}, text {k:04d}\n" for k in range(texts)).encode()
    rig.first.cli("send", "bob", "--lines", input=lines, timeout=600)


def wait_sent(rig, texts, timeout, alive=()):
    def done():
        for name in alive:
            if rig.daemons[name].poll() is not None:
                raise BenchError(f"{name}'s daemon exited; see {rig.root}/{name}-serve.log")
        return rig.value(f"SELECT count(*) FROM outbox WHERE kind = 'text' AND {SENT}") >= texts

    wait_until(done, timeout, f"all {texts} texts to be sent", step=0.5)


def last_decrypted(rig, texts, timeout):
    """When bob logged the last of `texts` texts decrypted; also counts his duplicates."""
    wait_until(lambda: rig.bob.count_in() >= texts, timeout, f"bob to decrypt all {texts} texts", step=0.5)
    c = rig.bob.db()
    try:
        t = c.execute("SELECT max(time) FROM messages WHERE direction = 'in' AND status = 'decrypted'").fetchone()[0]
    finally:
        c.close()
    return t, rig.bob.count_in("duplicate")


def layout_run(args, cluster, root, index, name):
    """One layout: every daemon up and ready, then the texts queued; first queued -> last sent."""
    layout = LAYOUTS[name]
    rig = NodesRig(args.smsgw, os.path.join(root, f"layout-{index}"), cluster, f"layout{index}", layout, 4)
    try:
        rig.start_all()
        cpu0 = {n: proc_usage(rig.daemons[n].pid)[0] for n in layout}
        queue(rig, args.texts, name)
        wait_sent(rig, args.texts, 120 + 2 * args.texts, alive=list(layout) + ["bob"])
        cpu = sum(proc_usage(rig.daemons[n].pid)[0] - cpu0[n] for n in layout)
        decrypted_at, duplicates = last_decrypted(rig, args.texts, 120)
        rows = rig.rows("SELECT modem, created_at, submitting_at, sent_at FROM outbox WHERE kind = 'text' ORDER BY id")
        first_queued = min(float(r[1]) for r in rows)
        last_sent = max(float(r[3]) for r in rows)
        in_modem, between, paces, per_modem = [], [], [], {}
        for modem, number in rig.number_of.items():
            mine = sorted((float(r[2]), float(r[3])) for r in rows if r[0] == modem)
            per_modem[modem] = len(mine)
            in_modem += [sent - claimed for claimed, sent in mine]
            between += [mine[k + 1][0] - mine[k][1] for k in range(len(mine) - 1)]
            submits = [r["t"] for r in rig.traffic.submits(number)]
            if len(submits) > 1:
                paces.append((len(submits) - 1) / (submits[-1] - submits[0]))
        return {"layout": name, "seconds": last_sent - first_queued, "rate": args.texts / (last_sent - first_queued),
                "e2e": args.texts / (decrypted_at - first_queued), "duplicates": duplicates, "per_modem": per_modem,
                "in_modem": statistics.median(in_modem), "between": statistics.median(between),
                "pace": statistics.mean(paces), "cpu_ms": 1000 * cpu / args.texts}
    finally:
        rig.stop()


def takeover_run(args, cluster, root, index, timing):
    """Alpha sends bob's texts (pinned to its modem) until it is killed; beta takes them over."""
    rig = NodesRig(args.smsgw, os.path.join(root, f"takeover-{index}"), cluster, f"takeover{index}",
                   {"alpha": 1, "beta": 1}, 1, timing)
    try:
        rig.first.cli("contact", "edit", "bob", "--modem", "alpha-modem-1")
        # Beta's heartbeats, on which it finds alpha down, fall at a random moment of alpha's
        # interval, as between two hosts started independently.
        rig.start_all(stagger=args.random.uniform(0, timing[0] if timing else 30.0))
        # The kill lands at a random moment of alpha's heartbeat interval: from a fresh heartbeat,
        # a random wait less the time its first texts take (one SMS about 0.72 s), modulo the
        # interval (the heartbeats come every interval).
        beat = "SELECT heartbeat_at FROM nodes WHERE name = 'alpha'"
        seen, health = rig.value(beat), rig.value("SELECT health_seconds FROM nodes WHERE name = 'alpha'")
        wait_until(lambda: rig.value(beat) != seen, 2 * health + 60, "alpha's next heartbeat", step=0.1)
        time.sleep((args.random.uniform(0, health) - 0.72 * (args.sent_before_kill + 1)) % health)
        queue(rig, args.takeover_texts, "takeover")
        by_alpha = f"SELECT count(*) FROM outbox WHERE kind = 'text' AND modem = 'alpha-modem-1' AND {SENT}"
        wait_until(lambda: rig.value(by_alpha) >= args.sent_before_kill, 120, "alpha to send its first texts", step=0.2)
        rig.kill("alpha")
        killed_at = time.time()
        before = int(rig.value(by_alpha))
        claimed = [r[0] for r in rig.rows("SELECT id FROM outbox WHERE kind = 'text' AND state = 'submitting' AND node = 'alpha'")]
        heartbeat, lease, health = map(float, rig.rows(
            "SELECT heartbeat_at, lease_seconds, health_seconds FROM nodes WHERE name = 'alpha'")[0])
        wait_sent(rig, args.takeover_texts, lease + 2 * health + 3 * args.takeover_texts + 120, alive=["beta", "bob"])
        first = rig.value(f"SELECT min(sent_at) FROM outbox WHERE kind = 'text' AND modem = 'beta-modem-1' AND {SENT}")
        if first is None:
            raise BenchError("alpha sent every text before it was killed: nothing was taken over; queue more")
        last = rig.value(f"SELECT max(sent_at) FROM outbox WHERE kind = 'text' AND {SENT}")
        claimed_sent = rig.value(f"SELECT max(sent_at) FROM outbox WHERE id IN ({','.join(claimed)})") if claimed else None
        _, duplicates = last_decrypted(rig, args.takeover_texts, 120)
        return {"lease": lease, "health": health, "call_timeout": timing[1] if timing else 30.0,
                "sent_before": before, "claimed": len(claimed),
                "claimed_sent": claimed_sent - killed_at if claimed_sent else None, "taken_over": args.takeover_texts - before,
                "lease_left": heartbeat + lease - killed_at, "first": first - killed_at, "last": last - killed_at,
                "after_lease": first - (heartbeat + lease), "duplicates": duplicates}
    finally:
        rig.stop()


def print_layouts(runs, texts):
    print(f"{texts} texts to bob (4 modems), first queued -> last sent (SMS-SUBMIT answered, recorded 'sent'):")
    medians = {}
    for name in LAYOUTS:
        mine = [r for r in runs if r["layout"] == name]
        medians[name] = statistics.median(r["rate"] for r in mine)
        print(f"  {name:>20}: {spread([r['rate'] for r in mine])} msg/s, {spread([r['seconds'] for r in mine], ' s', 1)}; "
              f"end to end (bob's last decrypted) {spread([r['e2e'] for r in mine])} msg/s")
        print(f"  {'':>20}  per modem: submit pace {spread([r['pace'] for r in mine])} SMS/s, in the modem "
              f"(claim -> sent) {spread([1000 * r['in_modem'] for r in mine], ' ms', 0)}, between two SMS (sent -> "
              f"next claim) {spread([1000 * r['between'] for r in mine], ' ms', 0)}; texts per modem "
              f"{mine[-1]['per_modem']}; nodes' CPU {spread([r['cpu_ms'] for r in mine], ' ms', 1)} per text; "
              f"bob's duplicates {max(r['duplicates'] for r in mine)}")
    two, one = (medians[n] for n in ("two nodes x 2 modems", "one node x 4 modems"))
    print(f"two nodes x 2 / one node x 4, messages per second (medians): {two / one:.2f}")


def print_takeover(label, runs):
    r0 = runs[0]
    lease, health = r0["lease"], r0["health"]
    print(f"takeover, {label}: lease {lease:.0f} s = max(3 x health_seconds {health:.0f}, 2 x (health_seconds + "
          f"call_timeout_seconds {r0['call_timeout']:.0f})); {spread([r['taken_over'] for r in runs], '', 0)} of the "
          f"dead node's texts (claimed at the kill: {spread([r['claimed'] for r in runs], '', 0)}, the rest pinned to "
          f"its modem); a kill at any moment: the first sent lease - health .. lease + health after it, "
          f"{lease - health:.0f}..{lease + health:.0f} s, plus one SMS:")
    claimed = [r["claimed_sent"] for r in runs if r["claimed_sent"] is not None]
    print(f"  kill -9 -> first sent by the survivor {spread([r['first'] for r in runs], ' s', 1)}, -> last "
          f"{spread([r['last'] for r in runs], ' s', 1)}"
          + (f", -> the claimed text sent {spread(claimed, ' s', 1)}" if claimed else "") + "; "
          f"the lease left at the kill {spread([r['lease_left'] for r in runs], ' s', 1)}, lease end -> first sent "
          f"{spread([r['after_lease'] for r in runs], ' s', 1)}; bob's duplicates {max(r['duplicates'] for r in runs)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smsgw", required=True)
    parser.add_argument("--texts", type=int, default=200, help="texts per layout run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--takeover-texts", type=int, default=30)
    parser.add_argument("--sent-before-kill", type=int, default=3)
    parser.add_argument("--short-lease", default="2,5", help="health_seconds,call_timeout_seconds of the short lease")
    parser.add_argument("--seed", type=int, help="of the moments of the kills (printed when not given)")
    parser.add_argument("--only", default="layouts,default-lease,short-lease")
    parser.add_argument("--json", help="write the raw results to this file")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args()
    args.smsgw = os.path.abspath(args.smsgw)
    only = set(args.only.split(","))
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    args.random = random.Random(seed)
    short = tuple(float(x) for x in args.short_lease.split(","))
    root = tempfile.mkdtemp(prefix="smsgw-bench-nodes-")
    os.chmod(root, 0o755)
    cluster, results, serial = None, {}, itertools.count()
    try:
        print(f"load average before: {os.getloadavg()[0]:.1f}; seed of the kills' moments {seed}", flush=True)
        cluster = Cluster(root)
        if "layouts" in only:
            runs = []
            for k in range(args.runs):
                for name in LAYOUTS:
                    runs.append(layout_run(args, cluster, root, len(runs), name))
                    print(f"  run {k + 1}, {name}: {runs[-1]['rate']:.2f} msg/s", flush=True)
            results["layouts"] = runs
            print_layouts(runs, args.texts)
        for label, timing, key in (("the defaults", None, "default-lease"), ("a short lease", short, "short-lease")):
            if key in only:
                runs = []
                for k in range(args.runs):
                    runs.append(takeover_run(args, cluster, root, next(serial), timing))
                    print(f"  run {k + 1}, {label}: first {runs[-1]['first']:.1f} s, last {runs[-1]['last']:.1f} s",
                          flush=True)
                results[label] = runs
                print_takeover(label, runs)
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=1)
    finally:
        if cluster:
            cluster.stop()
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    try:
        main()
    except BenchError as error:
        sys.exit(f"bench_nodes: {error}")
