#!/usr/bin/env bash
# scaling.sh: the scaling curves of docs/performance.md, printed as tables.
#   1. engine cost against player count: `chartered bench` (random playouts,
#      one thread) for Building Amsterdam with 2-5 players and The Golden Age
#      with 2-6, in decisions and games per CPU second, decisions per game and
#      nanoseconds of CPU per decision;
#   2. ISMCTS iterations against threads: `bench_ismcts --threads-curve`
#      (root-parallel trees, one middle position per edition).
# A benchmark, not a test: it prints figures and judges nothing. CPU time is
# used where the tools report it, so other programs on a shared machine
# disturb the engine figures less than the wall clock would; the ISMCTS curve
# is in wall-clock iterations per second (a search has a wall-clock budget),
# so it shows what the machine's free cores allow.
# Usage: bash bench/scaling.sh [BUILD_DIR]   (default build)
# Environment: SECONDS_PER (default 3; seconds per engine measurement),
# ISMCTS_SECONDS (default 2), THREADS (default 4; the largest thread count),
# PLAYOUT (default fast; greedy, fast or random), SKIP (engine or ismcts).
set -euo pipefail
BUILD=${1:-build}
SECONDS_PER=${SECONDS_PER:-3}
ISMCTS_SECONDS=${ISMCTS_SECONDS:-2}
THREADS=${THREADS:-4}
PLAYOUT=${PLAYOUT:-fast}
SKIP=${SKIP:-}
BIN="$BUILD/chartered"
BENCH="$BUILD/bench/bench_ismcts"
for f in "$BIN" "$BENCH"; do
    [ -x "$f" ] || { echo "scaling.sh: $f is missing (build the project first)" >&2; exit 2; }
done

if [ "$SKIP" != engine ]; then
    echo "1. Engine cost against player count ($BIN bench --seconds $SECONDS_PER --players N, one thread)"
    printf '%-18s %7s | %12s %10s %11s %12s %8s\n' edition players "dec/CPU-s" "ns/dec" "dec/game" "games/CPU-s" "allocs"
    for ed in amsterdam golden-age; do
        max=5
        [ "$ed" = golden-age ] && max=6
        for np in $(seq 2 "$max"); do
            "$BIN" bench --edition "$ed" --players "$np" --seconds "$SECONDS_PER" --json |
                python3 -c '
import json, sys
r = json.load(sys.stdin)
ed = "Building Amsterdam" if r["edition"] == "amsterdam" else "The Golden Age"
d = r["decisions_per_cpu_second"]
a = r["allocations_per_game"]
alloc = "n/a" if a is None else "%.2f" % a
print("%-18s %7d | %12s %10.0f %11.1f %12s %8s" % (ed, r["players"], format(round(d), ","),
      1e9 / d if d else 0, r["avg_decisions"], format(round(r["games_per_cpu_second"]), ","), alloc))'
        done
    done
    echo
fi

if [ "$SKIP" != ismcts ]; then
    echo "2. ISMCTS iterations against threads ($BENCH --threads-curve $THREADS --playout $PLAYOUT --seconds $ISMCTS_SECONDS)"
    "$BENCH" --threads-curve "$THREADS" --playout "$PLAYOUT" --seconds "$ISMCTS_SECONDS"
fi
