#!/usr/bin/env bash
# cli_selfplay.sh: the randomized whole-game requirement of the suite: at
# least 20,000 random games per run (seed 1, players cycling 2..5, every
# built-in arrangement), every invariant checked after every decision and at
# the end of each game, 0 violations expected; plus a small run with
# --check full (JSON round trip and views after every decision).
# Usage: bash tests/cli_selfplay.sh PATH/TO/chartered REPO-ROOT
# CH_SELFPLAY_GAMES overrides the number of games of the big run.
set -euo pipefail

BIN=${1:?usage: cli_selfplay.sh PATH/TO/chartered REPO-ROOT}
GAMES=${CH_SELFPLAY_GAMES:-20000}
JOBS=$(nproc 2>/dev/null || echo 1)

# check_line WHAT LINE GAMES: the JSON totals report GAMES games, 0 violations.
check_line() {
    local what=$1 line=$2 games=$3
    echo "$what: $line"
    case "$line" in
    "{\"games\":$games,"*) ;;
    *) echo "FAIL: $what: expected \"games\":$games" >&2; exit 1 ;;
    esac
    case "$line" in
    *'"violations":0,'*) ;;
    *) echo "FAIL: $what: violations reported" >&2; exit 1 ;;
    esac
    echo "ok: $what: $games games, 0 violations"
}

echo "== selfplay: $GAMES games, seed 1, players 2..5, all arrangements, $JOBS jobs"
LINE=$("$BIN" selfplay --games "$GAMES" --seed 1 --arrangement all --jobs "$JOBS")
check_line "selfplay basic" "$LINE" "$GAMES"

echo "== selfplay --check full: 3 games"
LINE=$("$BIN" selfplay --games 3 --seed 101 --arrangement all --check full --jobs "$JOBS")
check_line "selfplay full" "$LINE" 3

echo "== the totals do not depend on the number of jobs"
A=$("$BIN" selfplay --games 40 --seed 7 --jobs 1 | sed 's/,"seconds":[^,]*//')
B=$("$BIN" selfplay --games 40 --seed 7 --jobs 2 | sed 's/,"seconds":[^,]*//')
[ "$A" = "$B" ] || { echo "FAIL: --jobs 1 gives $A, --jobs 2 gives $B" >&2; exit 1; }
echo "ok: same totals with 1 and 2 jobs"

echo "all cli_selfplay checks passed"
