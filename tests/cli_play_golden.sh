#!/usr/bin/env bash
# cli_play_golden.sh: golden-screen tests of `chartered play`: a fixed
# position (a game file in tests/golden) rendered with --print-screen in
# --plain mode at 80 columns, in English, Dutch and Japanese (Building
# Amsterdam) and in English (The Golden Age), compared byte for byte with
# the screens in tests/golden/play-*.txt. After a deliberate change of the
# screen, regenerate with: CH_GOLDEN_UPDATE=1 bash tests/cli_play_golden.sh BIN ROOT
# and inspect the new files by eye before committing them.
# Usage: bash tests/cli_play_golden.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail
BIN=${1:?usage: cli_play_golden.sh PATH/TO/chartered REPO-ROOT}
ROOT=${2:?usage: cli_play_golden.sh PATH/TO/chartered REPO-ROOT}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
G="$ROOT/tests/golden"
status=0
check() { # GAME LANG
    local game=$1 lang=$2 want="$G/play-$1-$2.txt"
    # the screen must not depend on the locale or the terminal
    env -u LANG -u LC_ALL -u LANGUAGE -u COLUMNS NO_COLOR= \
        "$BIN" play --resume "$G/play-$game.json" --print-screen --plain \
        --width 80 --as 1 --lang "$lang" >"$TMP/out" 2>"$TMP/err" || {
        echo "FAIL: play --print-screen ($game, $lang) failed:" >&2
        cat "$TMP/err" >&2
        status=1
        return
    }
    if [ "${CH_GOLDEN_UPDATE:-}" = 1 ]; then
        cp "$TMP/out" "$want"
        echo "updated: $want"
        return
    fi
    if ! cmp -s "$TMP/out" "$want"; then
        echo "FAIL: the $lang screen of $game differs from $want:" >&2
        diff -u "$want" "$TMP/out" >&2 || true
        status=1
        return
    fi
    # every line fits in 80 columns (wide characters count 2)
    if ! python3 -c '
import sys, unicodedata
for n, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    w = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line.rstrip("\n"))
    if w > 80:
        sys.exit("line %d is %d columns wide" % (n, w))
' "$TMP/out"; then
        echo "FAIL: the $lang screen of $game is wider than 80 columns" >&2
        status=1
        return
    fi
    echo "ok: $game $lang"
}
check amsterdam en
check amsterdam nl
check amsterdam ja
check golden-age en
# the three languages really differ (no catalogue silently fell back)
if cmp -s "$G/play-amsterdam-en.txt" "$G/play-amsterdam-nl.txt" ||
   cmp -s "$G/play-amsterdam-en.txt" "$G/play-amsterdam-ja.txt"; then
    echo "FAIL: the golden screens of two languages are the same" >&2
    status=1
fi
exit $status
