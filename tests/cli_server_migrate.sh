#!/usr/bin/env bash
# cli_server_migrate.sh: runs tests/server_migrate.py (a database of the old,
# unversioned schema opened and upgraded in place) against `chartered serve`
# (registered with CTest by the tests/cli_*.sh glob).
# usage: bash cli_server_migrate.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_migrate.py" "$BIN" "$SRC" "$WORK"
