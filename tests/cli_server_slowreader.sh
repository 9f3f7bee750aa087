#!/usr/bin/env bash
# cli_server_slowreader.sh: frames written at once and frames that waited for
# a writable socket arrive whole and in order at a client that reads slowly
# (tests/server_slowreader.py; src/server/api/ws_session.c, srv_ws_flush).
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_slowreader.py" "$BIN" "$SRC" "$WORK"
