#!/usr/bin/env bash
# cli_server_limits.sh: runs tests/server_limits.py (every limit met, with a clear
# error) against `chartered serve` over real sockets (registered with CTest by the
# tests/cli_*.sh glob).
# usage: bash cli_server_limits.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_limits.py" "$BIN" "$SRC" "$WORK"
