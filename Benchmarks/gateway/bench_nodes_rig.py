"""One run of bench_nodes.py: the simulated network, a fresh database on the throw-away cluster, the
account on it as each node's host runs it (its own data directory, the shared store), its nodes'
`smsgw serve`, and the peer gateway bob on SQLite, set up as docs/OPERATIONS.md "Two nodes, step by
step" says.
"""

import json
import os
import signal
import time

from bench_processes import Procs
from bench_smsgw import Account, make_account
from bench_support import BenchError, Traffic, run, start_sim, wait_until


class NodesRig:
    """`layout` maps each node's name to its count of modems; bob drives `peer_modems` modems.

    Modems are numbered on the network in order: the nodes' first (in `layout`'s order), then
    bob's. The account knows bob by every one of bob's numbers and bob knows it by every node's,
    so a text from any node's modem is the same contact and the SMS to bob go to his numbers in
    turn. `timing` is None for the daemon's defaults, or (health_seconds, call_timeout_seconds)
    for the nodes.
    """

    def __init__(self, smsgw, root, cluster, database, layout, peer_modems, timing=None):
        self.smsgw, self.root, self.cluster, self.database = smsgw, root, cluster, database
        self.procs = Procs()
        self.daemons = {}
        try:
            self._set_up(layout, peer_modems, timing)
        except BaseException:
            self.procs.stop_all()
            raise

    def _set_up(self, layout, peer_modems, timing):
        cluster, root = self.cluster, self.root
        cluster.create_database(self.database)
        net = os.path.join(root, "net")
        count = sum(layout.values())
        numbers = start_sim(self.procs, self.smsgw, count + peer_modems, net)
        self.traffic = Traffic(os.path.join(net, "traffic.log"))
        self.base_numbers, self.bob_numbers = numbers[:count], numbers[count:]
        self.hosts = {}
        for name in layout:
            host = Account(self.smsgw, root, name)
            host.env.update(cluster.store_env(self.database))
            os.makedirs(host.dir, mode=0o700)
            self.hosts[name] = host
        self.first = self.hosts[next(iter(layout))]
        self.first.cli("init", "--username", "base", "--kdf-memory", "19", "--kdf-iterations", "2")
        self.bob = make_account(self.smsgw, root, "bob")
        code = self._code(self.first.cli("contact", "add", "bob", *self._numbers(self.bob_numbers), "--json"))
        bobs = self._code(self.bob.cli("contact", "add", "base", *self._numbers(self.base_numbers), "--json"))
        self.first.cli("contact", "pair", "bob", bobs)
        self.bob.cli("contact", "pair", "base", code)

        modem = 0
        self.modems = {}
        for name, host in self.hosts.items():
            self.modems[name] = [f"{name}-modem-{k + 1}" for k in range(layout[name])]
            entries = [(m, os.path.join(net, f"gammurc-{modem + k + 1}")) for k, m in enumerate(self.modems[name])]
            modem += layout[name]
            self._write_config(host, name, entries, timing)
        self.bob_modems = [f"bob-modem-{k + 1}" for k in range(peer_modems)]
        entries = [(m, os.path.join(net, f"gammurc-{count + k + 1}")) for k, m in enumerate(self.bob_modems)]
        self._write_config(self.bob, None, entries, None)
        self.number_of = dict(zip([m for ms in self.modems.values() for m in ms], self.base_numbers))

    @staticmethod
    def _numbers(numbers):
        return [x for number in numbers for x in ("--number", number)]

    @staticmethod
    def _code(result):
        return json.loads(result.stdout)["pairingCode"]

    def config(self, account):
        return os.path.join(self.root, account.name + ".toml")

    def _write_config(self, account, node, modems, timing):
        lines = [f'data_dir = "{account.dir}"', 'log_level = "info"', "", "[http]", 'listen = "off"', ""]
        if timing:
            lines += ["[intervals]", f"health_seconds = {timing[0]}", ""]
        if node:
            lines += ["[node]", f'name = "{node}"', ""]
        for name, gammurc in modems:
            lines += ["[[modem]]", f'name = "{name}"', f'gammurc = "{gammurc}"', "status_reports = false"]
            if timing:
                lines.append(f"call_timeout_seconds = {timing[1]}")
            lines.append("")
        with open(self.config(account), "w") as f:
            f.write("\n".join(lines))

    def start(self, account):
        """Starts `smsgw serve` for the host or bob, its output in ROOT/NAME-serve.log."""
        env = dict(account.env, SMSGW_CONFIG=self.config(account))
        log = os.path.join(self.root, account.name + "-serve.log")
        self.daemons[account.name] = self.procs.start(
            "serve " + account.name, [self.smsgw, "serve", "--config", self.config(account)], env=env, log=log)

    def start_all(self, stagger=0.0):
        """Starts bob and every node, `stagger` seconds apart after the first node (which sets
        the phase of their heartbeats to each other), and waits until every node is up and every
        modem ready."""
        self.start(self.bob)
        for k, host in enumerate(self.hosts.values()):
            if k:
                time.sleep(stagger)
            self.start(host)
        nodes, modems = set(self.modems), {m for ms in self.modems.values() for m in ms}
        wait_until(lambda: self._ready(self.bob, set(), set(self.bob_modems)) and self._ready(self.first, nodes, modems),
                   120, "every node up and every modem ready", step=0.5)

    def _ready(self, account, nodes, modems):
        for name, p in self.daemons.items():
            if p.poll() is not None:
                raise BenchError(f"smsgw serve for {name} exited {p.returncode}; see {self.root}/{name}-serve.log")
        env = dict(account.env, SMSGW_CONFIG=self.config(account))
        env.pop("SMSGW_PASSPHRASE", None)  # answered by the running daemon, or not ready yet
        r = run([self.smsgw, "status", "--json"], env=env, check=False)
        if r.returncode != 0:
            return False
        report = json.loads(r.stdout)
        up = {n["name"] for n in report.get("nodes", []) if n["state"] == "up"}
        ready = {m["name"] for m in report.get("modems", []) if m["state"] == "ready"}
        return nodes <= up and modems <= ready

    def kill(self, name):
        """kill -9 of a node's daemon: no clean stop is recorded, its claims stay in its name."""
        p = self.daemons[name]
        os.kill(p.pid, signal.SIGKILL)
        p.wait(timeout=10)

    def rows(self, query):
        return self.cluster.rows(self.database, query)

    def value(self, query):
        rows = self.rows(query)
        return float(rows[0][0]) if rows and rows[0][0] != "" else None

    def stop(self):
        self.procs.stop_all()
