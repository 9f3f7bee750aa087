#!/usr/bin/env bash
# cli_server_refused.sh: runs tests/server_refused.py (a move the database
# refused is never shown, issue 28 item 3) against `chartered serve` over real
# sockets (registered with CTest by the tests/cli_*.sh glob; pg_server_refused
# runs it on PostgreSQL).
# usage: bash cli_server_refused.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_refused.py" "$BIN" "$SRC" "$WORK"
