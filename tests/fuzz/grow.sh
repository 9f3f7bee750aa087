#!/usr/bin/env bash
# grow.sh: one long run of a harness that grows its checked-in corpus
# (tests/fuzz/README.md "Fuzzing with memory"). The harness starts from
# corpus/NAME/ and writes what it finds to a scratch folder (never into the
# repository); afterwards `-merge=1` keeps the smallest set of inputs that
# covers every feature of both, and that set replaces corpus/NAME/. The
# inputs that once crashed (regress-*) are always kept. A crash the run finds
# is left in the scratch folder (crash-*) for a look, and the script exits 1.
# The run's figures (executions, coverage and features before and after) are
# printed on the last lines, for the table in README.md.
# usage: bash tests/fuzz/grow.sh BUILD-FUZZ NAME SECONDS [SCRATCH]   (from the top folder,
#        BUILD-FUZZ configured with -DCH_FUZZ=ON)
set -uo pipefail
BUILD=${1:?usage: grow.sh BUILD-FUZZ NAME SECONDS [SCRATCH]}
NAME=${2:?usage: grow.sh BUILD-FUZZ NAME SECONDS [SCRATCH]}
SECS=${3:?usage: grow.sh BUILD-FUZZ NAME SECONDS [SCRATCH]}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
EXE=$BUILD/tests/fuzz/fuzz_$NAME
SCRATCH=${4:-$(mktemp -d /tmp/grow-$NAME.XXXXXX)}
CORPUS=$HERE/corpus/$NAME
[ -x "$EXE" ] || { echo "grow.sh: no harness $EXE (build it with -DCH_FUZZ=ON)" >&2; exit 2; }
mkdir -p "$SCRATCH/found" "$CORPUS"
export CH_DATA_DIR=$ROOT/data
DICT=()
[ -f "$HERE/$NAME.dict" ] && DICT=(-dict="$HERE/$NAME.dict")
"$EXE" -max_total_time="$SECS" -print_final_stats=1 -timeout=30 -rss_limit_mb=2048 "${DICT[@]}" \
    -artifact_prefix="$SCRATCH/" "$SCRATCH/found" "$CORPUS" >"$SCRATCH/run.log" 2>&1
rc=$?
# the merge: the corpus as it was and what the run found, into a new folder
mkdir -p "$SCRATCH/merged"
"$EXE" -merge=1 -timeout=30 -rss_limit_mb=2048 "$SCRATCH/merged" "$CORPUS" "$SCRATCH/found" \
    >"$SCRATCH/merge.log" 2>&1 || { echo "grow.sh: the merge failed: $SCRATCH/merge.log" >&2; exit 1; }
mkdir -p "$SCRATCH/regress"
cp "$CORPUS"/regress-* "$SCRATCH/regress/" 2>/dev/null || true
rm -rf "$CORPUS" && mkdir -p "$CORPUS"
cp "$SCRATCH/merged"/* "$CORPUS/" 2>/dev/null || true
cp "$SCRATCH/regress"/* "$CORPUS/" 2>/dev/null || true
inited=$(grep -m1 "INITED" "$SCRATCH/run.log" | grep -o "cov: [0-9]* ft: [0-9]*")
done_=$(grep "DONE\|^#[0-9]*.*cov:" "$SCRATCH/run.log" | tail -1 | grep -o "cov: [0-9]* ft: [0-9]*")
execs=$(grep -o "stat::number_of_executed_units: *[0-9]*" "$SCRATCH/run.log" | grep -o "[0-9]*$")
speed=$(grep -o "stat::average_exec_per_sec: *[0-9]*" "$SCRATCH/run.log" | grep -o "[0-9]*$")
echo "grow.sh: $NAME: ${SECS} s, ${execs:-?} executions (${speed:-?}/s), start $inited, end $done_"
echo "grow.sh: $NAME: corpus now $(ls "$CORPUS" | wc -l) files, $(du -sb "$CORPUS" | cut -f1) bytes (log: $SCRATCH/run.log)"
if [ $rc -ne 0 ] || ls "$SCRATCH"/crash-* "$SCRATCH"/timeout-* "$SCRATCH"/oom-* >/dev/null 2>&1; then
    echo "grow.sh: $NAME: the run found a failure (exit $rc): $(ls "$SCRATCH"/crash-* "$SCRATCH"/timeout-* "$SCRATCH"/oom-* 2>/dev/null)" >&2
    exit 1
fi
