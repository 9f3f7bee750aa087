#!/usr/bin/env bash
# cli_server_deltas.sh: state frames as deltas over real sockets
# (tests/server_deltas.py; docs/protocol.md, "Frames as deltas").
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_deltas.py" "$BIN" "$SRC" "$WORK"
