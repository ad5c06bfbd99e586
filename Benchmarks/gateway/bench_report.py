"""The report: the figures of every run side by side, and the machine they ran on.
"""

import datetime as dt
import os
import platform
import subprocess

from bench_support import med, pct


LIBGAMMU_SEND_SLEEP = 0.7  # libgammu's own send routine sleeps this long per SMS (BRIEF §8)
# Of which, before the PDU reaches the network: ATGEN_SendSMS (libgammu 1.42) sleeps 100 ms after the
# "> " prompt and 500 ms after writing the PDU, then sends Ctrl-Z, on which the SMSC accepts it.
LIBGAMMU_PRE_SUBMIT_SLEEP = 0.6


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
