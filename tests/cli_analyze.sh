#!/usr/bin/env bash
# cli_analyze.sh: what `chartered analyze` says about the bots' choices
# (issue 36, item 3). A run of four greedy players (ties broken at random)
# raises no bias warning; the same run with its company values rewritten so
# that Gunpowder always ends on the chart and Tobacco never (what greedy did
# when it broke ties by list order) raises one that names both.
# Runs compared (issue 36, item 2): two runs of the same settings (random
# against random, other seeds) show no difference whose corrected interval
# excludes 0; greedy against random compared with random against random
# shows the random seat's win rate falling, with an interval below 0; the
# correction is stated; the plots overlay the runs.
# Plots (issue 36 item 2): at most 900 px wide, labels rounded, scores a
# row per bot or run.
# Arrangement files: analyze, arena, selfplay, bench and new take
# --arrangement FILE (issue 36); a broken file is refused with its line.
# Usage: bash tests/cli_analyze.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail

BIN=${1:?usage: cli_analyze.sh PATH/TO/chartered REPO-ROOT}
ROOT=${2:?usage: cli_analyze.sh PATH/TO/chartered REPO-ROOT}
: "$ROOT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() {
    echo "FAIL: $*" >&2
    [ -f "$TMP/out" ] && { echo "--- out:" >&2; head -n 60 "$TMP/out" >&2; }
    exit 1
}
command -v python3 >/dev/null || fail "python3 is needed (scripts/install-deps.sh installs it)"

echo "== bias warning"
"$BIN" analyze --games 150 --bot greedy --bot greedy --bot greedy --bot greedy --seed 1 --quiet \
    -o "$TMP/fair" >"$TMP/out" 2>&1 || fail "analyze of four greedy players"
grep -q "== final company values" "$TMP/out" || fail "no company table"
if grep -q "look biased" "$TMP/out"; then fail "a warning on an unbiased run"; fi
echo "ok: four greedy players, 150 games: no warning"

mkdir "$TMP/biased"
python3 - "$TMP/fair/games.csv" "$TMP/biased/games.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
for r in rows:
    vals = dict(kv.split("=") for kv in r["company_values"].split(";"))
    vals["Gunpowder"] = vals["Gunpowder"] if int(vals["Gunpowder"]) > 0 else "100"
    vals["Tobacco"] = "0"
    r["company_values"] = ";".join(f"{k}={v}" for k, v in vals.items())
with open(sys.argv[2], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)
PY
"$BIN" analyze --in "$TMP/biased" >"$TMP/out" 2>&1 || fail "analyze --in of the biased run"
grep -q "warning: the bots' choices look biased" "$TMP/out" || fail "no warning on a biased run"
grep -Eq "^ +Gunpowder +100\.0%, far above its share" "$TMP/out" || fail "Gunpowder not named"
grep -Eq "^ +Tobacco +0\.0%, far below its share" "$TMP/out" || fail "Tobacco not named"
grep -q "Bonferroni-corrected for 9 companies" "$TMP/out" || fail "the correction is not stated"
if grep -Eq "^ +(Coal|Silk|Tea) .*its share" "$TMP/out"; then fail "an unbiased company named"; fi
echo "ok: the biased run is flagged, Gunpowder above and Tobacco below"

echo "== runs compared"
"$BIN" arena --bot random --bot random --games 200 --seed 1 --quiet -o "$TMP/rr1" >/dev/null 2>&1 ||
    fail "arena random/random"
"$BIN" arena --bot random --bot random --games 200 --seed 5001 --quiet -o "$TMP/rr2" >/dev/null 2>&1 ||
    fail "arena random/random, other seeds"
"$BIN" arena --bot greedy --bot random --games 100 --seed 1 --quiet -o "$TMP/gr" >/dev/null 2>&1 ||
    fail "arena greedy/random"
"$BIN" analyze --in "$TMP/rr1" --in "$TMP/rr2" --plots "$TMP/plots" >"$TMP/out" 2>&1 ||
    fail "analyze of two runs"
grep -q "comparing 2 runs" "$TMP/out" || fail "not a comparison"
grep -Eq "Bonferroni-corrected for [0-9]+ comparisons" "$TMP/out" || fail "the correction is not stated"
grep -Eq "^win rate: random +[0-9.]+% +[0-9.]+% +[-+][0-9.]+pp \(" "$TMP/out" ||
    fail "no side-by-side win rate with its difference"
grep -q "differences whose corrected interval excludes 0: 0 of" "$TMP/out" ||
    fail "two runs of the same settings differ"
for f in differences scores length; do
    python3 -c "import sys, xml.dom.minidom as m; m.parse(sys.argv[1])" "$TMP/plots/$f.svg" ||
        fail "$f.svg is not well-formed"
done
grep -q "run A" "$TMP/plots/scores.svg" && grep -q "run B" "$TMP/plots/scores.svg" ||
    fail "scores.svg does not overlay the runs"
echo "ok: two runs of the same settings: no difference; plots overlay the runs"

echo "== plots a person can read"
# issue 36 item 2: moves.svg was 2,230 px wide with labels like 0.0025, and
# the scores of identical bots an overlaid blur. Every chart is now at most
# 900 px wide, every number on it rounded (at most two decimals, none past
# 100), and scores are a row per bot (or run) with its median and mean.
"$BIN" analyze --in "$TMP/rr1" --plots "$TMP/one" >/dev/null 2>&1 || fail "analyze --plots of one run"
python3 - "$TMP/one" "$TMP/plots" <<'PY' || fail "plots not legible"
import re, sys, glob, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
for path in glob.glob(sys.argv[1] + "/*.svg") + glob.glob(sys.argv[2] + "/*.svg"):
    root = ET.parse(path).getroot()
    w = float(root.get("width"))
    assert w <= 900, f"{path} is {w} px wide"
    for t in root.iter(ns + "text"):
        for n in re.findall(r"-?\d+\.\d+", t.text or ""):
            whole, dec = n.lstrip("-").split(".")
            assert len(dec) <= 2 and not (len(whole) >= 3 and dec), f"{path}: label {t.text!r}"
def medians(path):
    return [t.text for t in ET.parse(path).getroot().iter(ns + "text")
            if (t.text or "").startswith("median ")]
assert len(medians(sys.argv[1] + "/scores.svg")) == 2, medians(sys.argv[1] + "/scores.svg")
assert len(medians(sys.argv[2] + "/scores.svg")) == 2
moves = ET.parse(sys.argv[1] + "/moves.svg").getroot()
labels = [t.text for t in moves.iter(ns + "text")]
# a row per kind, the commonest first: the values after the axis label fall
vals = [0.0 if l == "<0.01" else float(l) for l in labels[labels.index("moves per game") + 2::2]]
assert len(vals) > 8 and vals == sorted(vals, reverse=True), labels
print("every chart legible")
PY
echo "ok: charts at most 900 px wide, labels rounded, scores a row per bot and per run"
"$BIN" analyze --in "$TMP/rr1" --in "$TMP/gr" >"$TMP/out" 2>&1 || fail "analyze of two runs"
python3 - "$TMP/out" <<'PY' || fail "greedy against random shows no difference"
import re, sys
line = [l for l in open(sys.argv[1]) if l.startswith("win rate: random ")][0]
lo, hi = map(float, re.search(r"\(([-+][0-9.]+)\.\.([-+][0-9.]+)\)", line).groups())
assert hi < 0, line
PY
echo "ok: greedy against random: the random seat's win rate drops, interval below 0"
if "$BIN" analyze --in "$TMP/rr1" --in "$TMP/gr" --games 5 >"$TMP/out" 2>&1; then
    fail "--games accepted with --in"
fi

echo "== arrangement files"
# every command that takes --arrangement reads a file too (issue 36, item 3):
# a path with a '/' or ending in .arr
mkdir "$TMP/designer"
sed 's/^arrangement crossroads/arrangement my-crossroads/' "$ROOT/data/arrangements/crossroads.arr" \
    >"$TMP/designer/my.arr"
"$BIN" analyze --arrangement "$TMP/designer/my.arr" --games 4 --quiet >"$TMP/out" 2>&1 ||
    fail "analyze --arrangement FILE"
grep -q "chartered analyze: 4 games played now" "$TMP/out" || fail "analyze did not play"
"$BIN" arena --arrangement "$TMP/designer/my.arr" --bot random --bot random --games 2 --quiet \
    -o "$TMP/arrrun" >"$TMP/out" 2>&1 || fail "arena --arrangement FILE"
grep -q "designer/my.arr" "$TMP/arrrun/games.csv" || fail "games.csv does not name the file"
"$BIN" selfplay --arrangement "$TMP/designer/my.arr" --games 2 >"$TMP/out" 2>&1 ||
    fail "selfplay --arrangement FILE"
"$BIN" bench --arrangement "$TMP/designer/my.arr" --games 2 >"$TMP/out" 2>&1 ||
    fail "bench --arrangement FILE"
"$BIN" new --arrangement "$TMP/designer/my.arr" --seed 3 -o "$TMP/g.json" >"$TMP/out" 2>&1 ||
    fail "new --arrangement FILE"
grep -q "my-crossroads" "$TMP/g.json" || fail "new did not store the file's arrangement"
# a broken file is refused with its line, and nothing is played
printf 'arrangement broken\nplace Nowhere 0 0\n' >"$TMP/designer/bad.arr"
set +e
"$BIN" analyze --arrangement "$TMP/designer/bad.arr" --games 2 --quiet >"$TMP/out" 2>&1
rc=$?
set -e
[ "$rc" -eq 1 ] || fail "a broken arrangement file: status $rc"
grep -q "bad.arr:2" "$TMP/out" || fail "the broken file's line is not given"
if grep -q "games played now" "$TMP/out"; then fail "games played with a broken file"; fi
echo "ok: analyze, arena, selfplay, bench and new read an arrangement file; a broken one is refused"
