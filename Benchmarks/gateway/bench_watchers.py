"""The watched daemon: what it costs to keep `smsgw serve` watched, and how soon a watcher hears.

alice's `smsgw serve --sim` with its API on loopback and one webhook endpoint, nothing to send or
receive, first unwatched, then with N subscribers on `GET /v1/events` (the console's live log is
the same stream); the daemon's CPU and wake-ups (context switches of all its threads) per second
over each quiet spell. Then texts posted one by one, a second apart: the delay from each POST's
answer to each subscriber's first event of it (`queued`), and from the first subscriber's `sent`
event of a text to the webhook receiver's `message.sent` request for it (the same commit).

    swift build -c release --product smsgw --scratch-path .build-bench
    python3 Benchmarks/gateway/bench_watchers.py --smsgw .build-bench/release/smsgw

Only loopback is used; every wait is bounded.
"""

import argparse
import http.client
import http.server
import json
import os
import shutil
import sys
import tempfile
import threading
import time

from bench_api import paired_alice, start
from bench_idle import context_switches
from bench_processes import Procs, proc_usage
from bench_support import BenchError, pct

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"


def quiet_spell(pid, seconds):
    """(CPU ms per second, wake-ups per second) of the daemon over `seconds` of nothing to do."""
    cpu0, switches0, t0 = proc_usage(pid)[0], context_switches(pid), time.time()
    time.sleep(seconds)
    cpu1, switches1, t1 = proc_usage(pid)[0], context_switches(pid), time.time()
    woke = sum(max(0, n - switches0.get(tid, 0)) for tid, n in switches1.items())
    return (cpu1 - cpu0) * 1000 / (t1 - t0), woke / (t1 - t0)


class Receiver(http.server.BaseHTTPRequestHandler):
    """The webhook endpoint: notes when each message's `message.sent` arrived, answers 204."""
    arrivals, lock = {}, threading.Lock()

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        message = body.get("data", {}).get("message", {})
        with Receiver.lock:
            Receiver.arrivals.setdefault(message.get("id"), time.perf_counter())
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def subscribe(host, port, token, received, sent_seen, lock, stop):
    """One event stream; notes when each message's `queued` event arrived, and its `sent`."""
    conn = http.client.HTTPConnection(host, port, timeout=120)
    conn.request("GET", "/v1/events", headers={"Authorization": "Bearer " + token})
    r = conn.getresponse()
    r.fp.readline()
    while not stop.is_set():
        line = r.fp.readline().decode()
        if not line:
            break
        if line.startswith("data: ") and '"status":"queued"' in line:
            with lock:
                received.append((json.loads(line[6:])["id"], time.perf_counter()))
        elif line.startswith("data: ") and '"status":"sent"' in line:
            with lock:
                sent_seen.setdefault(json.loads(line[6:])["id"], time.perf_counter())
    conn.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smsgw", required=True)
    parser.add_argument("--subscribers", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=20, help="each quiet spell")
    parser.add_argument("--messages", type=int, default=10)
    args = parser.parse_args()
    root = tempfile.mkdtemp(prefix="smsgw-watch-bench-")
    procs = Procs()
    receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    ok = False
    try:
        alice, token = paired_alice(args.smsgw, root)
        alice.env.update(SMSGW_WEBHOOK_1_URL=f"http://127.0.0.1:{receiver.server_address[1]}/hook",
                         SMSGW_WEBHOOK_1_SECRET=SECRET, SMSGW_WEBHOOK_1_EVENTS="message.sent")
        p, host, port = start(procs, alice, root, "serve", "127.0.0.1:0")
        time.sleep(3)
        alone = quiet_spell(p.pid, args.seconds)
        received, sent_seen, lock, stop = [], {}, threading.Lock(), threading.Event()
        threads = [threading.Thread(target=subscribe, args=(host, port, token, received, sent_seen, lock, stop), daemon=True)
                   for _ in range(args.subscribers)]
        for t in threads:
            t.start()
        time.sleep(2)
        watched = quiet_spell(p.pid, args.seconds)

        conn = http.client.HTTPConnection(host, port, timeout=30)
        headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
        sent = {}
        for k in range(args.messages):
            conn.request("POST", "/v1/messages", body=json.dumps({"contact": "bob", "text": f"watched {k}"}), headers=headers)
            r = conn.getresponse()
            sent[json.loads(r.read())["id"]] = time.perf_counter()
            time.sleep(1)
        time.sleep(3)
        stop.set()
        procs.stop(p)
        stream = [(at - sent[mid]) * 1000 for mid, at in received if mid in sent]
        with Receiver.lock:
            hooks = [(at - sent_seen[mid]) * 1000 for mid, at in Receiver.arrivals.items() if mid in sent_seen]
        print(f"idle, unwatched (API on, one webhook endpoint): daemon CPU {alone[0]:.2f} ms/s, "
              f"{alone[1]:.1f} wake-ups/s over {args.seconds:.0f} s")
        print(f"idle, {args.subscribers} event-stream subscribers: daemon CPU {watched[0]:.2f} ms/s, "
              f"{watched[1]:.1f} wake-ups/s over {args.seconds:.0f} s")
        print(f"{args.messages} texts a second apart: event stream delay from the POST's answer p50 "
              f"{pct(stream, 50):.0f} ms, max {max(stream, default=float('nan')):.0f} ms "
              f"({len(stream)} of {args.messages * args.subscribers} events)")
        print(f"webhook message.sent after the stream's sent event of the same text: p50 {pct(hooks, 50):.0f} ms, "
              f"max {max(hooks, default=float('nan')):.0f} ms ({len(hooks)} of {args.messages})")
        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        ok = True
    except BenchError as e:
        print(f"bench_watchers: {e}", file=sys.stderr)
    finally:
        procs.stop_all()
        receiver.shutdown()
        if ok:
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(f"kept {root}", file=sys.stderr)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
