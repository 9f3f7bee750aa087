#!/usr/bin/env bash
# server_instructions.sh: the game server's cost per move in instructions,
# which unlike CPU seconds does not depend on what else runs on the machine.
# Starts `chartered serve` (SQLite, --sync full, a fresh database) under
# valgrind's callgrind, plays bench/loadgen against it (GAMES games x 4
# clients, each answering at a random 0-780 ms), zeroes the counts once the
# clients play, dumps them SECONDS later, and prints the instructions of
# every server thread (event loop, view workers, writer) per move stored in
# that window (from /api/health's "moves"), then the functions that cost
# most (inclusive), and how often malloc, calloc, realloc and free are called
# per move (bench/heap_calls.py). Under valgrind the server runs some 50 times slower, so
# it serves fewer moves than asked for; the figure is per move all the same.
# A benchmark, not a test: it prints figures and judges nothing.
# Usage: bash bench/server_instructions.sh BUILD_DIR [patch|full]
#   (e.g. build-rel: BUILD_DIR/chartered and BUILD_DIR/bench/loadgen)
# Environment: GAMES (default 100), SECONDS_MEASURED (default 20), PORT (default 19471),
#   KEEP (a file to copy callgrind's dump to, for callgrind_annotate --tree=caller:
#   e.g. how often malloc is called per move, and from where).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bash bench/server_instructions.sh BUILD_DIR [patch|full]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "server_instructions.sh: valgrind is not installed" >&2; exit 2; }
b=$1
frames=${2:-patch}
GAMES=${GAMES:-100}
SECS=${SECONDS_MEASURED:-20}
PORT=${PORT:-19471}
tmp=$(mktemp -d)
pid=
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
CHARTERED_AUTH_LIMITS=10,200,0 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.%p" \
    "$b/chartered" serve --port "$PORT" --host 127.0.0.1 --db "$tmp/lg.db" --quiet --sync full \
    >"$tmp/srv.log" 2>&1 &
pid=$!
for _ in $(seq 300); do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/api/health" && break
    sleep 0.5
done
moves() { curl -s "http://127.0.0.1:$PORT/api/health" | sed 's/.*"moves":\([0-9]*\).*/\1/'; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# the window: from 3 s after every client is connected, SECS long
"$b/bench/loadgen" --port "$PORT" --games "$GAMES" --seconds $((SECS + 6)) --warmup 3 \
    --think 390 --server-pid "$pid" --frames "$frames" >"$tmp/lg.log" 2>&1 &
lg=$!
for _ in $(seq 600); do
    grep -q '^connected' "$tmp/lg.log" && break
    sleep 0.5
done
sleep 3
m0=$(moves)
callgrind_control -z "$pid" >/dev/null 2>&1
sleep "$SECS"
m1=$(moves)
callgrind_control -d "$pid" >/dev/null 2>&1
wait "$lg" || true
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
sed 's/^/loadgen: /' "$tmp/lg.log"
out=$(ls "$tmp"/cg.*.1 2>/dev/null | head -1)
[ -n "$out" ] || { echo "server_instructions.sh: no callgrind dump" >&2; exit 1; }
[ -z "${KEEP:-}" ] || cp "$out" "$KEEP"
ir=$(callgrind_annotate "$out" 2>/dev/null | sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' | tr -d ,)
n=$((m1 - m0))
[ "$n" -gt 0 ] || { echo "server_instructions.sh: no move stored in the window" >&2; exit 1; }
echo "frames: $frames; moves stored in the window: $n; server instructions: $ir; per move: $((ir / n))"
python3 "$(dirname "$0")/heap_calls.py" "$out" "$n" 12 || true
callgrind_annotate --inclusive=yes --threshold=99 "$out" >"$tmp/incl" 2>/dev/null || true
grep -E 'worker|write_doc|srv_json_diff|members|ev_run|srv_state_frame|srv_log_texts|chx_legal_lines|chx_prices_json|srv_play|:writer ' "$tmp/incl" |
    grep -v ' < \| > ' | head -16 |
    awk -v n="$n" '{gsub(",", "", $1); printf "  %10d per move  %s\n", $1 / n, $(NF-1)}' || true
