"""What one console `GET /banners` costs with N paired contacts: the request every open log and
status page sends every 3 s. One alice with N contacts paired with one bob, a viewer operator,
`serve --sim` with the console; the operator signs in and asks `/banners` --requests times in a
row (one keep-alive connection); the daemon's CPU per request and the latency are printed. Give
several smsgw binaries to compare them on the same store (a build before and after a change).

    python3 Benchmarks/gateway/banners_cost_probe.py --contacts 0,100 .build-bench/release/smsgw [OTHER_SMSGW ...]
"""

import argparse, http.client, os, re, shutil, sys, tempfile, time, urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
from bench_processes import Procs, proc_usage
from bench_smsgw import make_account, pair
from bench_api import start
from bench_support import pct

PASSWORD = "banners benchmark password"


def sign_in(host, port):
    """A viewer's session cookie, signed in through the form as a browser does."""
    conn = http.client.HTTPConnection(host, port)
    conn.request("GET", "/login")
    form = conn.getresponse()
    page = form.read().decode()
    login = re.search(r"smsgw_login=([^;]+)", form.getheader("Set-Cookie") or "").group(1)
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"name": "watch", "password": PASSWORD, "csrf": token})
    conn.request("POST", "/login", body=body, headers={
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": "smsgw_login=" + login,
        "Sec-Fetch-Site": "same-origin"})
    answer = conn.getresponse()
    answer.read()
    cookies = ", ".join(v for k, v in answer.getheaders() if k.lower() == "set-cookie")
    return re.search(r"smsgw_session=([^;]+)", cookies).group(1)


def probe(procs, smsgw, alice, root, label, requests):
    alice.smsgw = smsgw
    p, host, port = start(procs, alice, root, "serve-" + label, "127.0.0.1:0")
    try:
        session = sign_in(host, port)
        conn = http.client.HTTPConnection(host, port)
        headers = {"Cookie": "smsgw_session=" + session}
        latencies = []
        cpu0 = proc_usage(p.pid)[0]
        for _ in range(requests):
            t0 = time.perf_counter()
            conn.request("GET", "/banners", headers=headers)
            r = conn.getresponse()
            r.read()
            if r.status != 200:
                raise SystemExit(f"/banners answered {r.status}")
            latencies.append((time.perf_counter() - t0) * 1000)
        cpu = proc_usage(p.pid)[0] - cpu0
        return pct(latencies, 50), pct(latencies, 90), cpu / requests * 1000
    finally:
        procs.stop(p)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("smsgw", nargs="+")
    parser.add_argument("--contacts", default="0,100")
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    binaries = [os.path.abspath(b) for b in args.smsgw]
    procs = Procs()
    root = tempfile.mkdtemp(prefix="smsgw-banners-probe-")
    try:
        for n in [int(x) for x in args.contacts.split(",")]:
            where = os.path.join(root, f"n{n}")
            os.makedirs(where)
            alice = make_account(binaries[0], where, "alice")
            bob = make_account(binaries[0], where, "bob")
            pair(alice, bob, "+15550001", "+15550002", "bob", "alice")
            for i in range(n):
                pair(alice, bob, f"+1555300{i:04d}", f"+1555400{i:04d}", f"peer{i}", f"alice{i}")
            alice.cli("operator", "add", "watch", "--role", "viewer", input=(PASSWORD + "\n").encode())
            for b in binaries:
                p50, p90, cpu = probe(procs, b, alice, where, f"n{n}-{binaries.index(b)}", args.requests)
                print(f"{n + 1} contacts, {b}: GET /banners p50 {p50:.2f} ms p90 {p90:.2f} ms; daemon CPU {cpu:.2f} ms/request")
    finally:
        procs.stop_all()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
