#!/usr/bin/env bash
# A tour of smsgw without hardware: two people, alice and bob, each with their own data directory,
# pair, and exchange encrypted SMS: by copy and paste, then over the simulated GSM network through
# libgammu (the gammu CLI drives the simulated modems exactly as it would drive a USB stick), then
# through two gateway daemons (`smsgw serve`), one per side, each driving its own simulated modem.
#   scripts/demo.sh            (after `swift build -c release`, or set SMSGW to a built binary)
set -euo pipefail
cd "$(dirname "$0")/.."
SMSGW=${SMSGW:-$(swift build -c release --show-bin-path)/smsgw}
[ -x "$SMSGW" ] || { echo "build first: swift build -c release" >&2; exit 1; }
work=$(mktemp -d)
sim=""; alice_daemon=""; bob_daemon=""
cleanup() {
    for pid in $alice_daemon $bob_daemon; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in $alice_daemon $bob_daemon; do wait "$pid" 2>/dev/null || true; done
    [ -n "$sim" ] && kill "$sim" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
export SMSGW_PASSPHRASE="correct horse battery staple"
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

say "1. Each side creates its account (the passphrase protects the keys; Argon2id)"
"$SMSGW" init --data-dir "$work/alice" --username alice
"$SMSGW" init --data-dir "$work/bob" --username bob

say "2. Each adds the other and reads its pairing code aloud"
alice_code=$("$SMSGW" contact add --data-dir "$work/alice" bob --number +15550002 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pairingCode"])')
bob_code=$("$SMSGW" contact add --data-dir "$work/bob" alice --number +15550001 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pairingCode"])')
echo "alice shows $alice_code, bob shows $bob_code"

say "3. Each enters the other's code; the safety codes must match"
"$SMSGW" contact pair --data-dir "$work/alice" bob "$bob_code"
"$SMSGW" contact pair --data-dir "$work/bob" alice "$alice_code"

say "4. Copy and paste: alice encrypts, bob decrypts"
text="Meet at the north gate at 6. Bring the {blue} map & 20€."
ciphertext=$("$SMSGW" encrypt --data-dir "$work/alice" bob "$text")
echo "ciphertext (${#ciphertext} characters): $ciphertext"
"$SMSGW" decrypt --data-dir "$work/bob" alice "$ciphertext"

say "5. The same over SMS: a simulated network of two AT modems, driven by libgammu"
"$SMSGW" sim --modems 2 --dir "$work/sim" > "$work/sim.out" 2>&1 &
sim=$!
for _ in $(seq 50); do [ -S "$work/sim/control.sock" ] && break; sleep 0.2; done
cat "$work/sim.out"
reply=$("$SMSGW" encrypt --data-dir "$work/bob" alice "Copy that. North gate, 6 o'clock.")
gammu -c "$work/sim/gammurc-2" sendsms TEXT +15550001 -text "$reply" 2>&1 | tail -1
sleep 1
received=$(gammu -c "$work/sim/gammurc-1" getallsms 2>/dev/null | sed -n '/^$/,$p' | grep -v '^$' | grep -vE '^(Location|SMS message|SMSC|Sent|Coding|Remote|Status|[0-9]+ SMS parts)' | head -1)
echo "modem +15550001 received ${#received} characters"
"$SMSGW" decrypt --data-dir "$work/alice" bob "$received"
gammu -c "$work/sim/gammurc-1" deleteallsms 1 >/dev/null 2>&1 || true

say "6. Two gateways: each side runs \`smsgw serve\` on its modem; \`smsgw send\` queues, the daemons do the rest"
for side in alice:1 bob:2; do
    name=${side%%:*}; index=${side##*:}
    printf '[[modem]]\nname = "%s-modem"\ngammurc = "%s"\n' "$name" "$work/sim/gammurc-$index" > "$work/$name.toml"
done
"$SMSGW" serve --data-dir "$work/alice" --config "$work/alice.toml" > "$work/alice-daemon.log" 2>&1 &
alice_daemon=$!
"$SMSGW" serve --data-dir "$work/bob" --config "$work/bob.toml" > "$work/bob-daemon.log" 2>&1 &
bob_daemon=$!
"$SMSGW" send --data-dir "$work/alice" bob "Gate is clear. Over to you, through two gateways."
"$SMSGW" send --data-dir "$work/bob" alice "Received. Heading out now [ETA 10 min]."
echo "waiting for both messages to arrive (each daemon first connects to its modem, about 5 s)…"
for _ in $(seq 90); do
    a=$("$SMSGW" log --data-dir "$work/alice" --json | grep -c '"decrypted"' || true)
    b=$("$SMSGW" log --data-dir "$work/bob" --json | grep -c '"decrypted"' || true)
    [ "$a" -ge 2 ] && [ "$b" -ge 2 ] && break
    sleep 1
done
"$SMSGW" status --data-dir "$work/alice"

say "7. The message log on each side"
echo "alice:"; "$SMSGW" log --data-dir "$work/alice"
echo "bob:";   "$SMSGW" log --data-dir "$work/bob"
