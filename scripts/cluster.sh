#!/usr/bin/env bash
# cluster.sh: try chartered on several nodes on this one machine (issue 17,
# docs/cluster.md). Installs what is missing, builds chartered (Release), and
# starts:
#   - a private PostgreSQL: initdb in a temporary folder, a Unix socket in that
#     folder, no TCP at all (tests/support/pgtmp.py);
#   - NODES `chartered serve` nodes (default 2; 2 or 3) named a, b, c, on
#     127.0.0.1, sharing the games, accounts, leases and events through that
#     database (--db postgresql://... --cluster on);
#   - HAProxy (packaging/haproxy.cfg.in) on HOST:PORT (default 127.0.0.1:8080).
# It prints the address to open. Ctrl-C stops everything and removes the
# temporary folder (KEEP=1 keeps it: the database, logs and haproxy.cfg).
# Try: open the address, start a game, then `kill -9` the node that plays it
# (GET /api/health of each node says which: the PIDs are printed); the game
# continues on the other node within LEASE seconds (default 6).
#
# Settings, as environment variables or flags (a flag wins):
#   PORT=N        --port N         HAProxy's port (default 8080)
#   HOST=ADDR     --host ADDR      HAProxy's address (default 127.0.0.1)
#   NODES=N       --nodes N        2 or 3 nodes (default 2)
#   NODE_PORTS="P P"  --node-ports "P P"  the nodes' ports, one per node, on
#                                  127.0.0.1 (default: free ports)
#   LEASE=S       --lease S        --lease-seconds of the nodes (default 6)
#   LOGS=DIR      --logs DIR       where the logs go: a.log, b.log (each node's
#                                  log lines and errors), haproxy.log (one line
#                                  per request), postgres.log; kept at the end
#                                  (default: the temporary folder)
#   LOG_FORMAT=F  --log-format F   the nodes' log format: text, logfmt or json
#                                  (default text; docs/deploy.md, "Logs")
#   NODE_OPTIONS="..." --node-options "..."  more `chartered serve` flags for
#                                  every node, e.g. "--bot-threads 1"
#   KEEP=1        --keep           keep the temporary folder
#   BUILD=DIR     --build DIR      build folder (default build)
#   CHARTERED=FILE --chartered FILE  run this program: nothing is installed
#                                  or built
set -euo pipefail
cd "$(dirname "$0")/.."
SRC=$(pwd)
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
        --keep) KEEP=1; shift; continue;;
        -h|--help) usage; exit 0;;
        --port|--host|--nodes|--node-ports|--lease|--logs|--log-format|--node-options|--build|--chartered)
            [ $# -ge 2 ] || { echo "cluster.sh: $1 needs a value" >&2; exit 2; };;
        *) echo "cluster.sh: unknown flag '$1' (--help lists them)" >&2; exit 2;;
    esac
    case "$1" in
        --port) PORT=$2;; --host) HOST=$2;; --nodes) NODES=$2;; --node-ports) NODE_PORTS=$2;;
        --lease) LEASE=$2;; --logs) LOGS=$2;; --log-format) LOG_FORMAT=$2;;
        --node-options) NODE_OPTIONS=$2;;
        --build) BUILD=$2;; --chartered) CHARTERED=$2;;
    esac
    shift 2
done
PORT=${PORT:-8080}
HOST=${HOST:-127.0.0.1}
NODES=${NODES:-2}
LEASE=${LEASE:-6}
BUILD=${BUILD:-build}
NODE_OPTIONS=${NODE_OPTIONS:-}
LOG_FORMAT=${LOG_FORMAT:-text}
case "$LOG_FORMAT" in text|logfmt|json) ;; *) echo "cluster.sh: LOG_FORMAT must be text, logfmt or json, not '$LOG_FORMAT'" >&2; exit 2;; esac
case "$NODES" in 2|3) ;; *) echo "cluster.sh: NODES must be 2 or 3, not '$NODES'" >&2; exit 2;; esac
is_port() { [[ "$1" =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le 65535 ]; }
is_port "$PORT" || { echo "cluster.sh: PORT must be 1 to 65535, not '$PORT'" >&2; exit 2; }
read -r -a NPORTS <<<"${NODE_PORTS:-}"
if [ "${#NPORTS[@]}" -gt 0 ]; then
    [ "${#NPORTS[@]}" = "$NODES" ] ||
        { echo "cluster.sh: NODE_PORTS has ${#NPORTS[@]} ports for $NODES nodes" >&2; exit 2; }
    for p in "${NPORTS[@]}"; do
        is_port "$p" || { echo "cluster.sh: NODE_PORTS: '$p' is not a port" >&2; exit 2; }
        [ "$p" != "$PORT" ] || { echo "cluster.sh: NODE_PORTS: $p is HAProxy's port" >&2; exit 2; }
    done
fi
if [ -n "${LOGS:-}" ]; then
    mkdir -p "$LOGS"
    LOGS=$(cd "$LOGS" && pwd)
fi

if [ -n "${CHARTERED:-}" ]; then
    [ -x "$CHARTERED" ] || { echo "cluster.sh: $CHARTERED is not a program" >&2; exit 2; }
    BIN=$(cd "$(dirname "$CHARTERED")" && pwd)/$(basename "$CHARTERED")
else
    if [ "$(id -u)" = 0 ]; then bash scripts/install-deps.sh; fi
    if [ ! -x "$BUILD/chartered" ] || [ -z "${NO_BUILD:-}" ]; then
        cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
        cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)" --target chartered_cli >/dev/null
    fi
    BIN=$SRC/$BUILD/chartered
fi

WORK=$(mktemp -d /tmp/chartered-cluster-XXXXXX)
chmod 755 "$WORK"
LOGS=${LOGS:-$WORK}
PIDS=()
stop_all() {
    trap - INT TERM EXIT
    echo
    echo "stopping the nodes, HAProxy and PostgreSQL"
    # SIGTERM: each node commits what is pending and hands its games back
    for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
    python3 tests/support/pgtmp.py stop "$WORK/pg" >/dev/null 2>&1 || true
    if [ "$LOGS" != "$WORK" ] && [ -f "$WORK/pg/postgres.log" ]; then
        cp "$WORK/pg/postgres.log" "$LOGS/postgres.log"
    fi
    if [ -n "${KEEP:-}" ]; then echo "kept: $WORK"; else rm -rf "$WORK"; fi
    if [ "$LOGS" != "$WORK" ]; then echo "logs: $LOGS"; fi
}
trap stop_all INT TERM EXIT

echo "starting PostgreSQL in $WORK/pg (Unix socket only)"
CONNINFO=$(python3 tests/support/pgtmp.py start "$WORK/pg")
URL=$(python3 tests/support/pgtmp.py url "$WORK/pg")
# the games: PostgreSQL when this build has its back end (the leases and
# events then in the same database: --cluster on), else one SQLite file the
# nodes share (one machine only) and the leases in PostgreSQL
if "$BIN" serve --help | grep -A2 -E '^ +--db ' | grep -qi postgres; then
    DB=$URL; CLUSTER=on
else
    DB=$WORK/games.db; CLUSTER=$CONNINFO
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
NAMES=(a b c)
RULES=""
SERVERS=""
read -r -a NODE_OPTS <<<"$NODE_OPTIONS"
for i in $(seq 0 $((NODES - 1))); do
    n=${NAMES[$i]}
    p=${NPORTS[$i]:-$(free_port)}
    # --trust-proxy: HAProxy (option forwardfor) says who the client is, so
    # the per-address limits count each client, not HAProxy. A node's log
    # (standard error) and its start line (standard output: the same file,
    # so written once) go to one file.
    "$BIN" serve --host 127.0.0.1 --port "$p" --db "$DB" --node "$n" --cluster "$CLUSTER" \
        --lease-seconds "$LEASE" --trust-proxy --log-format "$LOG_FORMAT" \
        ${NODE_OPTS[@]+"${NODE_OPTS[@]}"} >>"$LOGS/$n.log" 2>&1 &
    pid=$!
    PIDS+=($pid)
    RULES+="    use-server $n if { url_param(node) -m str $n }"$'\n'
    SERVERS+="    server $n 127.0.0.1:$p"$'\n'
    echo "node $n: pid $pid, http://127.0.0.1:$p/api/health, log $LOGS/$n.log"
    # its start line before the next node (bounded: 60 s): the log then
    # reads in order (nodes started at once wait for the first's tables)
    for _ in $(seq 1 600); do
        grep -q "serving on" "$LOGS/$n.log" 2>/dev/null && break
        kill -0 "$pid" 2>/dev/null || { echo "node $n stopped; its log:"; tail -n 20 "$LOGS/$n.log"; exit 1; }
        sleep 0.1
    done
done
NOFILE=$(ulimit -Hn)
[ "$NOFILE" = unlimited ] && NOFILE=40000
MAXCONN=$(( (NOFILE - 200) / 2 )); [ "$MAXCONN" -gt 20000 ] && MAXCONN=20000
python3 - "$SRC/packaging/haproxy.cfg.in" "$WORK/haproxy.cfg" "$HOST:$PORT" "$MAXCONN" \
    "$RULES" "$SERVERS" <<'EOF'
import sys
src, out, bind, maxconn, rules, servers = sys.argv[1:7]
t = open(src).read()
# the access log (option httplog) on standard output: LOGS/haproxy.log
glob = "    maxconn " + maxconn + "\n    log stdout format raw local0"
t = (t.replace("@HAPROXY_GLOBAL@", glob).replace("@HAPROXY_BIND@", bind)
     .replace("@HAPROXY_RULES@", rules.rstrip("\n"))
     .replace("@HAPROXY_SERVERS@", servers.rstrip("\n")))
open(out, "w").write(t)
EOF
haproxy -c -q -f "$WORK/haproxy.cfg"
haproxy -f "$WORK/haproxy.cfg" -db >>"$LOGS/haproxy.log" 2>&1 &
PIDS+=($!)
echo "HAProxy: pid $!, $WORK/haproxy.cfg, log $LOGS/haproxy.log"
# wait until every node and HAProxy answer (bounded)
up=
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
    then up=1; break; fi
    for p in "${PIDS[@]}"; do
        kill -0 "$p" 2>/dev/null || { echo "a process stopped; its log:"; tail -n 20 "$LOGS"/*.log; exit 1; }
    done
    sleep 0.1
done
[ -n "$up" ] || { echo "the nodes are not reachable through HAProxy after 30 s; the logs:"; tail -n 20 "$LOGS"/*.log; exit 1; }
echo
echo "Open http://localhost:$PORT/ in a browser: $NODES nodes behind HAProxy (Ctrl-C stops everything)."
echo "Each node's health: http://localhost:$PORT/api/health?node=a (b, c); logs in $LOGS"
# until Ctrl-C (a node killed to try a failover does not end this)
wait "${PIDS[-1]}" || true
