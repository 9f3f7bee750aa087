#!/usr/bin/env bash
# instructions.sh: the engine's cost in instructions, which unlike seconds do
# not depend on what else runs on the machine. Runs `chartered bench --games G`
# (random 4-player playouts, one thread, fixed seeds) under valgrind's
# callgrind and prints instructions per decision and per game for each
# edition. Two builds can be compared side by side: the same seeds give the
# same games, so the decision counts must agree (the script says when not).
# Two figures per decision: all the process's instructions (start-up included:
# the dynamic linker, parsing the built-in boards; about 15 M instructions
# whatever the games), and those of the games alone (cmd_bench's own loop and
# what it calls, from callgrind's inclusive count), which is what
# `chartered bench --seconds` rates measure.
# A benchmark, not a test: it prints figures and judges nothing.
# Usage: bash bench/instructions.sh BIN [BIN2 ...]   (e.g. build/chartered)
# Environment: GAMES (default 300), PLAYERS (default 4).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bash bench/instructions.sh BIN [BIN2 ...]" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }
GAMES=${GAMES:-300}
PLAYERS=${PLAYERS:-4}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-32s %-11s %9s %10s %12s %14s %14s\n' binary edition games decisions "instr/dec" "instr/game" "games:instr/dec"
for ed in amsterdam golden-age; do
    for bin in "$@"; do
        # builds that time state copies after the games: not counted here
        copies=()
        "$bin" bench --help 2>&1 | grep -q -- --copies && copies=(--copies 0)
        valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bin" bench --edition "$ed" \
            --players "$PLAYERS" --games "$GAMES" "${copies[@]}" --json >"$tmp/json" 2>"$tmp/log"
        ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log")
        # the games alone: cmd_bench's inclusive count (0 when the binary has no symbols)
        inner=$(callgrind_annotate --inclusive=yes "$tmp/out" 2>/dev/null |
                sed -n 's/^ *\([0-9,]*\) .*:cmd_bench .*/\1/p' | head -1 | tr -d ,)
        python3 - "$bin" "$ed" "$GAMES" "$ir" "$tmp/json" "${inner:-0}" <<'PY'
import json, sys
bin_, ed, games, ir, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
inner = int(sys.argv[6])
d = json.load(open(path))["decisions"]
print("%-32s %-11s %9d %10d %12.0f %14.0f %14s" % (bin_[-32:], ed, games, d, ir / d, ir / games,
      "%.0f" % (inner / d) if inner else "n/a"))
PY
    done
done
