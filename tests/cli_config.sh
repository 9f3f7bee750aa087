#!/usr/bin/env bash
# cli_config.sh: runs tests/config_options.py (the one list of serve's
# options: the configuration file, the command line, the environment, and the
# documents checked against the list; issue 35) (registered with CTest by the
# tests/cli_*.sh glob).
# usage: bash cli_config.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/config_options.py" "$BIN" "$SRC" "$WORK"
