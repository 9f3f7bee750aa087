#!/usr/bin/env bash
# cluster.sh: try chartered on several nodes on this one machine (issue 17,
# docs/cluster.md). Installs what is missing, builds chartered (Release), and
# starts:
#   - a private PostgreSQL: initdb in a temporary folder, a Unix socket in that
#     folder, no TCP at all (tests/support/pgtmp.py);
#   - NODES `chartered serve` nodes (default 2; 2 or 3) named a, b, c, on
#     127.0.0.1, sharing the leases and events (and, when this build has the
#     PostgreSQL back end, the games) through that database;
#   - HAProxy (packaging/haproxy.cfg.in) on 127.0.0.1:PORT (default 8080).
# It prints the address to open. Ctrl-C stops everything and removes the
# temporary folder (KEEP=1 keeps it: the database, logs and haproxy.cfg).
# Try: open the address, start a game, then `kill -9` the node that plays it
# (GET /api/health of each node says which: the PIDs are printed); the game
# continues on the other node within LEASE seconds (default 6).
# Environment: PORT, NODES, LEASE, KEEP, BUILD (build folder, default build).
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$(pwd)
PORT=${PORT:-8080}
NODES=${NODES:-2}
LEASE=${LEASE:-6}
BUILD=${BUILD:-build}
case "$NODES" in 2|3) ;; *) echo "cluster.sh: NODES must be 2 or 3, not '$NODES'" >&2; exit 2;; esac

if [ "$(id -u)" = 0 ]; then bash scripts/install-deps.sh; fi
if [ ! -x "$BUILD/chartered" ] || [ -z "${NO_BUILD:-}" ]; then
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)" --target chartered_cli >/dev/null
fi
BIN=$SRC/$BUILD/chartered

WORK=$(mktemp -d /tmp/chartered-cluster-XXXXXX)
chmod 755 "$WORK"
PIDS=()
stop_all() {
    trap - INT TERM EXIT
    echo
    echo "stopping the nodes, HAProxy and PostgreSQL"
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    python3 tests/support/pgtmp.py stop "$WORK/pg" >/dev/null 2>&1 || true
    if [ -n "${KEEP:-}" ]; then echo "kept: $WORK"; else rm -rf "$WORK"; fi
}
trap stop_all INT TERM EXIT

echo "starting PostgreSQL in $WORK/pg (Unix socket only)"
CONNINFO=$(python3 tests/support/pgtmp.py start "$WORK/pg")
URL=$(python3 tests/support/pgtmp.py url "$WORK/pg")
# the games: PostgreSQL when this build has its back end, else one SQLite
# file the nodes share (one machine only)
if "$BIN" serve --help | grep -A2 -E '^ +--db ' | grep -qi postgres; then DB=$URL; else DB=$WORK/games.db; fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
NAMES=(a b c)
RULES=""
SERVERS=""
for i in $(seq 0 $((NODES - 1))); do
    n=${NAMES[$i]}
    p=$(free_port)
    # --trust-proxy: HAProxy (option forwardfor) says who the client is, so
    # the per-address limits count each client, not HAProxy
    "$BIN" serve --host 127.0.0.1 --port "$p" --db "$DB" --node "$n" --cluster "$CONNINFO" \
        --lease-seconds "$LEASE" --trust-proxy --quiet >"$WORK/$n.out" 2>"$WORK/$n.log" &
    PIDS+=($!)
    RULES+="    use-server $n if { url_param(node) -m str $n }"$'\n'
    SERVERS+="    server $n 127.0.0.1:$p"$'\n'
    echo "node $n: pid $!, http://127.0.0.1:$p/api/health"
done
NOFILE=$(ulimit -Hn)
[ "$NOFILE" = unlimited ] && NOFILE=40000
MAXCONN=$(( (NOFILE - 200) / 2 )); [ "$MAXCONN" -gt 20000 ] && MAXCONN=20000
python3 - "$SRC/packaging/haproxy.cfg.in" "$WORK/haproxy.cfg" "127.0.0.1:$PORT" "$MAXCONN" \
    "$RULES" "$SERVERS" <<'EOF'
import sys
src, out, bind, maxconn, rules, servers = sys.argv[1:7]
t = open(src).read()
t = (t.replace("@GLOBAL@", "    maxconn " + maxconn).replace("@BIND@", bind)
     .replace("@RULES@", rules.rstrip("\n")).replace("@SERVERS@", servers.rstrip("\n")))
open(out, "w").write(t)
EOF
haproxy -c -q -f "$WORK/haproxy.cfg"
haproxy -f "$WORK/haproxy.cfg" -db >"$WORK/haproxy.log" 2>&1 &
PIDS+=($!)
# wait until every node and HAProxy answer (bounded)
for _ in $(seq 1 300); do
    if python3 - "$PORT" "$NODES" <<'EOF'
import json, sys, urllib.request
port, n = int(sys.argv[1]), int(sys.argv[2])
seen = set()
for name in "abc"[:n]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health?node={name}", timeout=2) as r:
            seen.add(json.load(r)["node"])
    except Exception:
        sys.exit(1)
sys.exit(0 if len(seen) == n else 1)
EOF
    then break; fi
    for p in "${PIDS[@]}"; do
        kill -0 "$p" 2>/dev/null || { echo "a process stopped; its log:"; tail -n 20 "$WORK"/*.log; exit 1; }
    done
    sleep 0.1
done
echo
echo "Open http://localhost:$PORT/ in a browser: $NODES nodes behind HAProxy (Ctrl-C stops everything)."
echo "Each node's health: http://localhost:$PORT/api/health?node=a (b, c); logs in $WORK"
# until Ctrl-C (a node killed to try a failover does not end this)
wait "${PIDS[-1]}" || true
