#!/usr/bin/env bash
# cli_server_damaged.sh: runs tests/server_damaged.py (the start on a damaged or
# read-only database) against `chartered serve` (registered with CTest by the
# tests/cli_*.sh glob).
# usage: bash cli_server_damaged.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_damaged.py" "$BIN" "$SRC" "$WORK"
