#!/usr/bin/env bash
# cli_server_moderation.sh: runs tests/server_moderation.py (roles, reports,
# bans, mutes, the audit log, `chartered admin` on a live server; issue 35)
# against `chartered serve` over real sockets (registered with CTest by the
# tests/cli_*.sh glob; pg_server_moderation runs it on PostgreSQL).
# usage: bash cli_server_moderation.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_moderation.py" "$BIN" "$SRC" "$WORK"
