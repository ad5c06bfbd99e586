#!/usr/bin/env bash
# Rates the hardening of config/smsgw.service with `systemd-analyze security` (offline: no running
# systemd needed) and fails when the exposure is above the threshold docs/OPERATIONS.md promises,
# or when a setting the document names is missing.
# Usage: scripts/check-unit.sh [THRESHOLD]   (default 3; the unit rates 0.6 with systemd 252)
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
for line in 'Type=notify' 'RestartPreventExitStatus=64 66 77 78' 'LimitCORE=0' 'PrivateNetwork=yes' \
    'RestrictAddressFamilies=AF_UNIX' 'SystemCallFilter=@system-service' 'CapabilityBoundingSet=' 'UMask=0077'; do
    grep -qxF -- "$line" config/smsgw.service || { echo "check-unit: config/smsgw.service lacks '$line'." >&2; exit 1; }
done
echo "check-unit: config/smsgw.service rates $score (at most $threshold)."
