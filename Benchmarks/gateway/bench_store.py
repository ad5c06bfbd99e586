"""The store-and-crypto path on SQLite against PostgreSQL: `smsgw send CONTACT --lines` queues one
sealed SMS per line (one write transaction each: the ratchet step, the log row, the outbox row), and
`smsgw log --json` reads them back, on each backend in turn, same machine, same binary.

PostgreSQL is a throw-away cluster this script starts (Debian's postgresql server; `initdb` as the
`postgres` user when run as root), on loopback with scram-sha-256, `fsync` and
`synchronous_commit` on: durable as the store requires, as SQLite's `synchronous = FULL` is.

    swift build -c release --product smsgw --scratch-path .build-bench
    python3 Benchmarks/gateway/bench_store.py --smsgw .build-bench/release/smsgw [--messages 2000]
"""

import argparse
import contextlib
import glob
import json
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from bench_smsgw import Account, pair
from bench_support import BenchError


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A PostgreSQL cluster in `root`, stopped by `stop()`."""

    def __init__(self, root, options=""):
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise BenchError("no PostgreSQL server (apt-get install -y postgresql)")
        self.bin = os.path.dirname(found[-1])
        self.dir = os.path.join(root, "pg")
        os.makedirs(self.dir, mode=0o700)
        self.port, self.password, self.user = free_port(), secrets.token_hex(16), "smsgw"
        self.run_as = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(root, owner.pw_uid, owner.pw_gid)
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self.run_as = ["/usr/sbin/runuser", "-u", "postgres", "--"]
        pwfile = os.path.join(self.dir, "pw")
        with open(os.open(pwfile, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write(self.password + "\n")
        if self.run_as:
            os.chown(pwfile, owner.pw_uid, owner.pw_gid)
        self._run("initdb", f"--pgdata={self.dir}/data", f"--username={self.user}", f"--pwfile={pwfile}",
                  "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8")
        self._run("pg_ctl", "start", f"--pgdata={self.dir}/data", "--wait", f"--log={self.dir}/server.log",
                  f"--options=-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} {options}")
        self.started = True
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, "smsgw",
                  env={"PGPASSWORD": self.password})

    def _run(self, tool, *args, env=None):
        subprocess.run(self.run_as + [os.path.join(self.bin, tool), *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, env=dict(os.environ, **(env or {})), timeout=120)

    def store_env(self, database="smsgw"):
        return {"SMSGW_STORE_BACKEND": "postgresql", "SMSGW_STORE_TLS": "disable",
                "SMSGW_STORE_URL": f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}",
                "SMSGW_STORE_PASSWORD": self.password}

    def create_database(self, name):
        """A fresh, empty database `name` (one per run, so no run sees another's rows)."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, name,
                  env={"PGPASSWORD": self.password})

    def rows(self, database, query):
        """The rows of `query` on `database` as psql prints them unaligned: a list of column lists."""
        p = subprocess.run([os.path.join(self.bin, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                            "-h", "127.0.0.1", "-p", str(self.port), "-U", self.user, "-d", database, "-c", query],
                           env=dict(os.environ, PGPASSWORD=self.password), capture_output=True, timeout=60)
        if p.returncode != 0:
            raise BenchError(f"psql {query[:60]!r} exited {p.returncode}: {p.stderr.decode(errors='replace')[-300:]}")
        return [line.split("|") for line in p.stdout.decode().splitlines() if line]

    def stop(self):
        if getattr(self, "started", False):
            self._run("pg_ctl", "stop", f"--pgdata={self.dir}/data", "--mode=fast")


@contextlib.contextmanager
def scratch(prefix):
    """A directory for one run's accounts and cluster: (its path, a holder for the cluster it starts),
    both gone at the end, the cluster stopped first."""
    root = tempfile.mkdtemp(prefix=prefix)
    os.chmod(root, 0o755)
    holder = {}
    try:
        yield root, holder
    finally:
        if holder.get("cluster"):
            holder["cluster"].stop()
        shutil.rmtree(root, ignore_errors=True)


def timed(account, argv, data):
    t0 = time.perf_counter()
    p = subprocess.run([account.smsgw, *argv], input=data, env=account.env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=900)
    elapsed = time.perf_counter() - t0
    if p.returncode != 0:
        raise BenchError(f"smsgw {' '.join(argv)} exited {p.returncode}: {p.stderr.decode(errors='replace')[-400:]}")
    return elapsed, p.stdout


def run_backend(smsgw, root, name, extra_env, messages):
    alice, bob = Account(smsgw, root, name), Account(smsgw, root, name + "-peer")
    alice.env.update(extra_env)
    for account in (alice, bob):
        account.cli("init", "--username", account.name, "--kdf-memory", "19", "--kdf-iterations", "2")
    pair(alice, bob, "+15550001", "+15550002", "bob", "alice")
    t_one, _ = timed(alice, ["send", "bob", "--lines"], b"one message: the unlock and the open alone\n")
    lines = "".join(f"store and crypto message {k:05d}\n" for k in range(messages)).encode()
    t_all, _ = timed(alice, ["send", "bob", "--lines"], lines)
    t_log, out = timed(alice, ["log", "--json", "--limit", str(messages + 1)], b"")
    count = sum(1 for line in out.decode().splitlines() if line.strip() and json.loads(line))
    if count < messages:
        raise BenchError(f"{name}: log --json gave {count} rows for {messages} messages")
    return {"backend": name, "t_one": t_one, "t_all": t_all, "t_log": t_log,
            "rate": (messages - 1) / max(t_all - t_one, 1e-9), "rate_incl": messages / t_all}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smsgw", required=True)
    parser.add_argument("--messages", type=int, default=2000)
    args = parser.parse_args()
    smsgw = os.path.abspath(args.smsgw)
    with scratch("smsgw-bench-store-") as (root, holder):
        print(f"load average before: {os.getloadavg()[0]:.1f}", flush=True)
        sqlite = run_backend(smsgw, root, "sqlite", {}, args.messages)
        cluster = holder["cluster"] = Cluster(root)
        postgres = run_backend(smsgw, root, "postgresql", cluster.store_env(), args.messages)
        for r in (sqlite, postgres):
            print(f"{r['backend']:>10}: send --lines {args.messages}: {r['t_all']:.2f} s "
                  f"({r['rate_incl']:.0f} msg/s with the unlock, {r['rate']:.0f} msg/s without its "
                  f"{r['t_one']:.2f} s); log --json of them {r['t_log']:.2f} s")
        print(f"PostgreSQL / SQLite, messages per second: {postgres['rate'] / sqlite['rate']:.2f}")
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    try:
        main()
    except BenchError as error:
        sys.exit(f"bench_store: {error}")
