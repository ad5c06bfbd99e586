"""The gammu-smsd run (files backend) on the same kind of simulated network, for comparison.
"""

import os
import statistics
import time

from bench_processes import Procs, end_usage, proc_usage, start_operation, usage_summary
from bench_support import BenchError, Traffic, start_sim, wait_until


def gammu_files_conf(path, device, box, settings=""):
    """A gammu-smsd configuration for the files backend in `box`; `settings` are further [smsd]
    lines (none: gammu-smsd's defaults)."""
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
""" + settings)


def gammu_conf(path, device, box, args, sender):
    loop_sleep = args.gammu_sender_loopsleep if sender else args.gammu_receiver_loopsleep
    comm_timeout = args.gammu_sender_commtimeout if sender else args.gammu_receiver_commtimeout
    gammu_files_conf(path, device, box, f"""debuglevel = 0
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
