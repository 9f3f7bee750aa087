#!/usr/bin/env bash
# cli_server_metrics.sh: runs tests/server_metrics.py (GET /metrics, the token,
# promtool; issue 35) against `chartered serve` over real sockets (registered
# with CTest by the tests/cli_*.sh glob; pg_server_metrics runs it on PostgreSQL).
# usage: bash cli_server_metrics.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_metrics.py" "$BIN" "$SRC" "$WORK"
