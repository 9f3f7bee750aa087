#!/usr/bin/env bash
# strength.sh: the bots' strength figures of issue 4, measured with the arena
# (seats rotated, 95% confidence intervals from `chartered arena`):
#   1. greedy against 3 random, 4 players        (target: greedy wins >= 70%)
#   2. ismcts against 3 greedy, 4 players        (target: ismcts wins >= 45%)
#   3. ismcts against greedy, head to head       (target: ismcts wins >= 70%)
# for both editions. A benchmark, not a test: it prints figures and judges
# nothing. The full setting (200 games a figure, ismcts at 1 s a move) takes
# many hours on a small machine; GAMES and ISMCTS choose a smaller run, e.g.
#   GAMES=40 ISMCTS='ismcts:iterations=100' bash bench/strength.sh build/chartered
# A figure can be gathered over several runs with disjoint seeds (game i of a
# run has seed SEED+i); bench/strength-total.py adds them up. The runs the
# docs report are kept under bench/results/ (docs/bots.md, "Strength").
# Environment: GAMES (default 200), ISMCTS (default 'ismcts:time=1'), JOBS
# (default: all cores), OUT (default strength-results), SEED (default 1),
# EDITIONS (default 'amsterdam golden-age'), FIGURES (default '1 2 3').
set -euo pipefail
BIN=${1:-build/chartered}
GAMES=${GAMES:-200}
ISMCTS=${ISMCTS:-ismcts:time=1}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
OUT=${OUT:-strength-results}
SEED=${SEED:-1}
EDITIONS=${EDITIONS:-amsterdam golden-age}
FIGURES=${FIGURES:-1 2 3}

figure() { # figure N EDITION PLAYERS BOT...
    local n=$1 ed=$2 players=$3; shift 3
    local dir="$OUT/$ed-$n" args=()
    for b in "$@"; do args+=(--bot "$b"); done
    local t0=$SECONDS
    "$BIN" arena "${args[@]}" --edition "$ed" --players "$players" --games "$GAMES" \
        --seed "$SEED" --jobs "$JOBS" --quiet --out "$dir" >"$dir.txt" 2>&1 ||
        { echo "arena failed for $dir (see $dir.txt)"; return 1; }
    # the first bot's win rate and its interval, from summary.json
    python3 - "$dir/summary.json" "$ed" "$n" "$((SECONDS - t0))" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
b = s["bots"][0]
lo, hi = b["win_rate_ci"]
print(f"{sys.argv[2]:<11} figure {sys.argv[3]}  {b['bot']:<32} {b['wins']:>4}/{b['seats']:<4} "
      f"{100*b['win_rate']:5.1f}% (95% CI {100*lo:.1f}%-{100*hi:.1f}%)  {sys.argv[4]} s")
PY
}

# Check FIGURES before anything runs: an unknown figure would otherwise be
# skipped silently after hours of the others.
uses_ismcts=
for f in $FIGURES; do
    case $f in
    1) ;;
    2|3) uses_ismcts=1 ;;
    *) echo "strength.sh: unknown figure '$f' in FIGURES (expected 1, 2 or 3)" >&2; exit 2 ;;
    esac
done
mkdir -p "$OUT"
echo "chartered strength: $GAMES games a figure${uses_ismcts:+, $ISMCTS}, $JOBS jobs, seed $SEED"
for ed in $EDITIONS; do
    for f in $FIGURES; do
        case $f in
        1) figure 1 "$ed" 4 greedy random random random ;;
        2) figure 2 "$ed" 4 "$ISMCTS" greedy greedy greedy ;;
        3) figure 3 "$ed" 2 "$ISMCTS" greedy ;;
        esac
    done
done
