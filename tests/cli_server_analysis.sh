#!/usr/bin/env bash
# cli_server_analysis.sh: runs tests/server_analysis.py (a finished game's
# analysis on demand and hints, issue 33) against `chartered serve` over real
# sockets (registered with CTest by the tests/cli_*.sh glob; on PostgreSQL the
# analyses' rows are tested by tests/cluster_analysis.py, which keeps the added
# test time small).
# usage: bash cli_server_analysis.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_analysis.py" "$BIN" "$SRC" "$WORK"
