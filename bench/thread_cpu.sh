#!/usr/bin/env bash
# thread_cpu.sh: the CPU each thread of `chartered serve` spends per move
# (user and system time apart), under bench/loadgen's load: 2,000 games x 4
# clients, --think 390, SQLite --sync full. The 10 s window starts 5 s after
# the load generator has connected every client (its warmup); each thread's
# time over it (/proc/PID/task/*/stat) is divided by the moves stored in it
# (/api/health). Adapted from the coordinator's lgthr.sh of 2026-11-25.
# A benchmark: it prints figures and judges nothing. Seconds depend on the
# machine's load (print /proc/loadavg beside them); alternate the builds
# compared, several runs each.
# Usage: bash bench/thread_cpu.sh BUILD_DIR PORT [patch|full] [THINK_MS] [LOADGEN]
#   BUILD_DIR/chartered serves; LOADGEN defaults to BUILD_DIR/bench/loadgen.
set -u
b=$1; port=$2; frames=${3:-patch}; think=${4:-390}; lg_bin=${5:-$b/bench/loadgen}
tmp=$(mktemp -d)
CHARTERED_AUTH_LIMITS=10,200,0 "$b/chartered" serve --port "$port" --host 127.0.0.1 \
    --db "$tmp/lg.db" --quiet --sync full >"$tmp/srv.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/api/health" && break; sleep 0.2; done
echo "== $b frames=$frames think=$think load: $(cut -d' ' -f1-3 /proc/loadavg) $(date -u +%T)"
snap() { for t in /proc/$pid/task/*; do echo "$(basename "$t") $(tr ' ' _ <"$t/comm") $(awk '{print $14, $15}' "$t/stat")"; done; }
moves() { curl -s "http://127.0.0.1:$port/api/health" | sed 's/.*"moves":\([0-9]*\).*/\1/'; }
: >"$tmp/lg.log"
"$lg_bin" --port "$port" --games 2000 --seconds 20 --warmup 5 --think "$think" \
    --server-pid "$pid" --frames "$frames" >"$tmp/lg.log" 2>&1 &
lg=$!
for _ in $(seq 1200); do grep -q '^connected' "$tmp/lg.log" && break; sleep 0.1; done
sleep 5
m0=$(moves); snap >"$tmp/a"; sleep 10; snap >"$tmp/b"; m1=$(moves)
wait $lg
grep -E "moves/s|latency|CPU|state frames" "$tmp/lg.log"
n=$((m1 - m0))
echo "moves stored in the 10 s window: $n (the event loop is the thread whose id is the server's pid, $pid)"
join <(sort "$tmp/a") <(sort "$tmp/b") | awk -v n="$n" '{u=($6-$3)/100; s=($7-$4)/100; if (u+s>0.02) printf "thread %s %-16s user %.2f s sys %.2f s = user %.1f us + sys %.1f us per move\n", $1, $2, u, s, u*1e6/n, s*1e6/n}' | sort -k5 -rn
