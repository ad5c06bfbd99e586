#!/usr/bin/env bash
# Installs the system packages smsgw builds and tests with (Debian 12). Run as root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends \
    pkg-config libgammu-dev libargon2-dev libsqlite3-dev \
    gammu oathtool zbar-tools >/dev/null
echo "system packages installed: libgammu-dev libargon2-dev libsqlite3-dev gammu oathtool zbar-tools"
