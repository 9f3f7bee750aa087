#!/usr/bin/env bash
# cli_server_reasons.sh: runs tests/server_reasons.py against `chartered serve`
# over real sockets: refusals in each client's language (registered with
# CTest by the tests/cli_*.sh glob).
# usage: bash cli_server_reasons.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_reasons.py" "$BIN" "$SRC" "$WORK"
