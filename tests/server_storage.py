"""server_storage.py: `chartered serve` while its database cannot write
(issue 19, defect 4: with the file size limited the bots retried about 5,000
times a second, the log got 500 lines a second even with --quiet, and the
health counter counted moves that were never stored).

Games of bots only are playing; then the server's file-size limit is set
to one byte (prlimit RLIMIT_FSIZE on the running process: every write to
the database fails with EFBIG). For a window of WINDOW seconds:
- the server stays up (no SIGXFSZ death);
- failed commits ("storage_failures" in /api/health) grow, but boundedly:
  an exponential backoff, not thousands a second;
- "moves" in /api/health does not grow (it counts stored moves only);
- standard error gets at most a few lines, none with --quiet.
Then the limit is lifted: play resumes within the backoff cap, one summary
line says the database takes writes again, and "moves" never exceeds the
moves the database holds. Run once with --quiet and once without.

Under CHARTERED_TEST_PG=1 (the pg_ variant, docs/storage.md) the database is
PostgreSQL and the fault is PostgreSQL itself going away: it is stopped for
the window (every commit fails, the link is lost) and started again, and the
server connects again by itself.

usage: python3 server_storage.py BINARY SRCDIR WORKDIR
"""
import os
import resource
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (http_json, check, finish, test_args, db_target, sql_rows,  # noqa: E402
                      pg_mode, _pg_server)

BIN, SRC, WORK = test_args()
WINDOW = 3.0          # seconds of failing writes observed
CAP_MS = 800          # the backoff's cap in this test (CHARTERED_STORAGE_BACKOFF_MAX_MS)
MAX_FAILS = 20        # failed commits allowed in the window (100+200+400+800... ms: ~6)


def start(db, quiet):
    env = dict(os.environ, CHARTERED_STORAGE_BACKOFF_MAX_MS=str(CAP_MS))
    args = [BIN, "serve", "--host", "127.0.0.1", "--port", "0", "--db", db_target(db)]
    if quiet:
        args.append("--quiet")
    # standard error through a pipe: a pipe is not bound by the file-size limit
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    line = p.stdout.readline().decode()
    check("serving on" in line, f"the server starts: {line!r}")
    port = int(line.split("/")[2].rsplit(":", 1)[1])
    lines = []  # (time, text) of every line on standard error

    def reader():
        for raw in p.stderr:
            lines.append((time.time(), raw.decode(errors="replace").rstrip()))
    threading.Thread(target=reader, daemon=True).start()
    return p, port, lines


def health(port):
    st, h = http_json(port, "GET", "/api/health")
    check(st == 200, f"health answers: {st}")
    return h


def stored_moves(db):
    return int(sql_rows(db, "SELECT count(*) FROM moves")[0][0])


def fault(p, on):
    """Make every write of server p fail (on) or work again (off)."""
    if pg_mode():
        if on:
            _pg_server().stop()
        else:
            _pg_server().start()
        return
    lim = (1, resource.RLIM_INFINITY) if on else (resource.RLIM_INFINITY, resource.RLIM_INFINITY)
    resource.prlimit(p.pid, resource.RLIMIT_FSIZE, lim)


def wait_for(pred, timeout, what):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.1)
    check(False, what)
    return None


def run(quiet):
    tag = "--quiet" if quiet else "verbose"
    db = os.path.join(WORK, f"storage-{'q' if quiet else 'v'}.db")
    p, port, lines = start(db, quiet)
    bots = [{"kind": "bot", "bot": "ismcts", "strength": 1}] * 4
    for _ in range(3):
        st, g = http_json(port, "POST", "/api/games", {"edition": "amsterdam", "players": 4,
                                                       "seats": bots})
        check(st == 201, f"{tag}: create a bot game: {st} {g}")
    wait_for(lambda: health(port)["moves"] >= 5, 60, f"{tag}: the bots play")
    # ---- the database can no longer write ----
    fault(p, True)
    wait_for(lambda: health(port).get("storage_failures", 0) >= 1, 30,
             f"{tag}: a write fails under the file-size limit (PostgreSQL: stopped)")
    h0, t0, l0 = health(port), time.time(), len(lines)
    time.sleep(WINDOW)
    h1, t1, l1 = health(port), time.time(), len(lines)
    check(p.poll() is None, f"{tag}: the server runs on (exit {p.poll()})")
    fails = h1.get("storage_failures", 0) - h0.get("storage_failures", 0)
    # an upper bound only: how many attempts fall in the window depends on
    # how fast the bots think (a sanitizer build is slow); that writes fail
    # at all was seen above
    check(fails <= MAX_FAILS,
          f"{tag}: {fails} failed commits in {t1 - t0:.1f} s (backoff: at most {MAX_FAILS})")
    check(h1["moves"] == h0["moves"], f"{tag}: 'moves' grew from {h0['moves']} to {h1['moves']} "
          "while nothing could be stored")
    window_lines = [t for _, t in lines[l0:l1]]
    check(len(window_lines) <= (0 if quiet else 2),
          f"{tag}: {len(window_lines)} log lines in {WINDOW} s: {window_lines[:5]}")
    # ---- writes work again ----
    fault(p, False)
    m1 = h1["moves"]
    wait_for(lambda: health(port)["moves"] > m1, 30 + CAP_MS / 1000,
             f"{tag}: play resumes once the database writes again")
    wait_for(lambda: any("takes writes again" in t for _, t in lines), 10,
             f"{tag}: a summary line says the database takes writes again")
    h2 = health(port)
    check(h2["moves"] <= stored_moves(db),
          f"{tag}: health counts {h2['moves']} moves, the database holds {stored_moves(db)}")
    p.terminate()
    p.wait(timeout=60)
    # 0: a clean stop (a sanitizer build reports leaks and errors with another status)
    check(p.returncode == 0, f"{tag}: the server stops cleanly (status {p.returncode}): "
          f"{[t for _, t in lines][-20:]}")
    # the warnings and errors (the log's info lines, of games made and of the
    # start and stop, are the test's own doing)
    warned = [t for _, t in lines if " warn " in t or " error " in t]
    # besides the outage's own lines, the outage may meet the session sweep
    # (its first run is at the start, a job of the writer thread: on a loaded
    # machine it once ran as PostgreSQL stopped), which says once that it
    # could not delete now, with libpq's notice of the connection PostgreSQL
    # terminated under it; neither repeats with the failed writes, so they are
    # counted apart, at most once each (CI's path on 5c612be met them)
    met = [t for t in warned if "expired sessions could not be deleted" in t
           or "terminating connection due to administrator command" in t]
    total = len(warned) - len(met)
    check(total <= (2 if quiet else 6) and len(met) <= 2,
          f"{tag}: {total} warnings and errors in all, {len(met)} from a sweep that met "
          f"the outage: {[t for _, t in lines][:8]}")
    print(f"{tag}: {fails} failed commits in {t1 - t0:.1f} s of refused writes, "
          f"{len(window_lines)} log lines; {total} lines in all", flush=True)


run(quiet=True)
run(quiet=False)
finish("storage: bounded retries and log lines while the database cannot write")
