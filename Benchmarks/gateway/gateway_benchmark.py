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
import json
import os
import shutil
import sys
import tempfile
import time

# The bench_*.py modules beside this script leave no __pycache__ in the repository.
sys.dont_write_bytecode = True

from bench_gammu import gammu_run
from bench_idle import idle_run, print_idle
from bench_report import print_report
from bench_protocol2 import ack_share_run, long_text_run, print_protocol2
from bench_smsgw import crypto_run, smsgw_one_daemon, smsgw_pairs
from bench_support import BenchError


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
    ap.add_argument("--only", default="idle,smsgw,one,crypto,gammu",
                    help="parts to run, comma separated: idle (smsgw and gammu-smsd doing nothing), smsgw, "
                         "one (one daemon with N modems), crypto, gammu, "
                         "longtext (a 5-part text, protocol 2), acks (the acknowledgement share)")
    ap.add_argument("--idle-seconds", type=float, default=60, help="length of the idle measurement (default 60)")
    ap.add_argument("--idle-settle", type=float, default=10,
                    help="seconds both daemons run before the idle measurement starts (default 10)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory")
    ap.add_argument("--json", help="also write the raw results to this file")
    ap.add_argument("--long-texts", type=int, default=5, help="5-part texts sent one at a time (protocol 2)")
    ap.add_argument("--ack-rates", default="1,10,100", help="messages per minute for the acknowledgement share")
    ap.add_argument("--ack-minutes", type=float, default=2.0, help="minutes of traffic per acknowledgement rate")
    args = ap.parse_args()

    gammu = shutil.which(args.gammu_smsd)
    parts = set(args.only.split(","))
    if ("gammu" in parts or "idle" in parts) and not gammu:
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
        if "idle" in parts:
            print(f"idle, smsgw serve beside gammu-smsd, {args.idle_seconds:.0f} s ...", flush=True)
            results["idle"] = idle_run(args, os.path.join(work, "idle"))
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
        if "longtext" in parts:
            print(f"smsgw, {args.long_texts} texts of 5 parts ...", flush=True)
            results["long_text"] = long_text_run(args, os.path.join(work, "longtext"))
        if "acks" in parts:
            results["acks"] = []
            for rate in [float(x) for x in args.ack_rates.split(",") if x]:
                print(f"smsgw, acknowledgements at {rate:g} messages/min ...", flush=True)
                results["acks"].append(ack_share_run(args, os.path.join(work, f"acks-{rate:g}"), rate))
        for n in ns:
            if "gammu" in parts:
                print(f"gammu-smsd, {n} pair(s) x {args.messages} messages ...", flush=True)
                results["gammu"].append(gammu_run(args, n, os.path.join(work, f"gammu-{n}")))
        ok = True
    except BenchError as e:
        print(f"gateway_benchmark: {e}", file=sys.stderr)
    finally:
        print_report(results, args)
        print_idle(results)
        print_protocol2(results)
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
