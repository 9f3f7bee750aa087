#!/usr/bin/env bash
# run.sh: the browser end-to-end test of the web client. Called by CTest as
#   bash tests/web/run.sh BINARY SRCDIR [SPEC.mjs ...]
# (web_e2e: no SPEC, the default set below; web_keys: ux-keys.mjs alone).
# It installs the npm packages (playwright-core only; no browser download:
# Debian's chromium is used), checks the message catalogues (i18n-check.mjs)
# and the reading of legal-move lists (moves-check.mjs), starts `BINARY serve`
# on a free port with a temporary database, runs e2e.mjs, ratings.mjs and ux.mjs and stops the server. Screenshots are kept in $CH_ARTIFACTS (default
# tests/web/artifacts/, ignored by git).
set -euo pipefail
BIN=$(realpath "$1")
SRC=$(realpath "${2:-$(dirname "$0")/../..}")
shift 2 || shift $#
SPECS=("$@")
HERE="$SRC/tests/web"
export CH_ARTIFACTS="${CH_ARTIFACTS:-$HERE/artifacts}"
mkdir -p "$CH_ARTIFACTS"

command -v node >/dev/null || { echo "node is missing (scripts/install-deps.sh installs it)"; exit 1; }
[ -x "${CH_CHROMIUM:-/usr/bin/chromium}" ] || { echo "chromium is missing (scripts/install-deps.sh installs it)"; exit 1; }

# npm packages: installed once from the lock file. CTest runs the browser
# tests in parallel (-j): in a fresh clone two of them ran npm ci at once and
# one imported a half-installed playwright-core. The install is made under a
# lock, and a marker written after it says it is whole.
(
    flock 9
    if [ ! -f "$HERE/node_modules/.chartered-installed" ]; then
        (cd "$HERE" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
        touch "$HERE/node_modules/.chartered-installed"
    fi
) 9>"$HERE/.npm-install.lock"

node "$HERE/i18n-check.mjs" "$SRC"
node "$HERE/moves-check.mjs" "$SRC"

TMP=$(mktemp -d)
SERVER_PID=
# e2e.mjs kills the server (kill -9) in the middle of the game and starts it
# again on the same port and database; the pid file names whichever runs.
export CH_SERVER_PIDFILE="$TMP/server.pid"
cleanup() {
    if [ -f "$CH_SERVER_PIDFILE" ]; then
        pid=$(cat "$CH_SERVER_PIDFILE")
        if [ -n "$pid" ] && [ "$pid" != "$SERVER_PID" ]; then kill "$pid" 2>/dev/null || true; fi
    fi
    if [ -n "$SERVER_PID" ]; then
        kill "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT

# --port 0 lets the server pick a free port; it prints the address it serves on.
# The log exists before the server starts: the background job opens it itself,
# maybe only after the loop below first reads it (a loaded machine showed that).
: > "$TMP/serve.log"
"$BIN" serve --port 0 --host 127.0.0.1 --db "$TMP/web.db" --web "$SRC/web" --i18n "$SRC/data/i18n" \
    > "$TMP/serve.log" 2>&1 &
SERVER_PID=$!
disown "$SERVER_PID"   # the test kills it with -9 on purpose: no job notice for that
echo "$SERVER_PID" > "$CH_SERVER_PIDFILE"
BASE=
for _ in $(seq 1 100); do
    BASE=$(sed -n 's|.*serving on \(http://[^ ]*\)/ .*|\1|p' "$TMP/serve.log" | head -1)
    [ -n "$BASE" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$BASE" ]; then echo "the server did not start:"; cat "$TMP/serve.log"; exit 1; fi
echo "server at $BASE"
PORT=${BASE##*:}
# the command that starts the server again on the same port and database
export CH_SERVER_CMD="[\"$BIN\",\"serve\",\"--port\",\"$PORT\",\"--host\",\"127.0.0.1\",\"--db\",\"$TMP/web.db\",\"--web\",\"$SRC/web\",\"--i18n\",\"$SRC/data/i18n\"]"
export CH_SERVER_LOG="$TMP/serve2.log"

rc=0
if [ ${#SPECS[@]} -gt 0 ]; then
    # the named specs only, each against this server
    for spec in "${SPECS[@]}"; do
        (cd "$HERE" && CH_BASE="$BASE" node "$spec") || rc=$?
    done
    [ "$rc" -ne 0 ] && { echo "--- server log (last 40 lines)"; tail -40 "$TMP/serve.log"; }
    exit "$rc"
fi
# accounts and seats bound to people first (e2e.mjs restarts the server)
(cd "$HERE" && CH_BASE="$BASE" node accounts.mjs) || rc=$?
[ "$rc" -eq 0 ] && { (cd "$HERE" && CH_BASE="$BASE" node e2e.mjs) || rc=$?; }
# ratings, profiles, leaderboard, rematch (on the same server: after e2e.mjs)
[ "$rc" -eq 0 ] && { (cd "$HERE" && CH_BASE="$BASE" node ratings.mjs) || rc=$?; }
# ux.mjs: issue 16's features (solo start, keyboard play, end screen, replay,
# three languages at two widths), against the same server
(cd "$HERE" && CH_BASE="$BASE" node ux.mjs) || rc=$?
if [ "$rc" -ne 0 ]; then
    echo "--- server log (last 40 lines)"; tail -40 "$TMP/serve.log"
    [ -f "$CH_SERVER_LOG" ] && { echo "--- restarted server's log"; tail -40 "$CH_SERVER_LOG"; }
fi
exit "$rc"
