#!/usr/bin/env bash
# A tour of smsgw without hardware: two people, alice and bob, each with their own data directory,
# pair, and exchange encrypted SMS: by copy and paste, then over the simulated GSM network through
# libgammu (the gammu CLI drives the simulated modems exactly as it would drive a USB stick), then
# through two gateway daemons (`smsgw serve`), one per side, each driving its own simulated modem;
# one text goes with curl to alice's HTTP API and arrives decrypted at bob's webhook receiver. It
# ends with alice's web console: its address and an operator to sign in as (on a terminal the
# demo then waits for Enter before it stops the daemons).
#   scripts/demo.sh            (after `swift build -c release`, or set SMSGW to a built binary)
# Headings are bold only on a terminal and when NO_COLOR is unset or empty (https://no-color.org).
set -euo pipefail
cd "$(dirname "$0")/.."
SMSGW=${SMSGW:-$(swift build -c release --show-bin-path)/smsgw}
[ -x "$SMSGW" ] || { echo "build first: swift build -c release" >&2; exit 1; }
work=$(mktemp -d)
sim=""; alice_daemon=""; bob_daemon=""; receiver=""
cleanup() {
    for pid in $alice_daemon $bob_daemon $receiver; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in $alice_daemon $bob_daemon $receiver; do wait "$pid" 2>/dev/null || true; done
    [ -n "$sim" ] && kill "$sim" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
export SMSGW_PASSPHRASE="correct horse battery staple"
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold="" plain=""; fi
say() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }

say "1. Each side creates its account (the passphrase protects the keys; Argon2id)"
"$SMSGW" --data-dir "$work/alice" init --username alice
"$SMSGW" --data-dir "$work/bob" init --username bob

say "2. Each adds the other and reads its pairing code aloud"
alice_code=$("$SMSGW" --data-dir "$work/alice" contact add bob --number +15550002 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pairingCode"])')
bob_code=$("$SMSGW" --data-dir "$work/bob" contact add alice --number +15550001 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pairingCode"])')
echo "alice shows $alice_code, bob shows $bob_code"

say "3. Each enters the other's code (on stdin, never on the command line); the safety codes must match"
printf '%s\n' "$bob_code" | "$SMSGW" --data-dir "$work/alice" contact pair bob
printf '%s\n' "$alice_code" | "$SMSGW" --data-dir "$work/bob" contact pair alice

say "4. Copy and paste: alice encrypts, bob decrypts"
text="Meet at the north gate at 6. Bring the {blue} map & 20€."
ciphertext=$(printf '%s\n' "$text" | "$SMSGW" --data-dir "$work/alice" encrypt bob)
echo "ciphertext (${#ciphertext} characters): $ciphertext"
printf '%s\n' "$ciphertext" | "$SMSGW" --data-dir "$work/bob" decrypt alice

say "5. The same over SMS: a simulated network of two AT modems, driven by libgammu"
"$SMSGW" sim --modems 2 --dir "$work/sim" > "$work/sim.out" 2>&1 &
sim=$!
for _ in $(seq 50); do [ -S "$work/sim/control.sock" ] && break; sleep 0.2; done
cat "$work/sim.out"
reply=$(echo "Copy that. North gate, 6 o'clock." | "$SMSGW" --data-dir "$work/bob" encrypt alice)
gammu -c "$work/sim/gammurc-2" sendsms TEXT +15550001 -text "$reply" 2>&1 | tail -1
sleep 1
received=$(gammu -c "$work/sim/gammurc-1" getallsms 2>/dev/null | sed -n '/^$/,$p' | grep -v '^$' | grep -vE '^(Location|SMS message|SMSC|Sent|Coding|Remote|Status|[0-9]+ SMS parts)' | head -1)
echo "modem +15550001 received ${#received} characters"
printf '%s\n' "$received" | "$SMSGW" --data-dir "$work/alice" decrypt bob
gammu -c "$work/sim/gammurc-1" deleteallsms 1 >/dev/null 2>&1 || true

say "6. Two gateways: each side runs \`smsgw serve\` on its modem; \`smsgw send\` queues, the daemons do the rest"
for side in alice:1 bob:2; do
    name=${side%%:*}; index=${side##*:}
    # Each daemon's HTTP API on a free loopback port: two daemons on one machine cannot share 8640.
    printf '[http]\nlisten = "127.0.0.1:0"\n[[modem]]\nname = "%s-modem"\ngammurc = "%s"\n' "$name" "$work/sim/gammurc-$index" > "$work/$name.toml"
done
# Bob's gateway also pushes what happens to a webhook: the example receiver, which checks every signature.
secret="whsec_$(python3 -c 'import base64, os; print(base64.b64encode(os.urandom(32)).decode())')"
python3 examples/webhook-receiver.py --port 0 --port-file "$work/receiver.port" --output "$work/webhooks.jsonl" --secret "$secret" 2>/dev/null &
receiver=$!
for _ in $(seq 50); do [ -s "$work/receiver.port" ] && break; sleep 0.1; done
# Alice's gateway also takes texts over its HTTP API: a token that may send, shown once.
api_token=$("$SMSGW" --data-dir "$work/alice" api token create demo --scope send --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
"$SMSGW" --data-dir "$work/alice" serve --config "$work/alice.toml" > "$work/alice-daemon.log" 2>&1 &
alice_daemon=$!
SMSGW_WEBHOOK_1_URL="http://127.0.0.1:$(cat "$work/receiver.port")/smsgw" SMSGW_WEBHOOK_1_SECRET="$secret" \
    SMSGW_WEBHOOK_1_EVENTS=message.received SMSGW_WEBHOOK_1_INCLUDE_TEXT=true \
    "$SMSGW" --data-dir "$work/bob" serve --config "$work/bob.toml" > "$work/bob-daemon.log" 2>&1 &
bob_daemon=$!
echo "Gate is clear. Over to you, through two gateways." | "$SMSGW" --data-dir "$work/alice" send bob
echo "Received. Heading out now [ETA 10 min]." | "$SMSGW" --data-dir "$work/bob" send alice
# A text longer than one SMS goes as parts, each sealed at its own position; bob's gateway shows it once whole.
report="Field report: the north road is open to the second bridge; the bridge holds one vehicle at a time. Water and fuel at the depot for three days. The radio mast on the ridge is down, so SMS only until it is repaired. Next report at 18:00."
printf '%s\n' "$report" | "$SMSGW" --data-dir "$work/alice" send bob
# And one as another program would send it: curl to alice's HTTP API (its address is in her daemon's log).
alice_api=""
for _ in $(seq 100); do
    alice_api=$(grep -o 'smsgw.address=http://[0-9.:]*' "$work/alice-daemon.log" | head -1 | cut -d= -f2 || true)
    [ -n "$alice_api" ] && break
    sleep 0.1
done
curl -sS -X POST "$alice_api/v1/messages" -H "Authorization: Bearer $api_token" -H "Content-Type: application/json" \
    -d '{"contact": "bob", "text": "Sent with curl through the HTTP API: the convoy leaves at 7."}' | python3 -c 'import json,sys; m=json.load(sys.stdin); print("POST /v1/messages:", m["state"], "message", m["id"])'
echo "waiting for the messages to arrive (each daemon first connects to its modem, about 5 s)…"
for _ in $(seq 90); do
    a=$("$SMSGW" --data-dir "$work/alice" log --json | grep -c '"decrypted"' || true)
    b=$("$SMSGW" --data-dir "$work/bob" log --json | grep -c '"decrypted"' || true)
    [ "$a" -ge 2 ] && [ "$b" -ge 4 ] && break
    sleep 1
done
"$SMSGW" --data-dir "$work/alice" status

say "7. The message log on each side"
echo "alice:"; "$SMSGW" --data-dir "$work/alice" log
echo "bob:";   "$SMSGW" --data-dir "$work/bob" log

say "8. Bob's webhook: each decrypted message arrived as a signed event (examples/webhook-receiver.py)"
for _ in $(seq 50); do [ "$(grep -c '"status": 200' "$work/webhooks.jsonl" 2>/dev/null || true)" -ge 3 ] && break; sleep 0.1; done
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    request = json.loads(line)
    event = request.get("event") or {}
    message = event.get("data", {}).get("message", {})
    print(request["status"], request["webhookId"], "signature ok" if request["verified"] else "BAD SIGNATURE", event.get("type"), message.get("contact"), repr(message.get("text")))
' "$work/webhooks.jsonl"

say "9. The web console: alice's gateway serves it; sign in as an operator"
# An admin for the console, separate from the data passphrase, with a random password made for this demo.
console_password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(15))')
printf '%s\n' "$console_password" | "$SMSGW" --data-dir "$work/alice" operator add chief --role admin
console=$(sed -n 's|^Console on \(http://[^ ]*\).*|\1|p' "$work/alice-daemon.log" | head -1)
echo "Console: $console"
echo "Sign in as chief with the password $console_password"
echo "(made for this demo by \`smsgw operator add chief --role admin\`; it ends with the demo)"
if [ -t 0 ] && [ -t 1 ]; then
    read -r -p "Press Enter to stop the daemons and remove the demo's files. " _ || true
fi
