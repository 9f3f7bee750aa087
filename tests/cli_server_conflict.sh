#!/usr/bin/env bash
# cli_server_conflict.sh: runs tests/server_conflict.py (a second writer of move N
# of a game is refused: the moves' primary key) against `chartered serve` over
# real sockets (registered with CTest by the tests/cli_*.sh glob, and again
# with PostgreSQL as pg_server_conflict).
# usage: bash cli_server_conflict.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_conflict.py" "$BIN" "$SRC" "$WORK"
