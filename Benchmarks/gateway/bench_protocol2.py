"""Protocol version 2 on the simulated network (docs/PROTOCOL.md §8-9): the time a 5-part text
takes from `smsgw send` to complete at the peer, and the share of SMS that are acknowledgements at
a given rate of messages.
"""

import os
import statistics
import time

from bench_processes import Procs
from bench_smsgw import make_account, pair, serve, write_config
from bench_support import BenchError, Traffic, start_sim, wait_until

LIBGAMMU_SEND_SLEEP = 0.7
# 5 parts: more than 4 x 136 septets, at most 5 x 136.
FIVE_PART_TEXT = ("Report %02d: " + "the road north is open, the bridge holds, water at the depot. " * 11)[:660]


def _couple(args, root, acks):
    """Alice and bob paired on a two-modem simulated network, each with its daemon running."""
    procs = Procs()
    net = os.path.join(root, "net")
    numbers = start_sim(procs, args.smsgw, 2, net)
    alice = make_account(args.smsgw, root, "alice")
    bob = make_account(args.smsgw, root, "bob")
    pair(alice, bob, numbers[0], numbers[1], "bob", "alice")
    if acks:
        alice.cli("contact", "edit", "bob", "--acks", "on")
        bob.cli("contact", "edit", "alice", "--acks", "on")
    daemons = []
    for acc, idx in ((alice, 1), (bob, 2)):
        cfg = os.path.join(root, acc.name + ".toml")
        write_config(cfg, acc, [(f"m{idx}", os.path.join(net, f"gammurc-{idx}"))], args)
        daemons.append(serve(procs, acc, cfg, root))
    return procs, Traffic(os.path.join(net, "traffic.log")), alice, bob, numbers


def _decrypted_texts(account):
    c = account.db()
    try:
        return c.execute("select count(*) from messages where direction='in' and status='decrypted'").fetchone()[0]
    finally:
        c.close()


def long_text_run(args, root):
    """`send` of a 5-part text until bob's log shows it whole, `args.long_texts` times, one at a time."""
    procs, traffic, alice, bob, numbers = _couple(args, root, acks=False)
    try:
        alice.cli("send", "bob", "warm-up: both daemons connected")
        wait_until(lambda: _decrypted_texts(bob) >= 1, 90, "the warm-up message")
        times = []
        for k in range(args.long_texts):
            t0 = time.time()
            result = alice.cli("send", "bob", input=(FIVE_PART_TEXT % k).encode())
            stderr = result.stderr.decode(errors="replace")
            if "takes 5 SMS" not in stderr:
                raise BenchError(f"the text did not take 5 SMS: {stderr.strip()}")
            wait_until(lambda: _decrypted_texts(bob) >= k + 2, 60, f"long text {k} to complete")
            times.append(time.time() - t0)
        return {"runs": len(times), "median": statistics.median(times), "min": min(times), "max": max(times),
                "bound": 5 * LIBGAMMU_SEND_SLEEP}
    finally:
        procs.stop_all()


def ack_share_run(args, root, per_minute):
    """Alice sends single-SMS texts at `per_minute` for `args.ack_minutes`; bob acknowledges them.
    Returns the SMS each side submitted and the share of all SMS that were acknowledgements."""
    procs, traffic, alice, bob, numbers = _couple(args, root, acks=True)
    try:
        alice.cli("send", "bob", "warm-up")
        wait_until(lambda: _decrypted_texts(bob) >= 1, 90, "the warm-up message")
        wait_until(lambda: len(traffic.submits(numbers[1])) >= 1, 90, "the warm-up's acknowledgement")
        t0 = time.time()
        sent_before = len(traffic.submits(numbers[0]))
        acks_before = len(traffic.submits(numbers[1]))
        count = max(1, int(per_minute * args.ack_minutes))
        for k in range(count):
            due = t0 + k * 60.0 / per_minute
            time.sleep(max(0.0, due - time.time()))
            alice.cli("send", "bob", f"rate {per_minute}/min, message {k:04d}")
        wait_until(lambda: _decrypted_texts(bob) >= count + 1, 120 + count, "every message to arrive")
        time.sleep(40)  # the last batch's delay and a scan
        messages = len(traffic.submits(numbers[0])) - sent_before
        acks = len(traffic.submits(numbers[1])) - acks_before
        return {"per_minute": per_minute, "messages": messages, "acks": acks,
                "share": acks / max(1, messages + acks), "minutes": (time.time() - t0) / 60}
    finally:
        procs.stop_all()


def print_protocol2(results):
    if "long_text" in results:
        r = results["long_text"]
        print(f"\n== 5-part text, send -> complete at the peer ({r['runs']} runs): median {r['median']:.2f} s, "
              f"min {r['min']:.2f} s, max {r['max']:.2f} s (bound below: 5 x {LIBGAMMU_SEND_SLEEP} s = {r['bound']:.1f} s)")
    if results.get("acks"):
        print("\n== acknowledgements (one batch per 30 s of decrypted messages)")
        print(f"{'messages/min':>13} {'messages':>9} {'acks':>5} {'share of SMS':>13}")
        for r in results["acks"]:
            print(f"{r['per_minute']:>13} {r['messages']:>9} {r['acks']:>5} {100 * r['share']:>12.1f}%")
