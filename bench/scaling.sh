#!/usr/bin/env bash
# scaling.sh: the scaling curves of docs/performance.md, printed as tables.
#   1. engine cost against player count: `chartered bench` (random playouts,
#      one thread) for Building Amsterdam with 2-5 players and The Golden Age
#      with 2-6, in decisions and games per CPU second, decisions per game and
#      nanoseconds of CPU per decision;
#   2. ISMCTS iterations against threads: `bench_ismcts --threads-curve`
#      (root-parallel trees, one middle position per edition);
#   3. the server's moves per second against connections: for each of
#      CONNS (default 1000 4000 8000 16000) a fresh `chartered serve`
#      (SQLite, --sync full, a fresh database, loopback) and `bench/loadgen`
#      with CONNS/4 games of 4 clients, SERVER_WARMUP s of warm-up then
#      SERVER_SECONDS measured: moves/s, p50/p99 latency, the moves the
#      server throttled (its per-connection move rate limit; the load
#      generator sends them again 0.1 s later), the server's CPU (cores, and
#      per move), the load generator's own CPU per move (it shares the
#      machine) and the server's memory per client.
# A benchmark, not a test: it prints figures and judges nothing. CPU time is
# used where the tools report it, so other programs on a shared machine
# disturb the engine figures less than the wall clock would; the ISMCTS curve
# is in wall-clock iterations per second (a search has a wall-clock budget),
# so it shows what the machine's free cores allow.
# Each point of curves 1 and 2 takes its few seconds; each server point takes
# SERVER_WARMUP + SERVER_SECONDS (13 s) measured, after its set-up (the games,
# one guest session per client, each a durable write on the server's writer
# thread, 16 requests at a time, and the connections: 116 s at 16,000
# connections at load 10 on 2 cores, less on a quiet machine; printed in the
# table), and is stopped after SERVER_LIMIT s (default 420) whatever happens.
# A server point needs CONNS + 256 open files in each of the two processes
# (both raise their soft limit to the hard one): a point the hard limit
# (`ulimit -Hn`) does not allow is not run, and says so; so is a point whose
# PORT another program already serves.
# Usage: bash bench/scaling.sh [BUILD_DIR]   (default build; a Release build
#   such as build-rel gives the figures of docs/performance.md)
# Environment: SECONDS_PER (default 3; seconds per engine measurement),
# ISMCTS_SECONDS (default 2), THREADS (default 4; the largest thread count),
# PLAYOUT (default fast; greedy, fast or random), CONNS (default
# "1000 4000 8000 16000"), SERVER_SECONDS (default 10), SERVER_WARMUP
# (default 3), THINK (default 0: each client answers at once, so the server
# is saturated; 390 is issue 14's demand), PORT (default 18931),
# SERVER_ARGS (more options for `chartered serve`, e.g. "--send-thread off"
# to compare the frames sent by the event loop with the sender thread's),
# SKIP (any of engine, ismcts, server, separated by spaces or commas).
set -euo pipefail
BUILD=${1:-build}
SECONDS_PER=${SECONDS_PER:-3}
ISMCTS_SECONDS=${ISMCTS_SECONDS:-2}
THREADS=${THREADS:-4}
PLAYOUT=${PLAYOUT:-fast}
CONNS=${CONNS:-1000 4000 8000 16000}
SERVER_SECONDS=${SERVER_SECONDS:-10}
SERVER_WARMUP=${SERVER_WARMUP:-3}
SERVER_LIMIT=${SERVER_LIMIT:-420}
THINK=${THINK:-0}
PORT=${PORT:-18931}
SERVER_ARGS=${SERVER_ARGS:-}
SKIP=" ${SKIP:-} "
SKIP=${SKIP//,/ }
skipped() { [[ "$SKIP" == *" $1 "* ]]; }
BIN="$BUILD/chartered"
BENCH="$BUILD/bench/bench_ismcts"
LOADGEN="$BUILD/bench/loadgen"
for f in "$BIN" "$BENCH" "$LOADGEN"; do
    [ -x "$f" ] || { echo "scaling.sh: $f is missing (build the project first)" >&2; exit 2; }
done
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
echo

if ! skipped engine; then
    echo "1. Engine cost against player count ($BIN bench --seconds $SECONDS_PER --players N, one thread)"
    printf '%-18s %7s | %12s %10s %11s %12s %8s\n' edition players "dec/CPU-s" "ns/dec" "dec/game" "games/CPU-s" "allocs"
    for ed in amsterdam golden-age; do
        max=5
        [ "$ed" = golden-age ] && max=6
        for np in $(seq 2 "$max"); do
            "$BIN" bench --edition "$ed" --players "$np" --seconds "$SECONDS_PER" --json |
                python3 -c '
import json, sys
r = json.load(sys.stdin)
ed = "Building Amsterdam" if r["edition"] == "amsterdam" else "The Golden Age"
d = r["decisions_per_cpu_second"]
a = r["allocations_per_game"]
alloc = "n/a" if a is None else "%.2f" % a
print("%-18s %7d | %12s %10.0f %11.1f %12s %8s" % (ed, r["players"], format(round(d), ","),
      1e9 / d if d else 0, r["avg_decisions"], format(round(r["games_per_cpu_second"]), ","), alloc))'
        done
    done
    echo
fi

if ! skipped ismcts; then
    echo "2. ISMCTS iterations against threads ($BENCH --threads-curve $THREADS --playout $PLAYOUT --seconds $ISMCTS_SECONDS)"
    "$BENCH" --threads-curve "$THREADS" --playout "$PLAYOUT" --seconds "$ISMCTS_SECONDS"
    echo
fi

if ! skipped server; then
    command -v curl >/dev/null || { echo "scaling.sh: curl is missing (scripts/install-deps.sh)" >&2; exit 2; }
    echo "3. Server moves/s against connections (CHARTERED_AUTH_LIMITS=10,200,0 $BIN serve --sync full${SERVER_ARGS:+ $SERVER_ARGS}, a fresh SQLite database;"
    echo "   $LOADGEN --games CONNS/4 --warmup $SERVER_WARMUP --seconds $SERVER_SECONDS --think $THINK --frames patch)"
    hard=$(ulimit -Hn)
    soft=$(ulimit -Sn)
    echo "   open files: soft limit $soft, hard limit $hard (each process raises its soft limit to the hard one)"
    printf '%11s %6s | %8s %9s %9s %9s | %11s %9s | %9s | %8s | %7s\n' connections games "moves/s" "p50 ms" "p99 ms" \
        throttled "server cores" "ms/move" "lg ms/move" "KiB/conn" "setup s"
    tmp=$(mktemp -d)
    spid=
    stop_server() {
        if [ -n "$spid" ]; then
            kill "$spid" 2>/dev/null || true
            wait "$spid" 2>/dev/null || true
            spid=
        fi
    }
    trap 'stop_server; rm -rf "$tmp"' EXIT
    for conns in $CONNS; do
        games=$((conns / 4))
        need=$((conns + 256))
        if [ "$hard" != unlimited ] && [ "$hard" -lt "$need" ]; then
            printf '%11s %6s | not run: %s connections need %s open files per process, the hard limit is %s (raise it: ulimit -Hn, /etc/security/limits.conf, or systemd LimitNOFILE)\n' \
                "$conns" "$games" "$conns" "$need" "$hard"
            continue
        fi
        if curl -s -o /dev/null "http://127.0.0.1:$PORT/"; then
            printf '%11s %6s | not run: port %s is already served by another program (set PORT)\n' \
                "$conns" "$games" "$PORT"
            continue
        fi
        rm -f "$tmp"/lg.db*
        CHARTERED_AUTH_LIMITS=10,200,0 "$BIN" serve --port "$PORT" --host 127.0.0.1 --db "$tmp/lg.db" \
            --quiet --sync full $SERVER_ARGS >"$tmp/srv.log" 2>&1 &
        spid=$!
        up=
        for _ in $(seq 100); do
            curl -s -o /dev/null "http://127.0.0.1:$PORT/api/health" && { up=1; break; }
            kill -0 "$spid" 2>/dev/null || break
            sleep 0.2
        done
        if [ -z "$up" ]; then
            printf '%11s %6s | not run: the server did not start on port %s (%s)\n' "$conns" "$games" "$PORT" \
                "$(tail -1 "$tmp/srv.log")"
            stop_server
            continue
        fi
        rc=0
        timeout "$SERVER_LIMIT" "$LOADGEN" --port "$PORT" --games "$games" --seconds "$SERVER_SECONDS" \
            --warmup "$SERVER_WARMUP" --think "$THINK" --server-pid "$spid" --frames patch \
            >"$tmp/lg.log" 2>&1 || rc=$?
        stop_server
        if [ "$rc" = 124 ]; then
            printf '%11s %6s | stopped after SERVER_LIMIT=%s s; set-up reached: %s\n' "$conns" "$games" \
                "$SERVER_LIMIT" "$(grep -E '^(created|opened|connected) ' "$tmp/lg.log" | paste -sd ';' -)"
            continue
        elif [ "$rc" != 0 ]; then
            printf '%11s %6s | failed (exit %s): %s\n' "$conns" "$games" "$rc" \
                "$(grep -m1 'loadgen:' "$tmp/lg.log" || tail -1 "$tmp/lg.log")"
            continue
        fi
        python3 - "$conns" "$games" "$tmp/lg.log" <<'PY'
import re, sys
conns, games, path = sys.argv[1], sys.argv[2], sys.argv[3]
t = open(path).read()
def f(pat, default="?"):
    m = re.search(pat, t)
    return m.group(1) if m else default
setup = sum(float(x) for x in re.findall(r"^(?:created|opened|connected) .* in ([0-9.]+) s", t, re.M))
held = f(r"connections held: (\d+) of")
cpu, el = f(r"server CPU: ([0-9.]+) s in ([0-9.]+) s"), f(r"server CPU: [0-9.]+ s in ([0-9.]+) s")
cores = "%.2f" % (float(cpu) / float(el)) if cpu != "?" and float(el) > 0 else "?"
note = "" if held == conns else "  (held %s of %s)" % (held, conns)
print("%11s %6s | %8s %9s %9s %9s | %11s %9s | %9s | %8s | %7.0f%s" % (
    format(int(conns), ","), games, f(r"= (\d+) moves/s"), f(r"p50 ([0-9.]+) ms"), f(r"p99 ([0-9.]+) ms"),
    f(r"rate limited (\d+)\)"),
    cores, f(r"; ([0-9.]+) ms CPU per move"), f(r"; ([0-9.]+) ms per move"),
    f(r"per client ([0-9.]+) KiB \(total"), setup, note))
PY
    done
    echo "   load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
