#!/usr/bin/env bash
# cli_server_replays.sh: runs tests/server_replays.py (replays rebuilt on the
# event loop are bounded, issue 28) against `chartered serve`
# over real sockets (registered with CTest by the tests/cli_*.sh glob).
# usage: bash cli_server_replays.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_replays.py" "$BIN" "$SRC" "$WORK"
