#!/usr/bin/env bash
# Installs smsgw as a service exactly as docs/OPERATIONS.md says, on THIS machine, and checks that
# the service works: the doc's code blocks are run literally (extracted from the doc, so doc and
# check cannot drift), with stand-ins only for what cannot run without systemd and udev
# (scripts/check-install/: systemctl starts the unit as its file says, journalctl reads its
# stderr). A simulated modem with a SIM PIN (`smsgw sim`, its port root:dialout 0660 as the udev
# rule makes it) plays the real one.
#
# It creates the user smsgw, writes /usr/local/bin/smsgw, /etc/smsgw, /var/lib/smsgw,
# /var/backups/smsgw, /etc/systemd/system/smsgw.service and /etc/udev/rules.d/99-smsgw-modem.rules,
# and removes them again (and any earlier ones) around the check. Run it only on a throw-away
# machine, as root, with SMSGW_SYSTEM_TESTS=1 (.ci/run sets it).
#
# SMSGW_INSTALL_PREBUILT=PATH skips the release build: `swift build` is replaced by copying PATH
# to .build/release/smsgw (for trying the check locally; CI builds as the doc says).
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
doc=docs/OPERATIONS.md

if [[ "${SMSGW_SYSTEM_TESTS:-}" != 1 || "$(id -u)" != 0 ]]; then
    echo "check-install: this installs smsgw system-wide; run it as root on a throw-away machine with SMSGW_SYSTEM_TESTS=1." >&2
    exit 2
fi

work="$(mktemp -d /tmp/smsgw-install.XXXXXX)"
chmod 0755 "$work"
export SMSGW_CHECK_STATE="$work/state"
stubs="$work/bin"
mkdir -p "$stubs" "$SMSGW_CHECK_STATE"
cp scripts/check-install/systemctl scripts/check-install/udevadm scripts/check-install/journalctl "$stubs/"
if [[ -n "${SMSGW_INSTALL_PREBUILT:-}" ]]; then
    printf '#!/bin/sh\nmkdir -p .build/release && cp "%s" .build/release/smsgw\n' "$SMSGW_INSTALL_PREBUILT" > "$stubs/swift"
    chmod +x "$stubs/swift"
fi
export PATH="$stubs:$PATH"
simulator=""

step() { printf '\n== %s\n' "$*"; }
fail() { echo "check-install: FAILED: $*" >&2; exit 1; }

# Everything the install creates, so a second run starts clean and the machine is left as found.
uninstall() {
    [[ -n "$simulator" ]] && kill "$simulator" 2>/dev/null || true
    systemctl stop smsgw >/dev/null 2>&1 || true
    rm -rf /etc/smsgw /var/lib/smsgw /var/backups/smsgw /run/credentials/smsgw.service \
        /etc/systemd/system/smsgw.service /etc/udev/rules.d/99-smsgw-modem.rules /usr/local/bin/smsgw
    if id smsgw >/dev/null 2>&1; then
        # userdel refuses while any process of the user is left, even one that has exited and
        # waits to be reaped (a command run as smsgw a moment ago): wait for them, at most 10 s.
        for _ in $(seq 100); do
            [[ -z "$(find /proc -maxdepth 1 -regex '/proc/[0-9]+' -user smsgw 2>/dev/null)" ]] && break
            sleep 0.1
        done
        deluser --quiet smsgw >/dev/null 2>&1 || userdel smsgw
    fi
    getent group smsgw >/dev/null && groupdel smsgw || true
}
finish() {
    local status=$?
    if ((status != 0)) && [[ -f "$SMSGW_CHECK_STATE/smsgw.journal" ]]; then
        echo "--- the service's stderr:" >&2
        tail -40 "$SMSGW_CHECK_STATE/smsgw.journal" >&2
    fi
    uninstall
    rm -rf "$work"
    exit "$status"
}
trap finish EXIT
uninstall

# The ```sh block that follows `<!-- check-install: NAME -->` in the doc.
block() {
    local text
    text="$(awk -v marker="<!-- check-install: $1 -->" '
        $0 == marker { found = 1; next }
        found && /^```/ { if (inside) exit; inside = 1; next }
        inside { print }' "$doc")"
    [[ -n "$text" ]] || fail "$doc has no block marked check-install: $1"
    printf '%s\n' "$text"
}
# Runs a block of the doc line by line, as an operator pasting it into a root shell would.
run_block() {
    step "docs/OPERATIONS.md, $1:"
    block "$1" | sed 's/^/    /'
    (cd "$repo" && bash -euo pipefail -c "$(block "$1")") || fail "the '$1' steps of $doc failed"
}
# `stat` owner:group mode of a path, e.g. root:smsgw 750.
ownership() { stat -c '%U:%G %a' "$1"; }
expect_ownership() {
    [[ "$(ownership "$1")" == "$2" ]] || fail "$1 is $(ownership "$1"), the doc promises $2"
    echo "ok: $1 $2"
}

run_block install
expect_ownership /etc/smsgw "root:smsgw 750"
expect_ownership /etc/smsgw/smsgw.toml "root:smsgw 640"
expect_ownership /etc/smsgw/passphrase "root:root 400"
expect_ownership /var/lib/smsgw "smsgw:smsgw 700"
expect_ownership /var/lib/smsgw/smsgw.sqlite "smsgw:smsgw 600"

step "a simulated modem with SIM PIN 1234, its port root:dialout 0660 as the udev rule makes it"
install -d -m 0755 -o smsgw -g smsgw "$work/sim"
runuser -u smsgw -- smsgw sim --modems 2 --pin 1234 --dir "$work/sim" >"$work/sim.log" 2>&1 &
simulator=$!
for _ in $(seq 1 200); do [[ -S "$work/sim/control.sock" ]] && break; sleep 0.1; done
[[ -S "$work/sim/control.sock" ]] || fail "the simulator did not start: $(cat "$work/sim.log")"
port="$(readlink -f "$work/sim/modem-1")"
chown root:dialout "$port" && chmod 0660 "$port"
ls -lL "$work/sim/modem-1"

step "the operator's edit: one [[modem]] with its PIN file, made as the doc says"
(cd "$repo" && bash -euo pipefail -c "$(block pin)")
echo 1234 > /etc/smsgw/pin-huawei
expect_ownership /etc/smsgw/pin-huawei "root:smsgw 440"
cat > /etc/smsgw/smsgw.toml <<TOML
data_dir = "/var/lib/smsgw"
log_level = "info"
[intervals]
poll_seconds = 1
health_seconds = 5
[[modem]]
name = "huawei"
device = "$work/sim/modem-1"
connection = "at"
pin_file = "/etc/smsgw/pin-huawei"
TOML
expect_ownership /etc/smsgw/smsgw.toml "root:smsgw 640"

run_block start
pid="$(cat "$SMSGW_CHECK_STATE/smsgw.pid")"

step "the service runs as smsgw, non-dumpable, without the passphrase in its environment"
# A non-dumpable process's /proc files belong to root.
[[ "$(stat -c %U "/proc/$pid/environ")" == root ]] || fail "the daemon (PID $pid) is dumpable: /proc/$pid/environ belongs to $(stat -c %U "/proc/$pid/environ")"
uid="$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")"
[[ "$uid" == "$(id -u smsgw)" ]] || fail "the daemon runs as uid $uid, not smsgw"
passphrase="$(head -1 /etc/smsgw/passphrase)"
if tr '\0' '\n' < "/proc/$pid/environ" | grep -qF -- "$passphrase"; then fail "the passphrase is in the daemon's environment"; fi
echo "ok: PID $pid, user smsgw, non-dumpable, passphrase not in /proc/$pid/environ"

step "the modem becomes ready (status over the socket, as smsgw, no passphrase)"
for _ in $(seq 1 120); do
    grep -q '"state":"ready"' <<<"$(runuser -u smsgw -- smsgw status --data-dir /var/lib/smsgw --json 2>/dev/null)" && break
    sleep 0.5
done
runuser -u smsgw -- smsgw status --data-dir /var/lib/smsgw
ready_status=$(runuser -u smsgw -- smsgw status --data-dir /var/lib/smsgw --json 2>&1) || true
grep -q '"state":"ready"' <<<"$ready_status" || fail "the modem did not become ready under the service: $ready_status"

step "the HTTP API answers on this host's loopback interface (127.0.0.1:8640, the default)"
# The unit must leave the daemon its listener: a unit without AF_INET or with a network of its own
# (PrivateNetwork=, emulated by the stub) makes the service fail, or the API unreachable.
live=""
for _ in $(seq 1 50); do
    live="$(curl -sS --max-time 5 http://127.0.0.1:8640/health/live 2>&1)" && break
    sleep 0.2
done
curl -fsS --max-time 5 http://127.0.0.1:8640/health/live >/dev/null 2>&1 \
    || fail "the service's HTTP API does not answer on 127.0.0.1:8640: $live"
echo "ok: GET http://127.0.0.1:8640/health/live: $live"

step "a second daemon on the same data directory is refused with the first one's PID"
set +e
second="$(runuser -u smsgw -- env SMSGW_PASSPHRASE_FILE=/dev/stdin smsgw serve --config /etc/smsgw/smsgw.toml < /etc/smsgw/passphrase 2>&1)"
status=$?
set -e
echo "$second"
((status == 75)) || fail "a second serve exited $status, not 75"
grep -q "PID $pid" <<<"$second" || fail "the refusal does not name PID $pid"

step "a message sent as the service user goes out through the modem, called by one id everywhere"
as_service() { runuser -u smsgw -- env SMSGW_PASSPHRASE_FILE=/dev/stdin smsgw "$@" --data-dir /var/lib/smsgw < /etc/smsgw/passphrase; }
peer="$work/peer"
as_peer() { SMSGW_PASSPHRASE="a peer passphrase" smsgw "$@" --data-dir "$peer"; }
as_peer init --username bob --kdf-memory 19 --kdf-iterations 2 >/dev/null
code() { sed -n 's/.*"pairingCode":"\([^"]*\)".*/\1/p'; }
ours="$(as_service contact add bob --number +15550002 --json | code)"
theirs="$(as_peer contact add alice --number +15550001 --json | code)"
as_service contact pair bob "$theirs" >/dev/null
as_peer contact pair alice "$ours" >/dev/null
# Sends TEXT to bob as the service user, prints the message's id once the modem sent it.
send_and_wait() {
    local id
    id="$(runuser -u smsgw -- env SMSGW_PASSPHRASE_FILE=/dev/stdin smsgw send --data-dir /var/lib/smsgw bob "$1" < /etc/smsgw/passphrase)"
    [[ "$id" =~ ^[0-9]+$ ]] || fail "send printed '$id', not a message id"
    for _ in $(seq 1 120); do
        as_service log --json | grep "\"id\":$id," | grep -qE '"status":"(sent|delivered)"' && break
        sleep 0.5
    done
    as_service log --json | grep "\"id\":$id," | grep -qE '"status":"(sent|delivered)"' || fail "message $id was not sent"
    echo "$id"
}
id="$(send_and_wait "text")"
grep -q "smsgw.message=$id\b" "$SMSGW_CHECK_STATE/smsgw.journal" || fail "the journal does not call the message smsgw.message=$id"
echo "ok: message $id sent; the journal calls it smsgw.message=$id"

run_block watch

step "root may ask the daemon too, and leaves no file of its own in the data directory"
root_status=$(smsgw status --data-dir /var/lib/smsgw 2>&1) || true
head -1 <<<"$root_status" | grep -q '^Daemon: running' || fail "status as root did not reach the daemon: $root_status"
[[ -z "$(find /var/lib/smsgw -not -user smsgw)" ]] || fail "files not owned by smsgw: $(find /var/lib/smsgw -not -user smsgw)"
echo "ok: status as root answered by the daemon; every file in /var/lib/smsgw is smsgw's"

step "journald lines: a syslog priority, no timestamp of their own, one event per line"
grep -q '^<5>Gateway starting\.' "$SMSGW_CHECK_STATE/smsgw.journal" || fail "no '<5>Gateway starting.' line"
if grep -vE '^<[0-7]>' "$SMSGW_CHECK_STATE/smsgw.journal" | grep -q .; then
    grep -vE '^<[0-7]>' "$SMSGW_CHECK_STATE/smsgw.journal" | head -5
    fail "lines without a priority prefix"
fi
if grep -qE '^<[0-7]>[0-9]{4}-[0-9]{2}-[0-9]{2}T' "$SMSGW_CHECK_STATE/smsgw.journal"; then fail "lines carry their own timestamp"; fi
echo "ok: $(wc -l < "$SMSGW_CHECK_STATE/smsgw.journal") lines, each with a priority and no timestamp"

run_block backup
backup="$(ls /var/backups/smsgw/smsgw-*.sqlite)"
expect_ownership "$backup" "smsgw:smsgw 600"
install -d -m 0700 "$work/restored"
cp "$backup" "$work/restored/smsgw.sqlite"
restored_status=$(SMSGW_PASSPHRASE_FILE=/etc/smsgw/passphrase smsgw status --data-dir "$work/restored" 2>&1) || true
grep -q '^  bob: ' <<<"$restored_status" || fail "the backup does not open as a store with contact bob: $restored_status"
echo "ok: the backup opens as a complete store"

step "restored as the doc says: a text sent after the backup is rewound, texts wait for the resync, whose handshake goes out with a new id"
after="$(send_and_wait "after the backup")"
run_block restore
if as_service log --json | grep -q "\"id\":$after,"; then fail "message $after, sent after the backup, is still in the restored log"; fi
replaced="$(ls /var/lib/smsgw/smsgw.sqlite.replaced-*)"
expect_ownership "$replaced" "smsgw:smsgw 600"
restored_status="$(as_service status 2>&1)" || true
grep -q '^  bob: .*failing' <<<"$restored_status" || fail "bob does not show as needing a resync after the restore: $restored_status"
set +e
refused="$(runuser -u smsgw -- env SMSGW_PASSPHRASE_FILE=/dev/stdin smsgw send --data-dir /var/lib/smsgw bob "after the restore" < /etc/smsgw/passphrase 2>&1)"
status=$?
set -e
((status == 65)) || fail "a text to bob before the resync exited $status, not 65: $refused"
grep -q "restored from a backup" <<<"$refused" || fail "the refusal does not say why: $refused"
outbox_sent() { as_service status --json | sed -n 's/.*"outbox":{[^}]*"sent":\([0-9]*\).*/\1/p'; }
sent_before="$(outbox_sent)"
# The peer here reads nothing, so the handshake stays unanswered; a real resync completes (the doc says so).
restored="$(as_service resync bob | head -1)"
[[ "$restored" =~ ^[0-9]+$ ]] || fail "resync printed '$restored', not a message id"
((restored > after)) || fail "the restored gateway gave message id $restored, already used by the replaced store (up to $after)"
for _ in $(seq 1 120); do (($(outbox_sent) > sent_before)) && break; sleep 0.5; done
(($(outbox_sent) > sent_before)) || fail "the resync handshake did not go out"
expect_ownership /var/lib/smsgw/smsgw.sqlite "smsgw:smsgw 600"
echo "ok: message $after (sent after the backup) gone with the restore, the old store kept in $replaced; a text waits for the resync (exit 65), whose handshake (message $restored) went out"

step "systemctl stop: a graceful shutdown, exit status 0"
systemctl stop smsgw
[[ "$(cat "$SMSGW_CHECK_STATE/smsgw.status")" == 0 ]] || fail "the daemon exited $(cat "$SMSGW_CHECK_STATE/smsgw.status")"
[[ ! -e /var/lib/smsgw/smsgw.serve.sock ]] || fail "the status socket outlived the daemon"
echo "ok: stopped with status 0, socket removed"

step "check-install: the documented install works"
