#!/usr/bin/env bash
# cli_selfplay.sh: the randomized whole-game requirement of the suite, for
# both editions: at least 20,000 random games of Building Amsterdam (seed 1,
# players cycling 2..5, every built-in arrangement) and 10,000 of The Golden
# Age (seed 1, players cycling 2..6, both presets, event cards on and off,
# each game on its preset's side), every invariant checked after every
# decision and at the end of each game, 0 violations expected; plus small
# runs with --check full (JSON round trip and views after every decision)
# of each edition, one run alternating the editions, and a check that the
# totals do not depend on the number of jobs.
# Usage: bash tests/cli_selfplay.sh PATH/TO/chartered REPO-ROOT
# CH_SELFPLAY_GAMES overrides the number of Building Amsterdam games of the
# big run, CH_SELFPLAY_GA_GAMES the number of Golden Age games.
set -euo pipefail

BIN=${1:?usage: cli_selfplay.sh PATH/TO/chartered REPO-ROOT}
GAMES=${CH_SELFPLAY_GAMES:-20000}
GA_GAMES=${CH_SELFPLAY_GA_GAMES:-10000}
JOBS=$(nproc 2>/dev/null || echo 1)
START=$(date +%s)

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
# has WHAT LINE PATTERN: the totals line matches PATTERN (grep -E).
has() {
    printf '%s\n' "$2" | grep -Eq -- "$3" || {
        echo "FAIL: $1: the totals do not match /$3/" >&2
        exit 1
    }
}

echo "== selfplay: $GAMES Building Amsterdam games, seed 1, players 2..5, all arrangements, $JOBS jobs"
T0=$(date +%s)
LINE=$("$BIN" selfplay --games "$GAMES" --seed 1 --arrangement all --jobs "$JOBS")
check_line "selfplay amsterdam" "$LINE" "$GAMES"
has "selfplay amsterdam" "$LINE" '"edition":"amsterdam"'
echo "   ($(( $(date +%s) - T0 )) s)"

echo "== selfplay: $GA_GAMES Golden Age games, seed 1, players 2..6, both presets, events on and off, $JOBS jobs"
T0=$(date +%s)
LINE=$("$BIN" selfplay --edition golden-age --games "$GA_GAMES" --seed 1 --jobs "$JOBS")
check_line "selfplay golden-age" "$LINE" "$GA_GAMES"
has "selfplay golden-age" "$LINE" '"wins_by_seat":\[[0-9]+(,[0-9]+){5}\]'
if [ "$GA_GAMES" -ge 40 ]; then
    # the features of The Golden Age came up: foundings with their free
    # warehouses, flags, mergers, stock-sale events, the forced option
    has "selfplay golden-age" "$LINE" '"free":[1-9]'
    has "selfplay golden-age" "$LINE" '"flag":[1-9]'
    has "selfplay golden-age" "$LINE" '"merge":[1-9]'
    has "selfplay golden-age" "$LINE" '"event-sell":[1-9]'
    has "selfplay golden-age" "$LINE" '"events_drawn":[1-9]'
fi
echo "   ($(( $(date +%s) - T0 )) s)"

echo "== selfplay --check full: 3 Building Amsterdam games"
LINE=$("$BIN" selfplay --games 3 --seed 101 --arrangement all --check full --jobs "$JOBS")
check_line "selfplay full amsterdam" "$LINE" 3

echo "== selfplay --check full: 10 Golden Age games (players 2..6, both presets, events on)"
T0=$(date +%s)
LINE=$("$BIN" selfplay --edition golden-age --events on --games 10 --seed 1001 --check full --jobs "$JOBS")
check_line "selfplay full golden-age" "$LINE" 10
echo "   ($(( $(date +%s) - T0 )) s)"

echo "== selfplay --edition all: 48 games alternating the editions"
LINE=$("$BIN" selfplay --edition all --arrangement all --games 48 --seed 5 --jobs "$JOBS")
check_line "selfplay all" "$LINE" 48
has "selfplay all" "$LINE" '"amsterdam":\{"games":24,'
has "selfplay all" "$LINE" '"golden-age":\{"games":24,'

echo "== the totals do not depend on the number of jobs"
A=$("$BIN" selfplay --edition all --games 40 --seed 7 --jobs 1 | sed 's/,"seconds":[^,]*//')
B=$("$BIN" selfplay --edition all --games 40 --seed 7 --jobs 2 | sed 's/,"seconds":[^,]*//')
[ "$A" = "$B" ] || { echo "FAIL: --jobs 1 gives $A, --jobs 2 gives $B" >&2; exit 1; }
echo "ok: same totals with 1 and 2 jobs"

echo "all cli_selfplay checks passed ($(( $(date +%s) - START )) s)"
