"""Where a request's CPU goes in the HTTP API: 16 keep-alive clients for 8 s each on
GET /health/live (HTTP alone), GET /v1/messages/1 (plus the token check, one store read and the
JSON) and POST /v1/messages (plus the seal and the write transaction), with the daemon's and the
clients' CPU per request. One alice `serve --sim`, as in bench_api.py.

    python3 Benchmarks/gateway/api_cost_probe.py .build-bench/release/smsgw
"""

import sys, os, json, time, threading, http.client, tempfile, shutil
sys.path.insert(0, os.path.dirname(__file__))
from bench_processes import Procs, proc_usage
from bench_smsgw import make_account, pair
from bench_api import start, own_cpu
from bench_support import pct

smsgw = os.path.abspath(sys.argv[1])
root = tempfile.mkdtemp(prefix="smsgw-api-probe-")
procs = Procs()
try:
    alice = make_account(smsgw, root, "alice")
    bob = make_account(smsgw, root, "bob")
    pair(alice, bob, "+15550001", "+15550002", "bob", "alice")
    token = json.loads(alice.cli("api", "token", "create", "bench", "--scope", "send,read", "--json").stdout)["token"]
    p, host, port = start(procs, alice, root, "serve-api-on", "127.0.0.1:0")
    time.sleep(2)
    conn = http.client.HTTPConnection(host, port)
    conn.request("POST", "/v1/messages", body=json.dumps({"contact": "bob", "text": "x"}), headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
    conn.getresponse().read()
    for method, path, auth in [("GET", "/health/live", False), ("GET", "/v1/messages/1", True), ("POST", "/v1/messages", True)]:
        lat, lock, count = [], threading.Lock(), [0]
        deadline = time.time() + 8
        def worker():
            c = http.client.HTTPConnection(host, port)
            h = {"Content-Type": "application/json"}
            if auth: h["Authorization"] = "Bearer " + token
            body = json.dumps({"contact": "bob", "text": "benchmark: a text of ordinary length, queued through the API"}) if method == "POST" else None
            while time.time() < deadline:
                t0 = time.perf_counter()
                c.request(method, path, body=body, headers=h)
                r = c.getresponse(); r.read()
                with lock: lat.append((time.perf_counter() - t0) * 1000)
        d0, c0 = proc_usage(p.pid)[0], own_cpu()
        t0 = time.time()
        ts = [threading.Thread(target=worker) for _ in range(16)]
        [t.start() for t in ts]; [t.join() for t in ts]
        el = time.time() - t0
        d, c = proc_usage(p.pid)[0] - d0, own_cpu() - c0
        print(f"{method} {path}: {len(lat)/el:.0f}/s p50 {pct(lat,50):.1f} ms p99 {pct(lat,99):.1f} ms; daemon CPU {d/len(lat)*1000:.2f} ms/request, clients {c/len(lat)*1000:.2f} ms/request; load {os.getloadavg()[0]:.1f}")
finally:
    procs.stop_all()
    shutil.rmtree(root, ignore_errors=True)
