"""The HTTP API benchmark: `POST /v1/messages` rate and latency with concurrent clients, the
event stream's fan-out to many subscribers, and the daemon's resident memory with the API on and
off. Each run is alice's `smsgw serve --sim` with bob paired at the simulated +15550002.

    swift build -c release --product smsgw --scratch-path .build-bench
    python3 Benchmarks/gateway/bench_api.py --smsgw .build-bench/release/smsgw

Only loopback is used; every request loop is bounded by count and time.
"""

import argparse
import http.client
import json
import os
import re
import resource
import shutil
import sys
import tempfile
import threading
import time

from bench_processes import Procs, proc_status, proc_usage
from bench_smsgw import make_account, pair
from bench_support import BenchError, pct, wait_until


def start(procs, alice, root, name, listen):
    """alice's `serve --sim` with the API at `listen` ("off" for none); (process, host, port or None)."""
    log = os.path.join(root, name + ".log")
    env = dict(alice.env, SMSGW_HTTP_LISTEN=listen, SMSGW_LOG_LEVEL="notice")
    p = procs.start(name, [alice.smsgw, "serve", "--sim", "--sim-dir", os.path.join(root, name + "-sim")], env=env, log=log)

    def ready():
        if p.poll() is not None:
            raise BenchError(f"smsgw serve exited {p.returncode}; see {log}")
        text = open(log, errors="replace").read()
        if listen == "off":
            return "Gateway starting" in text and '"state":"ready"' in alice.cli("status", "--json").stdout.decode()
        m = re.search(r"smsgw\.address=http://([0-9.]+):(\d+)", text)
        return m and '"state":"ready"' in alice.cli("status", "--json").stdout.decode() and m
    m = wait_until(ready, 90, "the daemon to be ready", step=0.5)
    return (p, None, None) if listen == "off" else (p, m.group(1), int(m.group(2)))


def paired_alice(smsgw, root):
    """alice's account with bob paired at the simulated +15550002, and an API token (send, read)."""
    alice = make_account(os.path.abspath(smsgw), root, "alice")
    bob = make_account(os.path.abspath(smsgw), root, "bob")
    pair(alice, bob, "+15550001", "+15550002", "bob", "alice")
    return alice, json.loads(alice.cli("api", "token", "create", "bench", "--scope", "send,read", "--json").stdout)["token"]


def post_load(host, port, token, clients, seconds, limit):
    """`clients` threads, each with one keep-alive connection, POST until `seconds` pass or
    `limit` requests were made in all; returns (latencies in ms, statuses, elapsed seconds)."""
    latencies, statuses, lock = [], {}, threading.Lock()
    count = [0]
    deadline = time.time() + seconds
    body = json.dumps({"contact": "bob", "text": "benchmark: a text of ordinary length, queued through the API"})
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}

    def worker():
        conn = http.client.HTTPConnection(host, port, timeout=30)
        while time.time() < deadline:
            with lock:
                if count[0] >= limit:
                    break
                count[0] += 1
            t0 = time.perf_counter()
            conn.request("POST", "/v1/messages", body=body, headers=headers)
            r = conn.getresponse()
            r.read()
            ms = (time.perf_counter() - t0) * 1000
            with lock:
                latencies.append(ms)
                statuses[r.status] = statuses.get(r.status, 0) + 1
        conn.close()

    t0 = time.time()
    threads = [threading.Thread(target=worker) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, statuses, time.time() - t0


def own_cpu():
    """CPU seconds (user and system) this benchmark's own threads, the clients, used so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def fan_out(host, port, token, subscribers, messages):
    """`subscribers` event streams; `messages` POSTs one after the other; returns the delay in ms
    from each POST's answer to each subscriber's receipt of that message's first event."""
    sent, received, lock = {}, [], threading.Lock()
    ready = threading.Barrier(subscribers + 1)
    stop = threading.Event()

    def subscriber():
        conn = http.client.HTTPConnection(host, port, timeout=60)
        conn.request("GET", "/v1/events", headers={"Authorization": "Bearer " + token})
        r = conn.getresponse()
        r.fp.readline()  # the opening comment
        ready.wait()
        seen = 0
        while seen < messages and not stop.is_set():
            line = r.fp.readline().decode()
            if line.startswith("data: ") and '"status":"queued"' in line:
                mid = json.loads(line[6:])["id"]
                with lock:
                    received.append((mid, time.perf_counter()))
                seen += 1
        conn.close()

    threads = [threading.Thread(target=subscriber, daemon=True) for _ in range(subscribers)]
    for t in threads:
        t.start()
    ready.wait()
    conn = http.client.HTTPConnection(host, port, timeout=30)
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
    for k in range(messages):
        conn.request("POST", "/v1/messages", body=json.dumps({"contact": "bob", "text": f"fan-out {k}"}), headers=headers)
        r = conn.getresponse()
        answer = json.loads(r.read())
        sent[answer["id"]] = time.perf_counter()
        time.sleep(0.2)
    deadline = time.time() + 30
    for t in threads:
        t.join(timeout=max(0.1, deadline - time.time()))
    stop.set()
    return [(at - sent[mid]) * 1000 for mid, at in received if mid in sent], len(received)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smsgw", required=True)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--limit", type=int, default=20000, help="most POSTs in the rate run")
    parser.add_argument("--subscribers", type=int, default=50)
    parser.add_argument("--fan-out-messages", type=int, default=20)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="smsgw-api-bench-")
    procs = Procs()
    ok = False
    try:
        alice, token = paired_alice(args.smsgw, root)

        p, _, _ = start(procs, alice, root, "serve-api-off", "off")
        time.sleep(2)
        off = proc_status(p.pid)
        procs.stop(p)

        p, host, port = start(procs, alice, root, "serve-api-on", "127.0.0.1:0")
        load_before = os.getloadavg()[0]
        time.sleep(2)
        idle = proc_status(p.pid)
        daemon_cpu, client_cpu = proc_usage(p.pid)[0], own_cpu()
        latencies, statuses, elapsed = post_load(host, port, token, args.clients, args.seconds, args.limit)
        daemon_cpu, client_cpu = proc_usage(p.pid)[0] - daemon_cpu, own_cpu() - client_cpu
        loaded = proc_status(p.pid)
        delays, deliveries = fan_out(host, port, token, args.subscribers, args.fan_out_messages)
        procs.stop(p)

        accepted = statuses.get(202, 0)
        print(f"POST /v1/messages, {args.clients} clients: {accepted / elapsed:.0f} messages queued/s "
              f"({accepted} in {elapsed:.1f} s; statuses {statuses}); latency p50 {pct(latencies, 50):.1f} ms, "
              f"p99 {pct(latencies, 99):.1f} ms, max {max(latencies):.1f} ms")
        print(f"CPU per request: daemon {daemon_cpu / max(len(latencies), 1) * 1000:.2f} ms, the Python clients "
              f"{client_cpu / max(len(latencies), 1) * 1000:.2f} ms ({daemon_cpu:.1f} s and {client_cpu:.1f} s of "
              f"{elapsed:.1f} s on {os.cpu_count()} cores; load average before {load_before:.1f})")
        print(f"event stream, {args.subscribers} subscribers, {args.fan_out_messages} messages: "
              f"{deliveries} of {args.subscribers * args.fan_out_messages} events delivered; delay from the POST's "
              f"answer p50 {pct(delays, 50):.0f} ms, p99 {pct(delays, 99):.0f} ms")
        print(f"resident memory (VmRSS): API off {off.get('VmRSS', 0) / 1024:.1f} MiB, API on idle "
              f"{idle.get('VmRSS', 0) / 1024:.1f} MiB, after the POST run {loaded.get('VmRSS', 0) / 1024:.1f} MiB "
              f"(peak {loaded.get('VmHWM', 0) / 1024:.1f} MiB)")
        ok = True
    except BenchError as e:
        print(f"bench_api: {e}", file=sys.stderr)
    finally:
        procs.stop_all()
        if ok and not args.keep:
            shutil.rmtree(root, ignore_errors=True)
        elif not ok:
            print(f"kept {root}", file=sys.stderr)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
