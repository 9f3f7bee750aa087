#!/usr/bin/env bash
# cli_server_proxy.sh: runs tests/server_proxy.py (the client's address behind a
# trusted proxy, issue 28 item 4) against `chartered serve` over real sockets
# (registered with CTest by the tests/cli_*.sh glob).
# usage: bash cli_server_proxy.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_proxy.py" "$BIN" "$SRC" "$WORK"
