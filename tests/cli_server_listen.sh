#!/usr/bin/env bash
# cli_server_listen.sh: runs tests/server_listen.py (`--host` listens on exactly
# the address given) against `chartered serve` over real sockets (registered
# with CTest by the tests/cli_*.sh glob).
# usage: bash cli_server_listen.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_listen.py" "$BIN" "$SRC" "$WORK"
