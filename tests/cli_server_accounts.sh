#!/usr/bin/env bash
# cli_server_accounts.sh: runs tests/server_accounts.py (password change, the
# list of one's sessions, guest names, a guest's seats carried into its new
# account, expired sessions deleted) against `chartered serve` over real
# sockets (registered with CTest by the tests/cli_*.sh glob).
# usage: bash cli_server_accounts.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_accounts.py" "$BIN" "$SRC" "$WORK"
