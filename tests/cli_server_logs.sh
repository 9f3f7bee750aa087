#!/usr/bin/env bash
# cli_server_logs.sh: runs tests/server_logs.py (the server's one log in each
# --log-format, the access log, no secret written, a line surviving kill -9;
# issue 35) against `chartered serve` over real sockets (registered with CTest
# by the tests/cli_*.sh glob).
# usage: bash cli_server_logs.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_logs.py" "$BIN" "$SRC" "$WORK"
