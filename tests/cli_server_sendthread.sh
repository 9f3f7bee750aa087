#!/usr/bin/env bash
# cli_server_sendthread.sh: clients that disconnect while the sender thread
# holds their frames; the spectators that stay get every frame in order
# (tests/server_sendthread.py; src/server/net/sender.c). Also in the ASan build.
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_sendthread.py" "$BIN" "$SRC" "$WORK"
