#!/usr/bin/env bash
# cluster_run.sh: runs one cluster test (tests/cluster_*.py: PostgreSQL, nodes
# and HAProxy on loopback) in a fresh work folder, removed at the end;
# registered with CTest by tests/CMakeLists.txt (CH_E2E_TESTS only).
# usage: bash cluster_run.sh SCRIPT BINARY SRCDIR
set -euo pipefail
SCRIPT=$1
BIN=$2
SRC=$3
WORK=$(mktemp -d /tmp/chcl-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
rc=0
python3 "$SCRIPT" "$BIN" "$SRC" "$WORK" || rc=$?
if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
    for f in "$WORK"/*.log; do echo "== $f (last lines)"; tail -n 40 "$f"; done
fi
exit "$rc"
