#!/usr/bin/env bash
# storage_backends.sh: durable moves/s and latency of one `chartered serve` with
# SQLite against PostgreSQL (issue 17; docs/performance.md "SQLite against
# PostgreSQL"), at 2,000 games x 4 connections with bench/loadgen. PostgreSQL is
# a private one (tests/support/pgtmp.py: initdb in a temporary folder, a Unix
# socket, fsync on), stopped at the end. Prints the load average before each run.
# usage: bash bench/storage_backends.sh BUILD_DIR [GAMES] [SECONDS] [THINK_MS]
set -euo pipefail
BUILD=$(cd "$1" && pwd)
GAMES=${2:-2000}
SECS=${3:-20}
THINK=${4:-390}
SRC=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/chbench-XXXXXX)
chmod 755 "$WORK" # PostgreSQL runs as another user when this runs as root (pgtmp.py)
PGDIR="$WORK/pg"
SERVER=
cleanup() {
    [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null || true
    python3 "$SRC/tests/support/pgtmp.py" stop "$PGDIR" >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
python3 "$SRC/tests/support/pgtmp.py" start "$PGDIR" >/dev/null
PGURL=$(python3 "$SRC/tests/support/pgtmp.py" url "$PGDIR")

run() { # NAME DB
    local port=$((20000 + RANDOM % 20000))
    echo "== $1: $(uptime)"
    CHARTERED_AUTH_LIMITS=10,200,0 "$BUILD/chartered" serve --port "$port" --host 127.0.0.1 \
        --db "$2" --quiet > "$WORK/$1.out" 2>&1 &
    SERVER=$!
    for _ in $(seq 100); do grep -q "serving on" "$WORK/$1.out" && break; sleep 0.1; done
    "$BUILD/bench/loadgen" --port "$port" --games "$GAMES" --seconds "$SECS" --warmup 5 \
        --think "$THINK" --server-pid "$SERVER"
    kill "$SERVER"; wait "$SERVER" || true
    SERVER=
}
run sqlite "$WORK/lg.db"
run postgresql "$PGURL"
