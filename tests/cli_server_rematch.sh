#!/usr/bin/env bash
# cli_server_rematch.sh: runs tests/server_rematch.py (rematches asked of each person,
# issue 32) against `chartered serve` over real sockets (registered with CTest
# by the tests/cli_*.sh glob; pg_server_rematch runs it on PostgreSQL).
# usage: bash cli_server_rematch.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_rematch.py" "$BIN" "$SRC" "$WORK"
