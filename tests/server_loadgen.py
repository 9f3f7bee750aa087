"""server_loadgen.py: bench/loadgen plays against `chartered serve` and its
figures are true (bench/loadgen.c, docs/performance.md). Bounded: a few games
for a few seconds per run.

- At once (--think 0), with patches: every client connects and is held,
  moves are counted, one latency sample per move counted, and the only
  errors are stale or throttled moves (a move that is not legal would be
  `illegal_move`: the load generator reads the `legal` array in place, so a
  misread move shows here); the server stored at least the moves counted.
- With a think time (--think 40: moves wait in the load generator's heap of
  due moves): the same.
- With whole views (--frames full): the same, and the state frames are far
  larger than patches.
- A flag without its value, an unknown flag: exit status 2.
- The server's loop statistics (CHARTERED_LOOP_STATS, src/server/net/loopstats.c)
  of a run at once: written at the stop, and they add up (a latency sample
  per state frame, at least one per move counted; the moves stored, counted
  in each second's line, add up to the server's count; commits no more than
  the games' batches handed over, those no more than the moves; every
  section of the loop named).
- The WAL's checkpoints run beside the writer's commits (db_sqlite.c,
  db_checkpoint_aside): the server has its checkpoint thread, the database
  file grows while the server runs (the WAL's pages are copied back into
  it), and the WAL stays bounded.

usage: python3 server_loadgen.py BINARY SRCDIR WORKDIR
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
LOADGEN = os.path.join(os.path.dirname(os.path.abspath(BIN)), "bench", "loadgen")
if not os.access(LOADGEN, os.X_OK):
    print(f"FAIL: {LOADGEN} is missing (built with the project)")
    sys.exit(1)
GAMES = 6
os.environ["CHARTERED_AUTH_LIMITS"] = "10,200,0"  # one guest session per client


def run(name, *args, stats=None, before=None, after=None, env=None):
    """One fresh server and one loadgen run; its output and the server's
    stored moves. stats: CHARTERED_LOOP_STATS for the server; env: more
    variables for the server; before(srv), after(srv): called before loadgen
    starts and once it is done, the server still running."""
    srv = Server(BIN, os.path.join(WORK, name + ".db"),
                 extra=["--sync", "normal"])
    os.environ.pop("CHARTERED_LOOP_STATS", None)
    if stats:
        os.environ["CHARTERED_LOOP_STATS"] = stats
    os.environ.update(env or {})
    try:
        srv.start()
    finally:
        for k in ["CHARTERED_LOOP_STATS"] + list(env or {}):
            os.environ.pop(k, None)
    try:
        if before:
            before(srv)
        p = subprocess.run([LOADGEN, "--port", str(srv.port), "--games", str(GAMES),
                            "--seconds", "3", "--warmup", "1",
                            "--server-pid", str(srv.proc.pid)] + list(args),
                           capture_output=True, text=True, timeout=120)
        st, health = http_json(srv.port, "GET", "/api/health")
        if after:
            after(srv)
    finally:
        srv.stop()
    out = p.stdout + p.stderr
    check(p.returncode == 0, f"{name}: loadgen exit {p.returncode}: {out}")
    return out, health.get("moves", 0) if st == 200 else -1


def number(text, pat, what):
    """The number pat's group 1 matches in text; a failed check saying what (the text) when none."""
    m = re.search(pat, text)
    check(m is not None, f"{what}: no line matching {pat!r} in:\n{text}")
    return float(m.group(1)) if m else 0


def figures(name, out, stored):
    def num(pat):
        return number(out, pat, name)
    held = num(r"connections held: (\d+) of")
    moves = num(r"broadcast: (\d+) in")
    samples = num(r"max [0-9.]+ ms \((\d+) samples\)")
    errors = num(r"errors (\d+) \(")
    stale = num(r"\(stale (\d+),")
    limited = num(r"rate limited (\d+)\)")
    median = num(r"median (\d+) bytes")
    lg_cpu = num(r"loadgen CPU: ([0-9.]+) s")
    check(held == 4 * GAMES, f"{name}: {held:.0f} of {4 * GAMES} connections held")
    check(moves > 0, f"{name}: no move counted")
    check(samples == moves, f"{name}: {samples:.0f} latency samples for {moves:.0f} moves")
    check(errors == stale + limited,
          f"{name}: errors other than stale or throttled moves: {out}")
    check(stored >= moves, f"{name}: the server stored {stored} moves, loadgen counted {moves:.0f}")
    check(lg_cpu > 0, f"{name}: loadgen CPU {lg_cpu} (its own clock, to the nanosecond)")
    return moves, median


m0, med_patch = figures("at-once", *run("at-once", "--think", "0", "--frames", "patch"))
m1, _ = figures("think", *run("think", "--think", "40", "--frames", "patch"))
m2, med_full = figures("full", *run("full", "--think", "0", "--frames", "full"))
check(med_full > 4 * med_patch,
      f"whole views ({med_full:.0f} bytes) are not far larger than patches ({med_patch:.0f})")


def loop_stats(path, moves, stored):
    """The report of CHARTERED_LOOP_STATS adds up with loadgen's figures."""
    check(os.path.exists(path), f"loop statistics: {path} was not written")
    if not os.path.exists(path):
        return
    text = open(path, encoding="utf-8").read()
    def num(pat):
        return number(text, pat, "loop statistics")
    total = num(r"s, (\d+) moves stored")
    iters = num(r"stage loop iteration \(busy\)\s+n (\d+)")
    handed = num(r"stage move read -> commit handed over\s+n (\d+)")
    commits = num(r"stage commit round trip\s+n (\d+)")
    frames = num(r"stage move read -> state frame written\s+n (\d+)")
    busy = num(r"^busy ([0-9.]+) s".replace("^", "(?m)^"))
    check(total >= stored, f"loop statistics: {total:.0f} moves stored, health said {stored}")
    check(iters > 0 and busy > 0, f"loop statistics: {iters:.0f} iterations, {busy} s busy")
    check(0 < commits <= handed <= total, f"loop statistics: {commits:.0f} commits for "
          f"{handed:.0f} games' batches and {total:.0f} moves")
    check(frames >= moves, f"loop statistics: {frames:.0f} state frames timed for {moves:.0f} "
          "moves counted by loadgen")
    per_s = sum(int(m) for m in re.findall(r"(?m)^second \d+ moves (\d+) ", text))
    check(per_s == total, f"loop statistics: the seconds' lines hold {per_s} moves, "
          f"{total:.0f} stored")
    for sec in ("read frames (receive)", "workers' results (drain)", "flush of frames",
                "commit hand-over", "tick: turn timers", "tick: limits", "other"):
        check(f"section {sec}" in text, f"loop statistics: no section {sec!r}")


sizes = {}


def db_sizes(srv):
    return tuple(os.path.getsize(srv.db + ext) if os.path.exists(srv.db + ext) else 0
                 for ext in ("", "-wal"))


def at_start(srv):
    sizes["start"] = db_sizes(srv)


def at_end(srv):
    sizes["end"] = db_sizes(srv)
    names = []
    for tid in os.listdir(f"/proc/{srv.proc.pid}/task"):
        try:
            names.append(open(f"/proc/{srv.proc.pid}/task/{tid}/comm").read().strip())
        except OSError:
            pass
    sizes["threads"] = names


stats_path = os.path.join(WORK, "loop-stats.txt")
# a checkpoint due every 50 pages of WAL (the default is 1,000, about 4 MB):
# a few dozen moves call for one, so a slow machine's 3 seconds still do
out3, stored3 = run("stats", "--think", "0", "--frames", "patch", stats=stats_path,
                    before=at_start, after=at_end, env={"CHARTERED_WAL_PAGES": "50"})
check("chartered-ckpt" in sizes.get("threads", []),
      f"no checkpoint thread in the server: {sizes.get('threads')}")
(db0, _), (db1, wal1) = sizes.get("start", (0, 0)), sizes.get("end", (0, 0))
check(db1 > db0, f"the database file did not grow while the server ran ({db0} -> {db1} "
      f"bytes, WAL {wal1}): no checkpoint")
check(wal1 < 64 << 20, f"the WAL grew to {wal1} bytes: checkpoints do not keep up")
print(f"database file {db0} -> {db1} bytes while running, WAL {wal1} bytes")
m3, _ = figures("stats", out3, stored3)
loop_stats(stats_path, m3, stored3)

for bad in (["--games"], ["--gmaes", "3"], ["--frames", "both"]):
    p = subprocess.run([LOADGEN] + bad, capture_output=True, text=True, timeout=30)
    check(p.returncode == 2 and p.stderr, f"loadgen {bad}: exit {p.returncode}, {p.stderr!r}")

finish(f"server_loadgen: {m0:.0f} moves at once, {m1:.0f} with think time, "
       f"{m2:.0f} with whole views; frames {med_patch:.0f} bytes (patch) against "
       f"{med_full:.0f} (full)")
