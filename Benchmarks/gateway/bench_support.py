"""What every run shares: running a command, waiting on a condition, statistics, the simulated
network (`smsgw sim`) and its traffic log.
"""

import datetime as dt
import json
import os
import re
import statistics
import subprocess
import time


class BenchError(Exception):
    pass


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
