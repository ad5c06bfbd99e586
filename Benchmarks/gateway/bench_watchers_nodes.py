"""Watchers across nodes: how soon a subscriber on one node hears of a text posted to another.

Two nodes, alpha and beta, on one PostgreSQL store (bench_nodes_rig.py's rig: a throw-away
cluster, the simulated network, the peer bob on SQLite), each with its API on loopback. N
subscribers on each node's `GET /v1/events`; texts posted one by one to alpha's API, a second
apart: the delay from each POST's answer to each subscriber's `queued` event of it, on alpha (its
own commit) and on beta (another node's commit; but beta's sender, woken by `NOTIFY smsgw_outbox`,
tries to claim the row at once, and that commit of its own wakes its streams too). And each text's
`sent` event, which only the node whose modem sent it writes: how long after the first subscriber
of one node the first subscriber of the other hears of it (heard through `NOTIFY smsgw_commits`,
or at the stream's fallback read, every second, without it). Then beta's CPU and wake-ups per
second over a quiet spell with its subscribers on.

    swift build -c release --product smsgw --scratch-path .build-bench
    python3 Benchmarks/gateway/bench_watchers_nodes.py --smsgw .build-bench/release/smsgw

Only loopback is used; every wait is bounded.
"""

import argparse
import http.client
import json
import os
import shutil
import sys
import tempfile
import threading
import time

from bench_nodes_rig import NodesRig
from bench_store import Cluster, free_port
from bench_support import BenchError, pct
from bench_watchers import quiet_spell, subscribe


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smsgw", required=True)
    parser.add_argument("--subscribers", type=int, default=5, help="on each node")
    parser.add_argument("--messages", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=15, help="the quiet spell")
    args = parser.parse_args()
    args.smsgw = os.path.abspath(args.smsgw)
    root = tempfile.mkdtemp(prefix="smsgw-bench-watch-nodes-")
    os.chmod(root, 0o755)
    cluster, rig, ok = None, None, False
    try:
        cluster = Cluster(root)
        rig = NodesRig(args.smsgw, root, cluster, "watchers", {"alpha": 1, "beta": 1}, 1)
        token = json.loads(rig.first.cli("api", "token", "create", "bench", "--scope", "send,read", "--json").stdout)["token"]
        ports = {}
        for name, host in rig.hosts.items():
            ports[name] = free_port()
            host.env["SMSGW_HTTP_LISTEN"] = f"127.0.0.1:{ports[name]}"
        rig.start_all()
        stop, lock = threading.Event(), threading.Lock()
        received, sent_seen = {name: [] for name in ports}, {name: {} for name in ports}
        threads = [threading.Thread(target=subscribe,
                                    args=("127.0.0.1", port, token, received[name], sent_seen[name], lock, stop),
                                    daemon=True)
                   for name, port in ports.items() for _ in range(args.subscribers)]
        for t in threads:
            t.start()
        time.sleep(2)
        beta = rig.daemons["beta"].pid
        watched = quiet_spell(beta, args.seconds)

        conn = http.client.HTTPConnection("127.0.0.1", ports["alpha"], timeout=30)
        headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
        sent = {}
        for k in range(args.messages):
            conn.request("POST", "/v1/messages", body=json.dumps({"contact": "bob", "text": f"watched {k}"}), headers=headers)
            r = conn.getresponse()
            sent[json.loads(r.read())["id"]] = time.perf_counter()
            time.sleep(1)
        time.sleep(3)
        stop.set()
        expected = args.messages * args.subscribers
        print(f"{args.messages} texts posted to alpha a second apart, {args.subscribers} subscribers on each node:")
        for name in ports:
            with lock:
                delays = [(at - sent[mid]) * 1000 for mid, at in received[name] if mid in sent]
            print(f"  on {name}: POST answered -> queued event p50 {pct(delays, 50):.0f} ms, p90 {pct(delays, 90):.0f} ms, "
                  f"max {max(delays, default=float('nan')):.0f} ms ({len(delays)} of {expected} events)")
        with lock:
            lags = [abs(sent_seen["alpha"][mid] - sent_seen["beta"][mid]) * 1000
                    for mid in sent if mid in sent_seen["alpha"] and mid in sent_seen["beta"]]
        print(f"  sent event, the other node's first subscriber after the sending node's: p50 {pct(lags, 50):.0f} ms, "
              f"p90 {pct(lags, 90):.0f} ms, max {max(lags, default=float('nan')):.0f} ms ({len(lags)} of {args.messages})")
        print(f"beta idle with its {args.subscribers} subscribers: CPU {watched[0]:.2f} ms/s, "
              f"{watched[1]:.1f} wake-ups/s over {args.seconds:.0f} s")
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        ok = True
    except BenchError as e:
        print(f"bench_watchers_nodes: {e}", file=sys.stderr)
    finally:
        if rig:
            rig.stop()
        if cluster:
            cluster.stop()
        if ok:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"kept {root}", file=sys.stderr)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
