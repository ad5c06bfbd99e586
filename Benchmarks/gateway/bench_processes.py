"""Processes the benchmark starts, and what they cost: process groups stopped in `finally`, CPU
seconds and peak resident memory read from /proc.
"""

import os
import signal
import subprocess
import sys


CLK_TCK = os.sysconf("SC_CLK_TCK")


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
