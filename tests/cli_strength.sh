#!/usr/bin/env bash
# cli_strength.sh: the strength benchmark's scripts on a tiny run.
# bench/strength.sh runs a figure through `chartered arena` and prints the
# first bot's win rate; bench/strength-total.py adds up runs with disjoint
# seeds (how the issue's 200-game figures are gathered over several runs),
# and refuses runs whose seeds overlap, since a deal must not count twice.
# Usage: bash tests/cli_strength.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail

BIN=${1:?usage: cli_strength.sh PATH/TO/chartered REPO-ROOT}
ROOT=${2:?usage: cli_strength.sh PATH/TO/chartered REPO-ROOT}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }
command -v python3 >/dev/null || fail "python3 is needed (scripts/install-deps.sh installs it)"

# two runs of figure 1 (greedy against 3 random), 8 games each, seeds 1..8 and 9..16
for seed in 1 9; do
    OUT="$TMP/runs/seed-$seed" SEED=$seed GAMES=8 JOBS=2 FIGURES=1 EDITIONS=amsterdam \
        bash "$ROOT/bench/strength.sh" "$BIN" >"$TMP/out-$seed" 2>&1 ||
        { cat "$TMP/out-$seed" >&2; fail "strength.sh with seed $seed"; }
    grep -Eq '^amsterdam +figure 1 +greedy +[0-9]+/8 +[0-9.]+% \(95% CI [0-9.]+%-[0-9.]+%\)' "$TMP/out-$seed" ||
        { cat "$TMP/out-$seed" >&2; fail "strength.sh printed no figure-1 line for seed $seed"; }
    ok "strength.sh figure 1, seed $seed"
done
# figure 1 uses no ISMCTS, so the header does not name its budget
grep -q 'ismcts' "$TMP/out-1" && { cat "$TMP/out-1" >&2; fail "figure-1 header names an ISMCTS budget"; }

# an unknown figure is refused before anything runs or is written
if OUT="$TMP/unknown" FIGURES="1 4" bash "$ROOT/bench/strength.sh" "$BIN" >"$TMP/out-u" 2>&1; then
    fail "FIGURES='1 4' accepted"
fi
grep -q "unknown figure '4'" "$TMP/out-u" || { cat "$TMP/out-u" >&2; fail "unknown figure: no reason"; }
[ ! -e "$TMP/unknown" ] || fail "unknown figure: the output directory was created"
ok "unknown figure refused"

# the total is the sum of the two runs' wins out of 16 seats
wins() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["bots"][0]["wins"])' "$1"; }
w=$(( $(wins "$TMP/runs/seed-1/amsterdam-1/summary.json") + $(wins "$TMP/runs/seed-9/amsterdam-1/summary.json") ))
python3 "$ROOT/bench/strength-total.py" "$TMP/runs" >"$TMP/total" 2>&1 || { cat "$TMP/total" >&2; fail "strength-total.py"; }
grep -Eq "^amsterdam +1 4 +greedy +$w/16 " "$TMP/total" ||
    { cat "$TMP/total" >&2; fail "strength-total.py does not give $w/16"; }
grep -Eq ' 70% +2 ' "$TMP/total" || { cat "$TMP/total" >&2; fail "target or run count missing"; }
ok "strength-total.py adds two runs: $w/16"
# --target sets a figure's target (issue 33 asks 60% of figure 2); a bad one is refused
python3 "$ROOT/bench/strength-total.py" --target 1=0.95 "$TMP/runs" >"$TMP/total" 2>&1 || { cat "$TMP/total" >&2; fail "--target"; }
grep -Eq ' 95% +2 ' "$TMP/total" || { cat "$TMP/total" >&2; fail "--target 1=0.95 not printed"; }
python3 "$ROOT/bench/strength-total.py" --target 1=95 "$TMP/runs" >"$TMP/total" 2>&1 && fail "--target 1=95 accepted"
grep -q "takes FIG=RATE" "$TMP/total" || { cat "$TMP/total" >&2; fail "--target 1=95: no reason"; }
ok "strength-total.py --target"

# bench/strength-margin.py: the first bot's wins (as the arena counts them),
# mean margin and rank; --pair of a run with itself differs by nothing, and
# two runs with no seed in common are refused
python3 "$ROOT/bench/strength-margin.py" "$TMP/runs/seed-1" >"$TMP/margin" 2>&1 || { cat "$TMP/margin" >&2; fail "strength-margin.py"; }
w1=$(wins "$TMP/runs/seed-1/amsterdam-1/summary.json")
grep -Eq "^amsterdam greedy +8 +$w1 .*margin +[-+][0-9.]+ \+- *[0-9.]+ +rank [1-4]\.[0-9]{2} \+-" "$TMP/margin" ||
    { cat "$TMP/margin" >&2; fail "strength-margin.py does not give $w1 of 8 with margin and rank"; }
python3 "$ROOT/bench/strength-margin.py" --pair "$TMP/runs/seed-1" "$TMP/runs/seed-1" >"$TMP/margin" 2>&1 || { cat "$TMP/margin" >&2; fail "--pair"; }
grep -Eq "^B - A on 8 common seeds +wins \+0 +margin +[-+]0\.0 " "$TMP/margin" || { cat "$TMP/margin" >&2; fail "--pair of a run with itself"; }
python3 "$ROOT/bench/strength-margin.py" --pair "$TMP/runs/seed-1" "$TMP/runs/seed-9" >"$TMP/margin" 2>&1 && fail "--pair without common seeds accepted"
grep -q "share no seed" "$TMP/margin" || { cat "$TMP/margin" >&2; fail "--pair without common seeds: no reason"; }
python3 "$ROOT/bench/strength-margin.py" "$TMP/none" >"$TMP/margin" 2>&1 && fail "strength-margin.py: missing directory accepted"
ok "strength-margin.py"

# an overlapping run (seeds 5..12) is refused with the reason
OUT="$TMP/runs/seed-5" SEED=5 GAMES=8 JOBS=2 FIGURES=1 EDITIONS=amsterdam \
    bash "$ROOT/bench/strength.sh" "$BIN" >/dev/null 2>&1 || fail "strength.sh with seed 5"
if python3 "$ROOT/bench/strength-total.py" "$TMP/runs" >"$TMP/total" 2>&1; then
    fail "overlapping seeds were added up"
fi
grep -q 'overlaps .* a deal would count twice' "$TMP/total" || { cat "$TMP/total" >&2; fail "no reason given"; }
ok "overlapping seeds refused"

# a directory that is not there, and a broken summary
python3 "$ROOT/bench/strength-total.py" "$TMP/none" >"$TMP/total" 2>&1 && fail "missing directory accepted"
grep -q "is not a directory" "$TMP/total" || fail "missing directory: no reason"
mkdir -p "$TMP/bad/x-2" && echo '{"run":' >"$TMP/bad/x-2/summary.json"
python3 "$ROOT/bench/strength-total.py" "$TMP/bad" >"$TMP/total" 2>&1 && fail "broken summary accepted"
grep -q "not an arena summary" "$TMP/total" || fail "broken summary: no reason"
ok "bad input refused"

# bench/strength-chunks.sh: loops over other editions share ROOT and seeds;
# a loop starting a chunk keeps the other editions' figures of that seed
# (it removed the whole seed-S/, and with it another loop's finished or
# running games)
for ed in golden-age amsterdam; do
    CHUNKS=1 CHUNK=4 SEED=1 EDITIONS=$ed FIGURES=1 JOBS=2 ROOT="$TMP/chunks" \
        bash "$ROOT/bench/strength-chunks.sh" "$BIN" >"$TMP/out-c-$ed" 2>&1 ||
        { cat "$TMP/out-c-$ed" >&2; fail "strength-chunks.sh for $ed"; }
done
for ed in golden-age amsterdam; do
    [ -f "$TMP/chunks/seed-1/$ed-1/summary.json" ] || fail "strength-chunks.sh lost the $ed chunk of seed 1"
done
python3 "$ROOT/bench/strength-total.py" "$TMP/chunks" >"$TMP/total" 2>&1 || { cat "$TMP/total" >&2; fail "chunks total"; }
[ "$(grep -cE '^(amsterdam|golden-age) +1 4 +greedy ' "$TMP/total")" = 2 ] || { cat "$TMP/total" >&2; fail "chunks: not both editions"; }
ok "strength-chunks.sh keeps another edition's chunk of the same seed"
