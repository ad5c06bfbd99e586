#!/usr/bin/env python3
"""Gateway benchmark: smsgw beside gammu-smsd on the simulated GSM network.

Runs, in one go (see README.md in this folder and docs/PERFORMANCE.md, "Gateway"):

1. smsgw, N independent pairs (alice_i on modem i -> bob_i on modem N+i, one `smsgw serve`
   each) on one simulated network: M messages queued per pair with `smsgw send` before the
   daemons start, then per modem throughput (first submit to last decrypted row), the latency
   from `send` to the SMS-SUBMIT and from SMS arrival to the decrypted row (measured on idle
   daemons, one message at a time), peak RSS and CPU seconds per message of the daemons.
   For N > 1 also one alice daemon driving N modems to one bob daemon driving N modems, end to end.
2. gammu-smsd (files backend) on the same kind of network: one daemon per sending modem with M
   OUTC...txt files in its outbox, one per receiving modem writing its inbox; same figures.
3. The store-and-crypto path alone: `smsgw encrypt NAME --lines` and `smsgw decrypt NAME --lines`
   over M' lines, minus an empty run (one unlock).

Every process it starts runs in its own process group and is stopped in `finally`.
"""

import argparse
import datetime as dt
import json
import os
import platform
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

PASSPHRASE = "gateway-benchmark-passphrase"
CLK_TCK = os.sysconf("SC_CLK_TCK")
LIBGAMMU_SEND_SLEEP = 0.7  # libgammu's own send routine sleeps this long per SMS (BRIEF §8)
# Of which, before the PDU reaches the network: ATGEN_SendSMS (libgammu 1.42) sleeps 100 ms after the
# "> " prompt and 500 ms after writing the PDU, then sends Ctrl-Z, on which the SMSC accepts it.
LIBGAMMU_PRE_SUBMIT_SLEEP = 0.6


class BenchError(Exception):
    pass


# ----------------------------------------------------------------------------- processes

class Procs:
    """Every started process, each in its own session/process group."""

    def __init__(self):
        self.items = []

    def start(self, name, argv, env=None, log=None, cwd=None):
        out = open(log, "wb") if log else subprocess.DEVNULL
        p = subprocess.Popen(argv, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True, cwd=cwd)
        self.items.append((name, p, log))
        return p

    def stop(self, p, grace=8.0):
        if p.poll() is not None:
            return
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            p.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(timeout=5)

    def stop_all(self):
        # daemons first (they talk to the simulator), the simulator last
        for name, p, _ in reversed(self.items):
            try:
                self.stop(p)
            except Exception as e:  # keep stopping the others
                print(f"warning: could not stop {name} (pid {p.pid}): {e}", file=sys.stderr)
        self.items = []


def proc_usage(pid):
    """(cpu seconds utime+stime, VmHWM KiB, VmRSS KiB) of a live process."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLK_TCK
    status = proc_status(pid)
    return cpu, status.get("VmHWM", 0), status.get("VmRSS", 0)


def proc_status(pid):
    """The KiB figures of /proc/PID/status (VmHWM, VmRSS, RssAnon, RssFile, ...)."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[2] == "kB":
                out[parts[0].rstrip(":")] = int(parts[1])
    return out


def proc_rollup(pid):
    """Pss and the private (unshared) KiB of /proc/PID/smaps_rollup: the memory this process alone adds."""
    out = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3 and parts[2] == "kB":
                    out[parts[0].rstrip(":")] = int(parts[1])
    except OSError:
        pass
    return {"pss": out.get("Pss", 0), "uss": out.get("Private_Clean", 0) + out.get("Private_Dirty", 0)}


def start_operation(pid):
    """At the first SMS-SUBMIT: returns the peak RSS so far (start-up: the unlock, libgammu's
    connect) and resets the peak (clear_refs 5), so the VmHWM read at the end is the peak while
    the daemon works."""
    hwm = proc_status(pid).get("VmHWM", 0)
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass  # not permitted: the end figure then includes the start-up
    return hwm


def end_usage(pid, cpu0, startup_hwm):
    """The usage record of a daemon just before it is stopped."""
    cpu, hwm, rss = proc_usage(pid)
    status = proc_status(pid)
    rollup = proc_rollup(pid)
    return {"cpu": cpu - cpu0, "cpu_total": cpu, "hwm_operation": hwm, "hwm_startup": startup_hwm,
            "hwm": max(hwm, startup_hwm), "rss_end": rss, "anon_end": status.get("RssAnon", 0),
            "uss_end": rollup["uss"], "pss_end": rollup["pss"]}


def usage_summary(usage, sender, receiver, messages):
    """Peak and end memory of the senders' and receivers' daemons, and CPU per message."""
    def worst(prefix, key):
        return max(u[key] for k, u in usage.items() if k.startswith(prefix))

    def cpu(prefix, key):
        return sum(u[key] for k, u in usage.items() if k.startswith(prefix)) / messages

    out = {}
    for side, prefix in (("alice", sender), ("bob", receiver)):
        for key in ("hwm", "hwm_startup", "hwm_operation", "rss_end", "anon_end", "uss_end", "pss_end"):
            out[f"{side}_{key}"] = worst(prefix, key)
        out[f"{side}_cpu_msg"] = cpu(prefix, "cpu")
        out[f"{side}_cpu_total_msg"] = cpu(prefix, "cpu_total")
    return out


# ----------------------------------------------------------------------------- helpers

def iso_to_epoch(text):
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    return dt.datetime.fromisoformat(text).timestamp()


def pct(values, p):
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def med(values):
    return statistics.median(values) if values else float("nan")


def run(argv, env=None, input=None, check=True, timeout=120):
    r = subprocess.run(argv, env=env, input=input, capture_output=True, timeout=timeout)
    if check and r.returncode != 0:
        raise BenchError(f"{' '.join(argv[:4])}... exited {r.returncode}: {r.stderr.decode(errors='replace').strip()}")
    return r


def wait_until(predicate, timeout, what, step=0.05):
    deadline = time.time() + timeout
    while time.time() < deadline:
        v = predicate()
        if v:
            return v
        time.sleep(step)
    raise BenchError(f"timed out after {timeout:.0f} s waiting for {what}")


class Traffic:
    """Reads the simulator's traffic log (one JSON line per PDU)."""

    def __init__(self, path):
        self.path = path
        self.offset = 0
        self.records = []

    def refresh(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return self.records
        end = data.rfind(b"\n")
        if end < 0:
            return self.records
        for line in data[:end].splitlines():
            if line.strip():
                r = json.loads(line)
                r["t"] = iso_to_epoch(r["time"])
                self.records.append(r)
        self.offset += end + 1
        return self.records

    def submits(self, sender, since=0.0):
        return [r for r in self.refresh() if r["direction"] == "submit" and r["event"] == "accepted"
                and r["from"] == sender and r["t"] >= since]

    def delivers(self, to, since=0.0):
        return [r for r in self.refresh() if r["direction"] == "deliver" and r["event"] == "stored"
                and r["to"] == to and r["t"] >= since]


def start_sim(procs, smsgw, count, directory):
    os.makedirs(os.path.dirname(directory), exist_ok=True)
    log = os.path.join(os.path.dirname(directory), os.path.basename(directory) + "-sim.log")
    p = procs.start("sim", [smsgw, "sim", "--modems", str(count), "--dir", directory], log=log)
    numbers = {}

    def ready():
        if p.poll() is not None:
            raise BenchError(f"smsgw sim exited {p.returncode}; see {log}")
        if not os.path.exists(os.path.join(directory, "control.sock")):
            return False
        for i in range(1, count + 1):
            try:
                with open(os.path.join(directory, f"gammurc-{i}")) as f:
                    m = re.search(r"simulated modem (\+\d+)", f.read())
            except FileNotFoundError:
                return False
            if not m:
                return False
            numbers[i] = m.group(1)
        return True

    wait_until(ready, 30, "the simulator to start")
    return [numbers[i] for i in range(1, count + 1)]


# ----------------------------------------------------------------------------- smsgw

class Account:
    def __init__(self, smsgw, root, name):
        self.smsgw = smsgw
        self.name = name
        self.dir = os.path.join(root, name)
        self.env = dict(os.environ, SMSGW_DATA_DIR=self.dir, SMSGW_PASSPHRASE=PASSPHRASE)
        self.env.pop("SMSGW_PASSPHRASE_FILE", None)
        self.env.pop("SMSGW_CONFIG", None)

    def cli(self, *args, **kw):
        return run([self.smsgw, *args], env=self.env, **kw)

    def db(self):
        return sqlite3.connect(f"file:{os.path.join(self.dir, 'smsgw.sqlite')}?mode=ro", uri=True, timeout=15)

    def count_in(self, status="decrypted"):
        try:
            c = self.db()
            try:
                return c.execute("select count(*) from messages where direction='in' and status=?",
                                 (status,)).fetchone()[0]
            finally:
                c.close()
        except sqlite3.Error:
            return 0


def make_account(smsgw, root, name):
    a = Account(smsgw, root, name)
    a.cli("init", "--username", name, "--kdf-memory", "19", "--kdf-iterations", "2")
    return a


def pair(a, b, a_number, b_number, a_calls_b, b_calls_a):
    """a knows b as `a_calls_b` (number b_number), b knows a as `b_calls_a` (number a_number)."""
    ca = json.loads(a.cli("contact", "add", a_calls_b, "--number", b_number, "--json").stdout)
    cb = json.loads(b.cli("contact", "add", b_calls_a, "--number", a_number, "--json").stdout)
    a.cli("contact", "pair", a_calls_b, cb["pairingCode"])
    b.cli("contact", "pair", b_calls_a, ca["pairingCode"])


def write_config(path, account, modems, args):
    lines = [f'data_dir = "{account.dir}"', 'log_level = "notice"', "", "[intervals]",
             f"poll_seconds = {args.poll_seconds}", "health_seconds = 30", "retry_base_seconds = 1",
             "retry_max_seconds = 5", ""]
    for name, gammurc in modems:
        lines += ["[[modem]]", f'name = "{name}"', f'gammurc = "{gammurc}"', "status_reports = false",
                  "call_timeout_seconds = 30", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def serve(procs, account, config, root):
    env = dict(account.env, SMSGW_CONFIG=config)
    log = os.path.join(root, account.name + "-serve.log")
    return procs.start("serve " + account.name, [account.smsgw, "serve", "--config", config], env=env, log=log)


def smsgw_pairs(args, n, root):
    """N independent alice_i -> bob_i pairs, one daemon each."""
    procs = Procs()
    try:
        net = os.path.join(root, "net")
        numbers = start_sim(procs, args.smsgw, 2 * n, net)
        traffic = Traffic(os.path.join(net, "traffic.log"))
        pairs = []
        for i in range(n):
            alice = make_account(args.smsgw, root, f"alice{i + 1}")
            bob = make_account(args.smsgw, root, f"bob{i + 1}")
            pair(alice, bob, numbers[i], numbers[n + i], "bob", "alice")
            pairs.append((alice, bob, numbers[i], numbers[n + i]))
        # Queue everything before alice's daemon starts: the unlock of each `send` stays out of the
        # modem figure, which is then measured from the first SMS-SUBMIT.
        for k in range(args.messages):
            for alice, *_ in pairs:
                alice.cli("send", "bob", f"benchmark message {k:04d} from {alice.name}")
        daemons = []
        for i, (alice, bob, na, nb) in enumerate(pairs):
            for acc, idx in ((bob, n + i + 1), (alice, i + 1)):
                cfg = os.path.join(root, acc.name + ".toml")
                write_config(cfg, acc, [(f"m{idx}", os.path.join(net, f"gammurc-{idx}"))], args)
                daemons.append((acc, serve(procs, acc, cfg, root)))
        t_start = time.time()
        # CPU at the first submit: excludes the unlock (Argon2) and libgammu's connect
        cpu0 = {}

        def first_submit():
            for acc, p in daemons:
                if p.poll() is not None:
                    raise BenchError(f"smsgw serve for {acc.name} exited {p.returncode}; see {root}/{acc.name}-serve.log")
            if any(traffic.submits(na) for _, _, na, _ in pairs):
                for acc, p in daemons:
                    cpu0[acc.name] = (proc_usage(p.pid)[0], start_operation(p.pid))
                return True
            return False

        wait_until(first_submit, 60, "the first SMS-SUBMIT from smsgw")
        total = args.messages
        wait_until(lambda: all(bob.count_in() >= total for _, bob, _, _ in pairs) or
                   any(p.poll() is not None for _, p in daemons),
                   30 + 3 * total, "every queued message to be decrypted by bob")
        bulk_end = time.time()
        # Latency phase: daemons idle, one `send` per pair at a time, spaced so the modem is free.
        for k in range(args.latency_messages):
            t0 = time.time()
            for alice, *_ in pairs:
                alice.cli("send", "bob", f"latency probe {k:03d} from {alice.name}")
            time.sleep(max(0.0, args.latency_gap - (time.time() - t0)))
        total = args.messages + args.latency_messages
        wait_until(lambda: all(bob.count_in() >= total for _, bob, _, _ in pairs), 30,
                   "the latency probes to be decrypted")
        time.sleep(0.3)
        usage = {acc.name: end_usage(p.pid, *cpu0.get(acc.name, (0.0, 0))) for acc, p in daemons}
        for acc, p in daemons:
            procs.stop(p)

        per_pair = []
        send_lat, recv_lat, recv_lat_load = [], [], []
        for alice, bob, na, nb in pairs:
            subs = traffic.submits(na)
            dels = traffic.delivers(nb)
            # the decrypted rows, as `smsgw log --json` shows them (times there are whole seconds;
            # the precise time is the same row's REAL `time` column in the database)
            rows = [json.loads(l) for l in bob.cli("log", "--json", "--limit", "100000").stdout.splitlines() if l.strip()]
            dec_ids = [r["id"] for r in rows if r["direction"] == "in" and r["status"] == "decrypted"]
            c = bob.db()
            times = dict(c.execute("select id, time from messages where direction='in'").fetchall())
            c.close()
            dec_t = [times[i] for i in sorted(dec_ids)]
            c = alice.db()
            queued = [t for (t,) in c.execute("select created_at from outbox order by id").fetchall()]
            c.close()
            m = args.messages
            if len(subs) < total or len(dels) < total or len(dec_t) < total:
                raise BenchError(f"{alice.name}->{bob.name}: {len(subs)} submits, {len(dels)} delivers, "
                                 f"{len(dec_t)} decrypted rows, expected {total}")
            first_submit_t = subs[0]["t"]
            last_dec = max(dec_t[:m])
            per_pair.append({
                "e2e_rate": m / (last_dec - first_submit_t),
                "pace": (m - 1) / (subs[m - 1]["t"] - subs[0]["t"]),
                "interval": last_dec - first_submit_t,
            })
            # k-th submit <-> k-th outbox row (one contact, oldest first, no faults);
            # k-th deliver <-> k-th decrypted row
            for k in range(m, total):
                send_lat.append(subs[k]["t"] - queued[k])
            for k in range(total):
                (recv_lat if k >= m else recv_lat_load).append(dec_t[k] - dels[k]["t"])
        return {
            "n": n, "messages": args.messages, "pairs": per_pair,
            "rate_per_modem": statistics.mean(p["e2e_rate"] for p in per_pair),
            "rate_min": min(p["e2e_rate"] for p in per_pair),
            "pace_per_modem": statistics.mean(p["pace"] for p in per_pair),
            "aggregate": n * args.messages / max(p["interval"] for p in per_pair),
            "send_lat": send_lat, "recv_lat": recv_lat, "recv_lat_load": recv_lat_load,
            "usage": usage, **usage_summary(usage, "alice", "bob", n * total),
        }
    finally:
        procs.stop_all()


def smsgw_one_daemon(args, n, root):
    """One alice daemon driving N modems to one bob daemon driving N modems. Each knows the other as
    one contact with all N numbers: alice's modems share her outbox, her SMS go to bob's numbers in
    turn, and whichever modem of bob's receives decrypts them. End to end: N x M messages queued,
    from the first SMS-SUBMIT to bob's last decrypted row."""
    procs = Procs()
    try:
        net = os.path.join(root, "net")
        numbers = start_sim(procs, args.smsgw, 2 * n, net)
        traffic = Traffic(os.path.join(net, "traffic.log"))
        alice = make_account(args.smsgw, root, "alice")
        bob = make_account(args.smsgw, root, "bob")
        a_numbers, b_numbers = numbers[:n], numbers[n:]
        pair(alice, bob, a_numbers[0], b_numbers[0], "bob", "alice")
        alice.cli("contact", "edit", "bob", *[x for number in b_numbers for x in ("--number", number)])
        bob.cli("contact", "edit", "alice", *[x for number in a_numbers for x in ("--number", number)])
        total = n * args.messages
        for k in range(total):
            alice.cli("send", "bob", f"benchmark message {k:04d}")
        cb = os.path.join(root, "bob.toml")
        write_config(cb, bob, [(f"m{n + i + 1}", os.path.join(net, f"gammurc-{n + i + 1}")) for i in range(n)], args)
        ca = os.path.join(root, "alice.toml")
        write_config(ca, alice, [(f"m{i + 1}", os.path.join(net, f"gammurc-{i + 1}")) for i in range(n)], args)
        pb = serve(procs, bob, cb, root)
        pa = serve(procs, alice, ca, root)
        start = {}

        def first_submit():
            for name, p in (("alice", pa), ("bob", pb)):
                if p.poll() is not None:
                    raise BenchError(f"{name}'s daemon exited {p.returncode}; see {root}/{name}-serve.log")
            if any(traffic.submits(number) for number in a_numbers):
                for name, p in (("alice", pa), ("bob", pb)):
                    start[name] = (proc_usage(p.pid)[0], start_operation(p.pid))
                return True
            return False

        wait_until(first_submit, 60, "the first SMS-SUBMIT of the N-modem daemon")
        wait_until(lambda: bob.count_in() >= total or pa.poll() is not None or pb.poll() is not None,
                   60 + 3 * args.messages, "bob to decrypt every message of the N-modem daemon")
        time.sleep(0.3)
        usage = {name: end_usage(p.pid, *start[name]) for name, p in (("alice", pa), ("bob", pb))}
        procs.stop(pa)
        procs.stop(pb)
        subs = [r for r in traffic.refresh() if r["direction"] == "submit" and r["event"] == "accepted"]
        per_modem, paces = {}, []
        for number in a_numbers:
            t = [r["t"] for r in subs if r["from"] == number]
            per_modem[number] = len(t)
            if len(t) > 1:
                paces.append((len(t) - 1) / (t[-1] - t[0]))
        per_bob_number = {number: len(traffic.delivers(number)) for number in b_numbers}
        c = bob.db()
        statuses = dict(c.execute("select status, count(*) from messages where direction='in' group by status").fetchall())
        last_decrypted = c.execute("select max(time) from messages where direction='in' and status='decrypted'").fetchone()[0]
        c.close()
        if statuses.get("decrypted", 0) < total:
            raise BenchError(f"one daemon with {n} modems: bob decrypted {statuses.get('decrypted', 0)} of {total}; "
                             f"statuses {statuses}")
        first = min(r["t"] for r in subs if r["from"] in a_numbers)
        return {"n": n, "total": total, "e2e_aggregate": total / (last_decrypted - first),
                "pace_aggregate": sum(paces), "pace_per_modem": statistics.mean(paces) if paces else 0.0,
                "per_modem_counts": per_modem, "per_bob_number": per_bob_number, "bob_statuses": statuses,
                "usage": usage, **usage_summary(usage, "alice", "bob", total)}
    finally:
        procs.stop_all()


# ----------------------------------------------------------------------------- gammu-smsd

def gammu_conf(path, device, box, args, sender):
    loop_sleep = args.gammu_sender_loopsleep if sender else args.gammu_receiver_loopsleep
    comm_timeout = args.gammu_sender_commtimeout if sender else args.gammu_receiver_commtimeout
    for sub in ("inbox", "outbox", "sent", "error"):
        os.makedirs(os.path.join(box, sub), exist_ok=True)
    with open(path, "w") as f:
        f.write(f"""[gammu]
device = {device}
connection = at
use_locking = no

[smsd]
service = files
inboxpath = {box}/inbox/
outboxpath = {box}/outbox/
sentsmspath = {box}/sent/
errorsmspath = {box}/error/
logfile = {box}/smsd.log
debuglevel = 0
CommTimeout = {comm_timeout}
LoopSleep = {loop_sleep}
ReceiveFrequency = 0
StatusFrequency = 0
CheckSecurity = 0
CheckBattery = 0
CheckSignal = 0
HardResetFrequency = 0
ResetFrequency = 0
DeliveryReport = no
""")


def gammu_text(i, k):
    return f"gw{i:02d} msg {k:04d} ".ljust(160, "x")


def outbox_name(k, number):
    return f"OUTC20260101_000000_{k:04d}_{number}_b{k:04d}.txt"


def gammu_run(args, n, root):
    procs = Procs()
    try:
        net = os.path.join(root, "net")
        numbers = start_sim(procs, args.smsgw, 2 * n, net)
        traffic = Traffic(os.path.join(net, "traffic.log"))
        senders, receivers = [], []
        for i in range(n):
            sbox, rbox = os.path.join(root, f"send{i + 1}"), os.path.join(root, f"recv{i + 1}")
            gammu_conf(sbox + ".conf", os.path.join(net, f"modem-{i + 1}"), sbox, args, True)
            gammu_conf(rbox + ".conf", os.path.join(net, f"modem-{n + i + 1}"), rbox, args, False)
            for k in range(args.messages):
                with open(os.path.join(sbox, "outbox", outbox_name(k, numbers[n + i])), "w") as f:
                    f.write(gammu_text(i, k))
            senders.append(sbox)
            receivers.append(rbox)
        daemons = []
        for i in range(n):
            for box, role in ((receivers[i], "recv"), (senders[i], "send")):
                p = procs.start(f"gammu-smsd {role}{i + 1}", [args.gammu_smsd, "-c", box + ".conf"],
                                log=box + ".stdout")
                daemons.append((f"{role}{i + 1}", p))
        cpu0 = {}

        def first_submit():
            for name, p in daemons:
                if p.poll() is not None:
                    raise BenchError(f"gammu-smsd {name} exited {p.returncode}; see {root}/{name}.stdout and smsd.log")
            if any(traffic.submits(numbers[i]) for i in range(n)):
                for name, p in daemons:
                    cpu0[name] = (proc_usage(p.pid)[0], start_operation(p.pid))
                return True
            return False

        wait_until(first_submit, 60, "the first SMS-SUBMIT from gammu-smsd")

        def inbox(i):
            d = os.path.join(receivers[i], "inbox")
            out = {}
            for fn in os.listdir(d):
                path = os.path.join(d, fn)
                try:
                    with open(path, errors="replace") as f:
                        text = f.read()
                    st = os.stat(path)
                except FileNotFoundError:
                    continue
                if text.startswith(f"gw{i:02d} msg "):
                    out[int(text[9:13])] = st.st_mtime_ns / 1e9
            return out

        m = args.messages
        wait_until(lambda: all(len(inbox(i)) >= m for i in range(n)), 30 + 3 * m,
                   "every message in gammu-smsd's inbox", step=0.2)
        # latency phase: one file at a time per sender, dropped atomically into the outbox
        queued = {i: {} for i in range(n)}
        for k in range(m, m + args.latency_messages):
            t0 = time.time()
            for i in range(n):
                tmp = os.path.join(senders[i], "tmp.txt")
                with open(tmp, "w") as f:
                    f.write(gammu_text(i, k))
                queued[i][k] = time.time()
                os.rename(tmp, os.path.join(senders[i], "outbox", outbox_name(k, numbers[n + i])))
            time.sleep(max(0.0, args.latency_gap - (time.time() - t0)))
        total = m + args.latency_messages
        wait_until(lambda: all(len(inbox(i)) >= total for i in range(n)), 60,
                   "the latency probes in gammu-smsd's inbox", step=0.2)
        usage = {name: end_usage(p.pid, *cpu0.get(name, (0.0, 0))) for name, p in daemons}
        for _, p in daemons:
            procs.stop(p)
        per_pair, send_lat, recv_lat, recv_lat_load = [], [], [], []
        for i in range(n):
            subs = traffic.submits(numbers[i])
            dels = traffic.delivers(numbers[n + i])
            got = inbox(i)
            if len(subs) < total or len(dels) < total:
                raise BenchError(f"gammu pair {i + 1}: {len(subs)} submits, {len(dels)} delivers, expected {total}")
            last_in = max(got[k] for k in range(m))
            per_pair.append({"e2e_rate": m / (last_in - subs[0]["t"]),
                             "pace": (m - 1) / (subs[m - 1]["t"] - subs[0]["t"]),
                             "interval": last_in - subs[0]["t"]})
            # files go out in name order = k; the network keeps the order (no faults)
            for k in range(m, total):
                send_lat.append(subs[k]["t"] - queued[i][k])
            for k in range(total):
                (recv_lat if k >= m else recv_lat_load).append(got[k] - dels[k]["t"])
        return {
            "n": n, "messages": m, "pairs": per_pair,
            "rate_per_modem": statistics.mean(p["e2e_rate"] for p in per_pair),
            "rate_min": min(p["e2e_rate"] for p in per_pair),
            "pace_per_modem": statistics.mean(p["pace"] for p in per_pair),
            "aggregate": n * m / max(p["interval"] for p in per_pair),
            "send_lat": send_lat, "recv_lat": recv_lat, "recv_lat_load": recv_lat_load, "usage": usage,
            **usage_summary(usage, "send", "recv", n * total),
        }
    finally:
        procs.stop_all()


# ----------------------------------------------------------------------------- store and crypto

def crypto_run(args, root):
    os.makedirs(root, exist_ok=True)
    alice = make_account(args.smsgw, root, "alice")
    bob = make_account(args.smsgw, root, "bob")
    pair(alice, bob, "+15559001", "+15559002", "bob", "alice")

    def timed(acc, argv, data):
        t0 = time.perf_counter()
        r = acc.cli(*argv, input=data, timeout=600)
        return time.perf_counter() - t0, r.stdout

    # The unlock (Argon2id, 19 MiB, t=2) is paid once per command: the baseline is the best of three
    # one-line runs (unlock + 1 message); an empty stdin may not unlock at all.
    one_enc, singles = [], []
    for k in range(3):
        t, out = timed(alice, ["encrypt", "bob", "--lines"], f"baseline {k}\n".encode())
        one_enc.append(t)
        singles.append(out.decode().strip("\n"))
    lines = "".join(f"store and crypto message {k:05d}\n" for k in range(args.crypto_messages)).encode()
    t_enc, out = timed(alice, ["encrypt", "bob", "--lines"], lines)
    cts = [l for l in out.decode().split("\n") if l]
    if len(cts) != args.crypto_messages:
        raise BenchError(f"encrypt --lines printed {len(cts)} lines for {args.crypto_messages}")
    one_dec = []
    for c in singles:
        t, out = timed(bob, ["decrypt", "alice", "--lines"], (c + "\n").encode())
        one_dec.append(t)
    t_dec, out = timed(bob, ["decrypt", "alice", "--lines"], ("\n".join(cts) + "\n").encode())
    texts = [l for l in out.decode().split("\n") if l]
    if len(texts) != args.crypto_messages:
        raise BenchError(f"decrypt --lines printed {len(texts)} texts for {args.crypto_messages}")
    empty_enc, empty_dec = min(one_enc), min(one_dec)
    m = args.crypto_messages
    return {"messages": m, "empty_enc": empty_enc, "empty_dec": empty_dec, "t_enc": t_enc, "t_dec": t_dec,
            "enc_rate_incl": m / t_enc, "dec_rate_incl": m / t_dec,
            "enc_rate": (m - 1) / max(t_enc - empty_enc, 1e-9), "dec_rate": (m - 1) / max(t_dec - empty_dec, 1e-9)}


# ----------------------------------------------------------------------------- report

def ms(x):
    return f"{x * 1000:.0f}"


def print_report(results, args):
    print()
    print("== machine:", machine(), "| date:", dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))
    print(f"== libgammu ceiling per modem: 1/{LIBGAMMU_SEND_SLEEP} s = {1 / LIBGAMMU_SEND_SLEEP:.2f} SMS/s")
    hdr = ("system", "N", "M/modem", "e2e msg/s/modem", "min", "submit pace", "% ceil", "aggregate",
           "send->submit med/p95 ms", "same less 600 ms med/p95", "arrival->log idle med/p95 ms", "arrival->log loaded med/p95 ms",
           "peak RSS start-up send/recv MiB", "peak RSS in operation send/recv MiB", "RSS at end MiB",
           "anon RSS at end MiB", "private (USS) at end MiB", "CPU ms/msg send/recv")
    rows = []
    for key in ("smsgw", "gammu"):
        for r in results.get(key, []):
            rows.append((key if key == "smsgw" else "gammu-smsd", str(r["n"]), str(r["messages"]),
                         f"{r['rate_per_modem']:.2f}", f"{r['rate_min']:.2f}", f"{r['pace_per_modem']:.2f}",
                         f"{100 * r['pace_per_modem'] * LIBGAMMU_SEND_SLEEP:.0f}%", f"{r['aggregate']:.2f}",
                         f"{ms(med(r['send_lat']))}/{ms(pct(r['send_lat'], 95))}",
                         f"{ms(med(r['send_lat']) - LIBGAMMU_PRE_SUBMIT_SLEEP)}/"
                         f"{ms(pct(r['send_lat'], 95) - LIBGAMMU_PRE_SUBMIT_SLEEP)}",
                         f"{ms(med(r['recv_lat']))}/{ms(pct(r['recv_lat'], 95))}",
                         f"{ms(med(r['recv_lat_load']))}/{ms(pct(r['recv_lat_load'], 95))}",
                         f"{r['alice_hwm_startup'] / 1024:.1f}/{r['bob_hwm_startup'] / 1024:.1f}",
                         f"{r['alice_hwm_operation'] / 1024:.1f}/{r['bob_hwm_operation'] / 1024:.1f}",
                         f"{r['alice_rss_end'] / 1024:.1f}/{r['bob_rss_end'] / 1024:.1f}",
                         f"{r['alice_anon_end'] / 1024:.1f}/{r['bob_anon_end'] / 1024:.1f}",
                         f"{r['alice_uss_end'] / 1024:.1f}/{r['bob_uss_end'] / 1024:.1f}",
                         f"{r['alice_cpu_msg'] * 1000:.1f}/{r['bob_cpu_msg'] * 1000:.1f}"))
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    for r in results.get("one_daemon", []):
        print(f"\nsmsgw, ONE daemon with {r['n']} modems to ONE daemon with {r['n']} modems (one contact with "
              f"{r['n']} numbers each side): {r['total']} messages decrypted by bob, end to end "
              f"{r['e2e_aggregate']:.2f} msg/s ({r['e2e_aggregate'] / r['n']:.2f} per modem); submit pace "
              f"{r['pace_per_modem']:.2f} per modem ({100 * r['pace_per_modem'] * LIBGAMMU_SEND_SLEEP:.0f}% of the "
              f"ceiling), {r['pace_aggregate']:.2f} in all; SMS per alice modem {r['per_modem_counts']}, per bob "
              f"number {r['per_bob_number']}; bob's inbound rows {r['bob_statuses']}; peak RSS start-up / in "
              f"operation alice {r['alice_hwm_startup'] / 1024:.1f}/{r['alice_hwm_operation'] / 1024:.1f} MiB, bob "
              f"{r['bob_hwm_startup'] / 1024:.1f}/{r['bob_hwm_operation'] / 1024:.1f} MiB; CPU ms/msg "
              f"{r['alice_cpu_msg'] * 1000:.1f}/{r['bob_cpu_msg'] * 1000:.1f}")
    c = results.get("crypto")
    if c:
        print(f"\nstore-and-crypto ({c['messages']} messages): encrypt --lines {c['t_enc']:.2f} s "
              f"({c['enc_rate_incl']:.0f} msg/s incl. unlock), one-line run (unlock) {c['empty_enc']:.2f} s -> "
              f"{c['enc_rate']:.0f} msg/s; decrypt --lines {c['t_dec']:.2f} s ({c['dec_rate_incl']:.0f} msg/s "
              f"incl. unlock), one-line run (unlock) {c['empty_dec']:.2f} s -> {c['dec_rate']:.0f} msg/s")
    print("\nCPU ms/msg counts from the first SMS-SUBMIT (unlock and libgammu connect excluded); "
          "including them:", ", ".join(
              f"{'smsgw' if k == 'smsgw' else 'gammu-smsd'} N={r['n']} "
              f"{r['alice_cpu_total_msg'] * 1000:.1f}/{r['bob_cpu_total_msg'] * 1000:.1f}"
              for k in ("smsgw", "gammu") for r in results.get(k, [])))


def machine():
    model, cpus = "?", os.cpu_count()
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return f"{model}, {cpus} CPUs ({platform.system()} {platform.release()})"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--smsgw", default=".build-bench/release/smsgw", help="the smsgw binary (release build)")
    ap.add_argument("--gammu-smsd", default="gammu-smsd", help="the gammu-smsd binary")
    ap.add_argument("--modems", default="1,4", help="values of N, comma separated (default 1,4)")
    ap.add_argument("--messages", type=int, default=20, help="M, messages per sending modem (default 20)")
    ap.add_argument("--latency-messages", type=int, default=10,
                    help="messages per pair sent one at a time to idle daemons for the latencies (default 10)")
    ap.add_argument("--latency-gap", type=float, default=1.5, help="seconds between latency probes (default 1.5)")
    ap.add_argument("--crypto-messages", type=int, default=2000, help="M' for the store-and-crypto run")
    ap.add_argument("--poll-seconds", type=float, default=1.0, help="smsgw intervals.poll_seconds (default 1)")
    ap.add_argument("--gammu-sender-loopsleep", type=int, default=0)
    ap.add_argument("--gammu-sender-commtimeout", type=int, default=0)
    ap.add_argument("--gammu-receiver-loopsleep", type=int, default=1)
    ap.add_argument("--gammu-receiver-commtimeout", type=int, default=1)
    ap.add_argument("--only", default="smsgw,one,crypto,gammu",
                    help="parts to run, comma separated: smsgw, one (one daemon with N modems), crypto, gammu")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--json", help="also write the raw results to this file")
    args = ap.parse_args()

    gammu = shutil.which(args.gammu_smsd)
    parts = set(args.only.split(","))
    if "gammu" in parts and not gammu:
        sys.exit("gateway_benchmark: gammu-smsd not found (looked for "
                 f"'{args.gammu_smsd}' on PATH). Install it: apt-get install gammu-smsd "
                 "(Debian package gammu-smsd), or pass --gammu-smsd PATH.")
    args.gammu_smsd = gammu
    args.smsgw = os.path.abspath(args.smsgw)
    if not os.access(args.smsgw, os.X_OK):
        sys.exit(f"gateway_benchmark: no smsgw binary at {args.smsgw}; build it with "
                 "`swift build -c release --product smsgw --scratch-path .build-bench` and pass --smsgw.")
    ns = [int(x) for x in args.modems.split(",") if x]
    work = tempfile.mkdtemp(prefix="smsgw-gwbench-")
    print(f"work directory {work}", flush=True)
    results = {"smsgw": [], "gammu": [], "one_daemon": []}
    t_all = time.time()
    ok = False
    try:
        if "crypto" in parts:
            print("store-and-crypto ...", flush=True)
            results["crypto"] = crypto_run(args, os.path.join(work, "crypto"))
        for n in ns:
            if "smsgw" in parts:
                print(f"smsgw, {n} pair(s) x {args.messages} messages ...", flush=True)
                results["smsgw"].append(smsgw_pairs(args, n, os.path.join(work, f"smsgw-{n}")))
            if "one" in parts and n > 1:
                print(f"smsgw, one daemon with {n} modems ...", flush=True)
                try:
                    results["one_daemon"].append(smsgw_one_daemon(args, n, os.path.join(work, f"one-{n}")))
                except BenchError as e:
                    print(f"  one-daemon run failed: {e}", flush=True)
        for n in ns:
            if "gammu" in parts:
                print(f"gammu-smsd, {n} pair(s) x {args.messages} messages ...", flush=True)
                results["gammu"].append(gammu_run(args, n, os.path.join(work, f"gammu-{n}")))
        ok = True
    except BenchError as e:
        print(f"gateway_benchmark: {e}", file=sys.stderr)
    finally:
        print_report(results, args)
        print(f"\ntotal run time {time.time() - t_all:.0f} s")
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=1, default=str)
        if args.keep or not ok:
            print(f"work directory kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
