#!/usr/bin/env bash
# cli_server_bids.sh: runs tests/server_bids.py against `chartered serve` over
# real sockets (registered with CTest by the tests/cli_*.sh glob).
# usage: bash cli_server_bids.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_bids.py" "$BIN" "$SRC" "$WORK"
