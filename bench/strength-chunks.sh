#!/usr/bin/env bash
# strength-chunks.sh: one strength figure of bench/strength.sh gathered in
# chunks of CHUNK games with disjoint seeds (chunk k starts at SEED+k*CHUNK),
# each kept under ROOT/seed-S/, so a long run that is stopped keeps every
# finished chunk and, started again, skips them. bench/strength-total.py adds
# the chunks up (docs/bots.md, "Strength").
#   CHUNKS=10 CHUNK=20 SEED=11001 EDITIONS=golden-age FIGURES=2 \
#   ISMCTS='ismcts:cpu=0.1,playout=fast' ROOT=bench/results/x \
#   bash bench/strength-chunks.sh build/chartered
# Other variables (JOBS) pass through to bench/strength.sh.
set -euo pipefail
BIN=${1:-build/chartered}
CHUNKS=${CHUNKS:-10}
CHUNK=${CHUNK:-20}
SEED=${SEED:-1}
ROOT=${ROOT:?ROOT: the directory that keeps the chunks}
EDITIONS=${EDITIONS:-amsterdam golden-age}
FIGURES=${FIGURES:-2}
here=$(dirname "$0")
for ((k = 0; k < CHUNKS; k++)); do
    s=$((SEED + k * CHUNK))
    done_all=1
    for ed in $EDITIONS; do
        for f in $FIGURES; do
            [ -f "$ROOT/seed-$s/$ed-$f/summary.json" ] || done_all=
        done
    done
    [ -n "$done_all" ] && continue
    # only this run's unfinished figures: two loops over other editions may
    # share ROOT and seeds (removing the whole seed-S/ deleted the other
    # loop's games under way, and its arena then failed)
    for ed in $EDITIONS; do
        for f in $FIGURES; do
            [ -f "$ROOT/seed-$s/$ed-$f/summary.json" ] || rm -rf "$ROOT/seed-$s/$ed-$f" "$ROOT/seed-$s/$ed-$f.txt"
        done
    done
    GAMES=$CHUNK SEED=$s OUT="$ROOT/seed-$s" EDITIONS="$EDITIONS" FIGURES="$FIGURES" \
        bash "$here/strength.sh" "$BIN"
done
