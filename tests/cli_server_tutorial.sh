#!/usr/bin/env bash
# cli_server_tutorial.sh: runs tests/server_tutorial.py against `chartered serve` over
# real sockets (registered with CTest by the tests/cli_*.sh glob).
# usage: bash cli_server_tutorial.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_tutorial.py" "$BIN" "$SRC" "$WORK"
