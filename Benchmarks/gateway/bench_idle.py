"""The idle run: `smsgw serve` and gammu-smsd (its default configuration) side by side on one
simulated network, one modem each, nothing to send or receive; what each costs to keep running
(CPU, wake-ups, resident memory), and how long `smsgw serve` takes to its first modem ready.
"""

import glob
import os
import time

from bench_gammu import gammu_files_conf
from bench_processes import Procs, proc_status, proc_usage
from bench_smsgw import make_account
from bench_support import BenchError, start_sim, wait_until


def context_switches(pid):
    """Voluntary + involuntary context switches of each live thread of `pid`, by thread id: each
    is a wake-up (or a preemption) of that thread."""
    counts = {}
    for path in glob.glob(f"/proc/{pid}/task/*/status"):
        total = 0
        try:
            with open(path) as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                        total += int(line.split()[1])
        except OSError:
            continue  # the thread ended between the listing and the read
        counts[path.split("/")[4]] = total
    return counts


def sample(pid):
    cpu, _, rss = proc_usage(pid)
    return {"t": time.time(), "cpu": cpu, "switches": context_switches(pid), "rss": rss,
            "anon": proc_status(pid).get("RssAnon", 0)}


def idle_figures(before, after):
    """Rates between two samples. A thread that started in between counts from 0; one that ended
    in between is left out (its last count is gone with it), and the figures say how many did."""
    span = after["t"] - before["t"]
    b, a = before["switches"], after["switches"]
    switches = sum(count - b.get(tid, 0) for tid, count in a.items())
    return {"seconds": span, "cpu_per_minute": (after["cpu"] - before["cpu"]) * 60 / span,
            "switches_per_second": switches / span, "rss": after["rss"], "anon": after["anon"],
            "threads": len(a), "threads_started": len(set(a) - set(b)), "threads_ended": len(set(b) - set(a))}


def rss_by_mapping(pid):
    """Resident KiB per mapped file (anonymous memory, heap and stacks as one line each) from
    /proc/PID/smaps, largest first: which library the resident pages belong to."""
    totals, name = {}, None
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            fields = line.split()
            if "-" in fields[0] and len(fields) >= 5 and not fields[0].endswith(":"):
                name = os.path.basename(fields[5]) if len(fields) > 5 else "[anonymous]"
            elif fields[0] == "Rss:":
                totals[name] = totals.get(name, 0) + int(fields[1])
    return sorted(totals.items(), key=lambda item: -item[1])


def idle_run(args, root):
    """Both daemons start on an idle network; after `--idle-settle` seconds (connects done), CPU and
    context switches are sampled `--idle-seconds` apart."""
    procs = Procs()
    try:
        net = os.path.join(root, "net")
        start_sim(procs, args.smsgw, 2, net)
        alice = make_account(args.smsgw, root, "alice")
        config = os.path.join(root, "alice.toml")
        # The daemon's defaults (poll_seconds 5, health_seconds 30): only the modem is configured.
        with open(config, "w") as f:
            f.write(f'data_dir = "{alice.dir}"\nlog_level = "info"\n\n[[modem]]\nname = "m1"\n'
                    f'gammurc = "{os.path.join(net, "gammurc-1")}"\n')
        log = os.path.join(root, "alice-serve.log")
        t0 = time.time()
        smsgw = procs.start("serve alice", [args.smsgw, "serve", "--config", config],
                            env=dict(alice.env, SMSGW_CONFIG=config), log=log)

        def ready():
            if smsgw.poll() is not None:
                raise BenchError(f"smsgw serve exited {smsgw.returncode}; see {log}")
            with open(log, errors="replace") as f:
                return "Modem ready." in f.read()

        wait_until(ready, 60, "smsgw's modem to be ready", step=0.005)
        startup = time.time() - t0
        box = os.path.join(root, "gammu")
        gammu_files_conf(box + ".conf", os.path.join(net, "modem-2"), box)
        gammu = procs.start("gammu-smsd", [args.gammu_smsd, "-c", box + ".conf"], log=box + ".stdout")
        time.sleep(args.idle_settle)
        for name, p in (("smsgw serve", smsgw), ("gammu-smsd", gammu)):
            if p.poll() is not None:
                raise BenchError(f"{name} exited {p.returncode} before the idle measurement; see {root}")
        before = {"smsgw": sample(smsgw.pid), "gammu": sample(gammu.pid)}
        time.sleep(args.idle_seconds)
        after = {"smsgw": sample(smsgw.pid), "gammu": sample(gammu.pid)}
        mappings = {"smsgw": rss_by_mapping(smsgw.pid), "gammu": rss_by_mapping(gammu.pid)}
        return {"startup_to_ready": startup, "smsgw": idle_figures(before["smsgw"], after["smsgw"]),
                "gammu": idle_figures(before["gammu"], after["gammu"]), "mappings": mappings}
    finally:
        procs.stop_all()


def print_idle(results):
    r = results.get("idle")
    if not r:
        return
    print(f"\nidle, one modem each, nothing to send or receive, {r['smsgw']['seconds']:.0f} s "
          "(smsgw with its default intervals, gammu-smsd with its default configuration):")
    hdr = ("daemon", "CPU s per idle minute", "wake-ups/s (context switches, all threads)", "threads (+started/-ended)",
           "RSS MiB", "anon RSS MiB")
    print("| " + " | ".join(hdr) + " |")
    print("|" + "---|" * len(hdr))
    for key, name in (("smsgw", "smsgw serve"), ("gammu", "gammu-smsd")):
        f = r[key]
        churn = f" (+{f['threads_started']}/-{f['threads_ended']})" if f["threads_started"] or f["threads_ended"] else ""
        print(f"| {name} | {f['cpu_per_minute']:.3f} | {f['switches_per_second']:.2f} | {f['threads']}{churn} | "
              f"{f['rss'] / 1024:.1f} | {f['anon'] / 1024:.1f} |")
    print(f"smsgw serve start-up to the first modem ready (the unlock included): {r['startup_to_ready'] * 1000:.0f} ms")
    for key, name in (("smsgw", "smsgw serve"), ("gammu", "gammu-smsd")):
        top = r["mappings"][key][:10]
        print(f"resident by mapping, {name} (KiB): " + ", ".join(f"{n} {kib}" for n, kib in top))
