#!/usr/bin/env bash
# cli_server_follow.sh: runs tests/server_follow.py (following players,
# issue 32) against `chartered serve` over real sockets (registered with CTest
# by the tests/cli_*.sh glob; pg_server_follow runs it on PostgreSQL).
# usage: bash cli_server_follow.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_follow.py" "$BIN" "$SRC" "$WORK"
