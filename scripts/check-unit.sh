#!/usr/bin/env bash
# Rates the hardening of config/smsgw.service with `systemd-analyze security` (offline: no running
# systemd needed) and fails when the exposure is above the threshold docs/OPERATIONS.md promises,
# or when a setting the document names is missing.
# Usage: scripts/check-unit.sh [THRESHOLD]   (default 3; the unit rates 1.3 with systemd 252)
set -euo pipefail
cd "$(dirname "$0")/.."
threshold="${1:-3}"
report="$(systemd-analyze security --offline=yes config/smsgw.service 2>&1)"
score="$(printf '%s\n' "$report" | sed -n 's/.*Overall exposure level for smsgw.service: \([0-9.]*\).*/\1/p')"
if [[ -z "$score" ]]; then
    printf '%s\n' "$report" >&2
    echo "check-unit: systemd-analyze gave no exposure level for config/smsgw.service." >&2
    exit 1
fi
if ! awk -v score="$score" -v limit="$threshold" 'BEGIN { exit !(score <= limit) }'; then
    printf '%s\n' "$report" | grep -E '✗' >&2
    echo "check-unit: config/smsgw.service rates $score, above $threshold; harden it again." >&2
    exit 1
fi
# What docs/OPERATIONS.md promises beyond the score.
for line in 'Type=notify' 'RestartPreventExitStatus=64 66 77 78' 'LimitCORE=0' 'IPAddressDeny=any' \
    'IPAddressAllow=localhost' 'SystemCallFilter=@system-service' 'CapabilityBoundingSet=' 'UMask=0077'; do
    grep -qxF -- "$line" config/smsgw.service || { echo "check-unit: config/smsgw.service lacks '$line'." >&2; exit 1; }
done
# The daemon serves its HTTP API on 127.0.0.1:8640 unless [http] listen = "off" (the default and
# config/smsgw.toml.example): a unit that takes those sockets or the host's loopback away makes
# the installed service exit 69 at every start, or serve an API nobody on the host can reach.
for family in AF_UNIX AF_INET AF_INET6; do
    grep -qw -- "$family" <<<"$(sed -n 's/^RestrictAddressFamilies=//p' config/smsgw.service)" \
        || { echo "check-unit: config/smsgw.service does not allow $family, which the daemon's HTTP API (127.0.0.1:8640 by default) needs." >&2; exit 1; }
done
if grep -qE '^PrivateNetwork=(yes|true|on|1)$' config/smsgw.service; then
    echo "check-unit: config/smsgw.service sets PrivateNetwork=yes, which hides the daemon's HTTP API (127.0.0.1:8640 by default) from the host." >&2
    exit 1
fi
echo "check-unit: config/smsgw.service rates $score (at most $threshold)."
