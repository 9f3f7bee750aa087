#!/usr/bin/env bash
# cli_server_backup.sh: runs tests/server_backup.py (`chartered backup` of a
# server's database under load, `chartered restore`, the games resumed with
# every acknowledged move) against `chartered serve` over real sockets
# (registered with CTest by the tests/cli_*.sh glob).
# usage: bash cli_server_backup.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_backup.py" "$BIN" "$SRC" "$WORK"
