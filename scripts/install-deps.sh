#!/usr/bin/env bash
# install-deps.sh: install the Debian packages chartered needs to build and test,
# on a fresh Debian 12 machine as root. Installs only what is missing.
set -euo pipefail

PKGS=(build-essential cmake pkg-config clang libjansson-dev libcmocka-dev tmux python3
      librsvg2-bin
      libwebsockets-dev libsqlite3-dev
      libev-dev libwebsockets-evlib-ev
      libsodium-dev
      libcurl4-openssl-dev python3-aiosmtpd
      libpq-dev postgresql
      haproxy
      python3-websockets
      libclang-rt-14-dev
      python3-cffi python3-numpy
      dpkg-dev file man-db systemd)
# The browser tests (tests/web): Debian's chromium, a Japanese font for its
# screenshots, and node + npm unless node is already there (it may come from elsewhere).
PKGS+=(chromium fonts-ipafont-gothic)
# The web client's typeface: web/fonts/ holds Latin subsets of EB Garamond cut
# from this package with fontTools (web/fonts/README.md says how to cut them again).
PKGS+=(fonts-ebgaramond python3-fonttools python3-brotli)
# Tests only (not a dependency of the package): promtool, from Prometheus, checks the
# server's GET /metrics text (tests/server_metrics.py).
PKGS+=(prometheus)
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then PKGS+=(nodejs npm); fi
missing=()
for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
    echo "all build dependencies are installed"
fi
