#!/usr/bin/env bash
# cli_server_mail.sh: runs tests/server_mail.py (e-mail through an SMTP server on
# loopback, issue 32) against `chartered serve` over real sockets (registered
# with CTest by the tests/cli_*.sh glob; pg_server_mail runs it on PostgreSQL).
# usage: bash cli_server_mail.sh BINARY SRCDIR
set -euo pipefail
BIN=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
python3 "$SRC/tests/server_mail.py" "$BIN" "$SRC" "$WORK"
