#!/usr/bin/env bash
# cli_server_challenge.sh: runs tests/server_challenge.py (challenges by name,
# issue 32) against `chartered serve` over real sockets (registered with CTest
# by the tests/cli_*.sh glob; pg_server_challenge runs it on PostgreSQL).
# usage: bash cli_server_challenge.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_challenge.py" "$BIN" "$SRC" "$WORK"
