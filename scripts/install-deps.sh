#!/usr/bin/env bash
# install-deps.sh: install the Debian packages chartered needs to build and test,
# on a fresh Debian 12 machine as root. Installs only what is missing.
set -euo pipefail

PKGS=(build-essential cmake pkg-config clang libjansson-dev libcmocka-dev tmux python3)
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
