#!/usr/bin/env bash
# Installs the system packages smsgw builds and tests with (Debian 12). Run as root.
# systemd brings systemd-analyze (scripts/check-unit.sh) and adduser the service user of the
# install steps (scripts/check-install.sh); neither starts anything. chromium and chromium-driver
# run the web console's browser tests (Tests/Browser, driven by selenium from the Swift tests).
# postgresql is the server the store's tests start a throw-away cluster of (TestSupport's
# PostgresCluster), with psql.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
    pkg-config libgammu-dev libargon2-dev libsqlite3-dev \
    gammu oathtool zbar-tools systemd adduser openssl curl chromium chromium-driver postgresql postgresql-client >/dev/null
echo "system packages installed: libgammu-dev libargon2-dev libsqlite3-dev gammu oathtool zbar-tools systemd adduser openssl curl chromium chromium-driver postgresql postgresql-client"
# schemathesis (PyPI) checks the running daemon's HTTP API against docs/openapi.yaml in the tests;
# selenium (PyPI) drives chromium in the console's browser tests.
# A Debian python3 without pip gets it from apt; one that refuses system-wide installs (PEP 668)
# is told this machine is meant for it.
python3 -m pip --version >/dev/null 2>&1 || apt-get install -y -qq --no-install-recommends python3-pip >/dev/null
python3 -m pip install --quiet --disable-pip-version-check schemathesis selenium 2>/dev/null \
    || python3 -m pip install --quiet --disable-pip-version-check --break-system-packages schemathesis selenium
echo "python packages installed: schemathesis selenium"
