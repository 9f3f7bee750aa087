#!/usr/bin/env bash
# cli_output.sh: where the commands' output files go (cli_write_file_atomic,
# src/cli/util.c; issue 28 item 9). A regular file is replaced atomically; a
# character device and a FIFO are written in place and stay what they are
# (`chartered new -o /dev/null` as root used to leave a regular file there);
# a symbolic link, and a link to a link, is followed and its target replaced
# in the target's directory, the links kept; a dangling link and a
# directory are refused and nothing is written. Device nodes are made with
# mknod in a temporary folder (never the real /dev); that part needs root
# and is skipped, with a note, otherwise.
# Usage: bash tests/cli_output.sh PATH/TO/chartered REPO-ROOT
set -euo pipefail

BIN=${1:?usage: cli_output.sh PATH/TO/chartered REPO-ROOT}
ROOT=${2:?usage: cli_output.sh PATH/TO/chartered REPO-ROOT}
: "$ROOT"
TMP=$(mktemp -d)
READER=
cleanup() {
    [ -n "$READER" ] && kill "$READER" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

ok() { echo "ok: $*"; }
fail() {
    echo "FAIL: $*" >&2
    for f in "$TMP/out" "$TMP/err"; do
        [ -f "$f" ] && { echo "--- $(basename "$f"):" >&2; head -n 20 "$f" >&2; }
    done
    exit 1
}
run() {
    set +e
    "$@" >"$TMP/out" 2>"$TMP/err"
    RC=$?
    set -e
}
is_game() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["format"]' "$1" 2>/dev/null; }
no_leftovers() {
    local d
    for d in "$@"; do
        ! ls "$d" | grep -q '\.tmp\.' || fail "a temporary file was left in $d: $(ls "$d")"
    done
}
cd "$TMP"

echo "== a regular file"
run "$BIN" new --players 3 --seed 1 -o g.json
[ "$RC" -eq 0 ] && [ -f g.json ] && is_game g.json || fail "new -o g.json"
chmod 600 g.json
run "$BIN" apply g.json "#1"
[ "$RC" -eq 0 ] || fail "apply g.json"
[ "$(stat -c %a g.json)" = 600 ] || fail "apply changed the mode to $(stat -c %a g.json)"
no_leftovers .
ok "a regular file is replaced, its mode kept"

echo "== symbolic links"
mkdir -p games real
"$BIN" new --players 3 --seed 2 -o real/a.json >/dev/null
ln -s ../real/a.json games/link.json        # relative, in another folder
ln -s games/link.json chain.json            # a link to the link
before=$(md5sum real/a.json)
run "$BIN" apply games/link.json "#1"
[ "$RC" -eq 0 ] || fail "apply through a link"
[ -L games/link.json ] || fail "the link was replaced by a file (a copy of the game)"
[ "$(readlink games/link.json)" = ../real/a.json ] || fail "the link points elsewhere now"
[ "$(md5sum real/a.json)" != "$before" ] || fail "the link's target was not written"
grep -q '"draw"' real/a.json || fail "the move is not in the target"
ok "a link is followed: the target has the move, the link is still a link"
run "$BIN" apply chain.json "#1"
[ "$RC" -eq 0 ] || fail "apply through a link to a link"
[ -L chain.json ] && [ -L games/link.json ] && [ -f real/a.json ] && [ ! -L real/a.json ] ||
    fail "the chain of links was broken"
[ "$(python3 -c 'import json; print(len(json.load(open("real/a.json"))["moves"]))')" = 2 ] ||
    fail "the target does not hold both moves"
no_leftovers . games real
ok "a link to a link is followed to the end; the temporary file was made beside the target"
run "$BIN" new --players 4 --seed 3 -o chain.json
[ "$RC" -eq 0 ] && [ -L chain.json ] && grep -q '"players": *4' real/a.json ||
    fail "new -o a link did not write the target"
ok "new -o a link writes its target"

echo "== a dangling link and a directory: refused, nothing written"
ln -s missing/nowhere.json dangling.json
run "$BIN" new --players 3 -o dangling.json
[ "$RC" -ne 0 ] || fail "new -o a dangling link succeeded"
grep -q "symbolic link to a file that does not exist; nothing was written" "$TMP/err" ||
    fail "no clear error for a dangling link"
[ -L dangling.json ] && [ ! -e missing ] || fail "the dangling link was touched"
ln -s dangling.json to-dangling.json
run "$BIN" new --players 3 -o to-dangling.json
[ "$RC" -ne 0 ] && [ -L to-dangling.json ] || fail "a link to a dangling link was written"
ok "a dangling link is refused with a clear error and left as it was"
mkdir adir
run "$BIN" new --players 3 -o adir
[ "$RC" -ne 0 ] && grep -q "it is a directory" "$TMP/err" || fail "new -o a directory"
ln -s adir dirlink
run "$BIN" new --players 3 -o dirlink
[ "$RC" -ne 0 ] && grep -q "leads to the directory" "$TMP/err" && [ -L dirlink ] ||
    fail "new -o a link to a directory"
[ -z "$(ls adir)" ] || fail "something was written into the directory"
ok "a directory (or a link to one) is refused"

echo "== a FIFO with a reader"
mkfifo pipe
cat pipe >from-pipe &
READER=$!
run timeout 20 "$BIN" new --players 3 --seed 4 -o pipe
[ "$RC" -eq 0 ] || fail "new -o a FIFO: status $RC"
wait "$READER"
READER=
[ -p pipe ] || fail "the FIFO was replaced"
is_game from-pipe || fail "the reader did not get the game file"
ln -s pipe pipelink
cat pipe >from-link &
READER=$!
run timeout 20 "$BIN" new --players 3 --seed 4 -o pipelink
[ "$RC" -eq 0 ] || fail "new -o a link to a FIFO: status $RC"
wait "$READER"
READER=
[ -p pipe ] && [ -L pipelink ] && cmp -s from-pipe from-link || fail "a link to a FIFO"
ok "a FIFO gets the game file and stays a FIFO (also through a link)"

echo "== character devices (mknod of our own, never /dev)"
if [ "$(id -u)" -ne 0 ]; then
    echo "note: not root, mknod is not allowed: the device part is skipped"
else
    mknod null c 1 3
    mknod full c 1 7
    run "$BIN" new --players 3 -o null
    [ "$RC" -eq 0 ] || fail "new -o a null device: status $RC"
    [ -c null ] || fail "the null device node was replaced by a $(stat -c %F null)"
    ln -s null nulllink
    run "$BIN" new --players 3 -o nulllink
    [ "$RC" -eq 0 ] && [ -c null ] && [ -L nulllink ] || fail "a link to a null device"
    run "$BIN" new --players 3 -o full
    [ "$RC" -ne 0 ] || fail "writing a full device succeeded"
    grep -q "cannot write 'full': No space left on device" "$TMP/err" || fail "no clear error for a full device"
    [ -c full ] || fail "the full device node was replaced"
    no_leftovers .
    ok "a device is written in place and stays a device; a write error is reported"
fi

echo "== arena's games.csv through a link"
mkdir -p aout store
: >store/games.csv
ln -s ../store/games.csv aout/games.csv
run "$BIN" arena --bot random --bot random --games 2 --seed 1 --quiet -o aout
[ "$RC" -eq 0 ] && [ -L aout/games.csv ] && [ "$(wc -l <store/games.csv)" -eq 3 ] ||
    fail "arena --out with games.csv a link"
ok "arena writes games.csv through a link"
echo "all output checks passed"
