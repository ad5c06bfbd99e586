"""The smsgw runs: accounts, pairing, `smsgw serve` per pair or one daemon for several modems,
and the store-and-crypto path alone (`encrypt`/`decrypt --lines`).
"""

import json
import os
import sqlite3
import statistics
import time

from bench_processes import Procs, end_usage, proc_usage, start_operation, usage_summary
from bench_support import BenchError, Traffic, run, start_sim, wait_until


PASSPHRASE = "gateway-benchmark-passphrase"


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
