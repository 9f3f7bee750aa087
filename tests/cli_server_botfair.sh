#!/usr/bin/env bash
# cli_server_botfair.sh: runs tests/server_botfair.py (games of bots only are
# capped and do not starve a person's bot, issue 28) against `chartered serve`
# over real sockets (registered with CTest by the tests/cli_*.sh glob).
# usage: bash cli_server_botfair.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_botfair.py" "$BIN" "$SRC" "$WORK"
