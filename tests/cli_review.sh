#!/usr/bin/env bash
# cli_review.sh: `chartered review GAME.json` (issue 33; docs/cli.md "review").
# A short game file (tests/review/keep-stocks.json, from a position of a greedy
# game of four) ends with a seller who keeps every absorbed stock of a merger
# (then "worth nothing", Ruling R-24) instead of selling them to the bank at
# value. The review must mark that decision as the first
# moment that mattered, with a better move and its gain in words (in English
# and Dutch), print a row per decision, and write the graph as SVG (a line
# per player), PNG (when a converter is installed), JSON, through a symbolic
# link and into a FIFO. Bad input is refused with a clear error: a damaged
# game file, an illegal move in it, a missing file, clashing budgets.
# Small budgets (--iterations) keep it quick.
# Usage: bash tests/cli_review.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail

BIN=${1:?usage: cli_review.sh PATH/TO/chartered REPO-ROOT}
ROOT=${2:?usage: cli_review.sh PATH/TO/chartered REPO-ROOT}
: "$ROOT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

fail() {
    echo "FAIL: $*" >&2
    [ -f out ] && { echo "--- out:" >&2; head -n 80 out >&2; }
    [ -f err ] && { echo "--- err:" >&2; head -n 20 err >&2; }
    exit 1
}
command -v python3 >/dev/null || fail "python3 is needed (scripts/install-deps.sh installs it)"

echo "== a game with an obviously losing move"
# tests/review/keep-stocks.json (made by tests/review/make-keep-stocks.sh from
# a greedy game of four, seed 2): 13 moves from a position; the last one,
# player 2's, keeps four Gunpowder stocks in a merger instead of selling them
cp "$ROOT/tests/review/keep-stocks.json" blunder.json
n=13
LOSING="keep Gunpowder"
"$BIN" review blunder.json --iterations 600 --top 3 --seed 2 --lang en --svg graph.svg \
    --json review.json -q > out 2> err || fail "review exited $?"
grep -q "not over" err || fail "no warning that the game is not over"
rows=$(grep -cE '^ +[0-9]+  P[1-4] ' out || true)
[ "$rows" = "$n" ] || fail "$rows table rows for $n decisions"
grep -E "^ +$n  P[1-4] +$LOSING .*<- 1\$" out >/dev/null ||
    fail "the losing move (decision $n, '$LOSING') is not the first moment"
grep -E "^  1\. decision $n, .* with the bot's move: “.*” here instead of “$LOSING”: \+[0-9]+% to win" out >/dev/null ||
    fail "no advice in words for the losing move"
echo "ok: decision $n ($LOSING) marked first: $(grep -E '^  1\. ' out | sed 's/^ *//')"

python3 - review.json "$n" <<'PY' || fail "the JSON review"
import json, sys
d = json.load(open(sys.argv[1]))["decisions"]
n = int(sys.argv[2])
assert len(d) == n, len(d)
last = d[-1]
assert last["moment"] == 1 and last["move"].startswith("keep "), last
assert last["best"] != last["move"] and last["gain"] > 0.05, last
for x in d:
    assert abs(sum(x["chances"]) - 1) < 1e-3, x
PY
lines=$(grep -c '<polyline' graph.svg)
[ "$lines" = 4 ] || fail "$lines lines in the SVG, expected one per player"
grep -q '<circle' graph.svg || fail "no marked moment on the graph"
python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])" graph.svg ||
    fail "the SVG is not well-formed XML"
echo "ok: table of $n rows, JSON, SVG with 4 lines and the moments"

echo "== a CPU budget spread by the playouts' length"
# --cpu is the mean per decision: a decision with more warehouses left in the
# supply (longer playouts) gets more, and the game's total is cpu x decisions
"$BIN" review blunder.json --cpu 0.004 --json budget.json -q > out 2> err || fail "review --cpu"
grep -q "0.004 s of CPU on average per decision" out || fail "no mean budget in the summary"
python3 - budget.json "$n" <<'PY' || fail "the CPU budgets"
import json, sys
d = json.load(open(sys.argv[1]))["decisions"]
n = int(sys.argv[2])
b = [x["cpu_budget"] for x in d]
assert abs(sum(b) - 0.004 * n) < 1e-5 * n, (sum(b), b)
assert all(x >= y for x, y in zip(b, b[1:])), b   # the supply only shrinks
assert b[0] > b[-1], b
assert all(x["playouts"] > 0 and x["cpu"] > 0 for x in d), d
PY
echo "ok: budgets $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["decisions"]; print(d[0]["cpu_budget"], "..", d[-1]["cpu_budget"])' budget.json) s"

echo "== in Dutch"
"$BIN" review blunder.json --iterations 600 --top 3 --seed 2 --lang nl -q > out.nl 2>/dev/null ||
    fail "review --lang nl"
grep -E "^  1\. beslissing $n, .* met de zet van de bot: „.*” hier in plaats van „houd .*”: \+[0-9]+% kans om te winnen" out.nl >/dev/null || {
    mv out.nl out; fail "no Dutch advice"; }
echo "ok: $(grep -E '^  1\. ' out.nl | sed 's/^ *//')"

echo "== files through links and FIFOs; PNG"
mkdir real
: > real/g.svg
ln -s real/g.svg link.svg
"$BIN" review blunder.json --iterations 20 --svg link.svg -q > out 2> err || fail "review to a link"
[ -L link.svg ] || fail "the symbolic link was replaced"
grep -q '<polyline' real/g.svg || fail "the link's target was not written"
mkfifo pipe
cat pipe > fromfifo &
"$BIN" review blunder.json --iterations 20 --svg pipe -q > out 2> err || fail "review to a FIFO"
wait
[ -p pipe ] || fail "the FIFO was replaced"
grep -q '</svg>' fromfifo || fail "nothing came through the FIFO"
if command -v rsvg-convert >/dev/null || command -v convert >/dev/null || command -v magick >/dev/null; then
    "$BIN" review blunder.json --iterations 20 --png graph.png -q > out 2> err || fail "review --png"
    head -c 8 graph.png | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a' || fail "graph.png is no PNG"
    echo "ok: link, FIFO, PNG"
else
    echo "ok: link, FIFO (no SVG converter installed: PNG not checked)"
fi

echo "== bad input"
head -c 300 blunder.json > damaged.json
if "$BIN" review damaged.json --iterations 10 > out 2> err; then fail "a damaged file was reviewed"; fi
[ "$(grep -c '^error: ' err)" -ge 1 ] && grep -q 'damaged.json' err || fail "no clear error for a damaged file"
echo "ok: damaged: $(head -n 1 err)"
python3 - blunder.json illegal.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["moves"][0]["move"] = "play Harbour Z9"
json.dump(d, open(sys.argv[2], "w"))
PY
if "$BIN" review illegal.json --iterations 10 > out 2> err; then fail "an illegal move was reviewed"; fi
grep -q 'move 1 ' err || fail "the illegal move is not named"
echo "ok: illegal: $(head -n 1 err)"
if "$BIN" review missing.json > out 2> err; then fail "a missing file was reviewed"; fi
grep -q 'missing.json' err || fail "no error for a missing file"
set +e
"$BIN" review blunder.json --iterations 10 --cpu 0.1 > out 2> err
rc=$?
set -e
[ "$rc" = 2 ] || fail "--iterations with --cpu: exit $rc, expected 2"
echo "ok: missing file, clashing budgets refused"
echo "PASS"
