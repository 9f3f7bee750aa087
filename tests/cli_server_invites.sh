#!/usr/bin/env bash
# cli_server_invites.sh: runs tests/server_invites.py (a reserved seat's invite
# link given again to the game's creator, and replaced; issue 28 item 7) against
# `chartered serve` over real sockets (registered with CTest by the
# tests/cli_*.sh glob).
# usage: bash cli_server_invites.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_invites.py" "$BIN" "$SRC" "$WORK"
