"""server_damaged.py: the start of `chartered serve` on a damaged or read-only
database (issue 19, defect 5: a corrupted database resumed partly and
silently: one game "not resumed", another dropped without a word, "2 games
loaded"; and a read-only database started without a warning, then answered
500 to every creation).

Four unfinished games are played a little over real sockets, the server is
stopped, and copies of its database are damaged:
- logically: one game's setup is not JSON, another's stored move is not a
  move. The server refuses to start (exit 1), names both games with their
  reasons and says how to go on (--skip-damaged). With --skip-damaged it
  serves exactly the two good games, and still names the two bad ones;
- physically: pages of the games table are overwritten. The server refuses to
  start and says the database is damaged; with --skip-damaged it starts;
- read-only: the file cannot be written, in a folder that can (the case
  SQLite opens read-only without a word), and then the folder neither (the
  server runs as "nobody" when the test runs as root, else the file and
  folder lose their write bits). The server refuses to start and says the
  database cannot be written.

With CHARTERED_TEST_PG=1 (CTest's pg_server_damaged) the same runs on
PostgreSQL (docs/storage.md): the logical damage is written with SQL into
copies of the database (CREATE DATABASE ... TEMPLATE), and the damaged rows
are checked to be left exactly as they were by the refused start and by the
--skip-damaged one; PostgreSQL checks its own pages, so the physical case is
SQLite's only; read-only is a database whose transactions are read-only
(default_transaction_read_only).

usage: python3 server_damaged.py BINARY SRCDIR WORKDIR
"""
import os
import random
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, http_json, pick_move, check, finish, test_args,  # noqa: E402
                      pg_mode, db_target, db_copy, sql_rows, sql_exec)

BIN, SRC, WORK = test_args()
rng = random.Random(5)
db = os.path.join(WORK, "good.db")
srv = Server(BIN, db).start()
ids = []
for i in range(4):
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2,
        "seats": [{"kind": "human", "name": f"P{i}"}, {"kind": "bot", "bot": "random"}]})
    check(st == 201, f"create game {i}: {st} {g}")
    gid, tok = g["id"], g["seats"][0]["token"]
    ids.append(gid)
    ws = srv.ws()
    ws.send({"type": "join", "game": gid, "token": tok})
    made = 0
    mine = lambda m: m["type"] == "state" and 0 in m["deciders"] and m["legal"]
    m = ws.recv_until(mine)
    while made < 3:
        d = m["decision"]
        # never "pass" when something else is legal: the random bot passes
        # too, and a round of passes ends the game at decision 6 in
        # one deal in four or so; these games must stay unfinished
        legal = [x for x in m["legal"] if x != "pass"] or m["legal"]
        ws.send({"type": "move", "move": pick_move(legal, rng), "decision": d})
        # count the move only once it is acknowledged (a state past its
        # decision): a presence push of the old decision can make it stale
        r = ws.recv_until(lambda x: x["type"] == "error" or
                          (x["type"] == "state" and x["decision"] > d))
        if r["type"] == "state":
            made += 1
        m = r if mine(r) else ws.recv_until(mine)
    ws.close()
srv.stop()
nmoves = {gid: int(sql_rows(db, f"SELECT count(*) FROM moves WHERE game='{gid}'")[0][0])
          for gid in ids}
check(all(n >= 3 for n in nmoves.values()), f"every game has moves: {nmoves}")


def copy(name):
    return db_copy(db, os.path.join(WORK, name))


def run(path, *extra, user=None):
    """(exit code or None while running, stdout, stderr, port) of a start."""
    args = [BIN, "serve", "--host", "127.0.0.1", "--port", "0", "--db", db_target(path),
            "--quiet"]
    args += list(extra)
    kw = {}
    if user is not None:
        kw["preexec_fn"] = lambda: (os.setgroups([]), os.setgid(user), os.setuid(user))
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    line = p.stdout.readline().decode()
    if "serving on" in line:
        port = int(line.split("/")[2].rsplit(":", 1)[1])
        return p, line, port
    out, err = p.communicate(timeout=60)
    return p.returncode, line + out.decode(), err.decode()


def stop(p):
    p.terminate()
    _, err = p.communicate(timeout=60)
    # 0: a clean stop (a sanitizer build reports leaks and errors with another status)
    check(p.returncode == 0, f"the server stops cleanly (status {p.returncode}): {err[-3000:]!r}")
    return err.decode()


# ---- logical damage: two games cannot be rebuilt ----
bad_setup, bad_move = ids[1], ids[2]
path = copy("logical.db")
sql_exec(path, "UPDATE games SET setup='{\"edition\": broken' WHERE id='%s'" % bad_setup)
sql_exec(path, "UPDATE moves SET move='fly to the moon' WHERE game='%s' AND n=1" % bad_move)


def snapshot(path):
    """Every row of every game and move, in order: what no start may change."""
    return (sql_rows(path, "SELECT id, setup, seats, status FROM games ORDER BY id"),
            sql_rows(path, "SELECT game, n, player, move FROM moves ORDER BY game, n"))


before = snapshot(path)
r = run(path)
check(not isinstance(r[0], subprocess.Popen), "a damaged database does not start silently")
if isinstance(r[0], subprocess.Popen):
    stop(r[0])
else:
    code, out, err = r
    check(code == 1, f"exit 1, not {code}")
    for gid in (bad_setup, bad_move):
        check(any(gid in l and "cannot be loaded" in l for l in err.splitlines()),
              f"game {gid} is named with its reason: {err!r}")
    check("setup" in err, f"the bad setup's reason: {err!r}")
    check("--skip-damaged" in err, f"it says how to go on: {err!r}")
r = run(path, "--skip-damaged")
check(isinstance(r[0], subprocess.Popen), f"--skip-damaged starts: {r[1:]}")
if isinstance(r[0], subprocess.Popen):
    p, line, port = r
    st, lst = http_json(port, "GET", "/api/games")
    got = {g["id"] for g in lst["games"]}
    check(got == {ids[0], ids[3]}, f"exactly the good games are served: {got}")
    err = stop(p)
    check(bad_setup in err and bad_move in err, f"--skip-damaged still names them: {err!r}")
check(snapshot(path) == before, "the damaged games' rows, and every other, are left as they were")

if pg_mode():
    # PostgreSQL checks its own pages; a read-only database refuses the start
    path = copy("ro.db")
    sql_exec(path, "DO $$BEGIN EXECUTE format('ALTER DATABASE %I SET "
             "default_transaction_read_only = on', current_database()); END$$")
    r = run(path)
    check(not isinstance(r[0], subprocess.Popen), "a read-only database does not start silently")
    if isinstance(r[0], subprocess.Popen):
        stop(r[0])
    else:
        code, out, err = r
        check(code == 1 and "cannot be written" in err,
              f"read-only: it says the database cannot be written: {code} {err!r}")
    finish("damaged: damaged rows are named and left alone; a read-only database never "
           "starts silently (PostgreSQL)")
    sys.exit(0)

# ---- physical damage: pages of the games table overwritten ----
import sqlite3  # noqa: E402  (SQLite's file only from here)
path = copy("pages.db")
c = sqlite3.connect(path)
page = c.execute("PRAGMA page_size").fetchone()[0]
root = c.execute("SELECT rootpage FROM sqlite_master WHERE name='games'").fetchone()[0]
c.close()
with open(path, "r+b") as f:
    f.seek((root - 1) * page + 8)
    f.write(bytes(rng.randrange(256) for _ in range(page - 16)))
r = run(path)
check(not isinstance(r[0], subprocess.Popen), "a database with damaged pages does not start")
if isinstance(r[0], subprocess.Popen):
    stop(r[0])
else:
    code, out, err = r
    check(code == 1 and "damaged" in err, f"it says the database is damaged: {code} {err!r}")
r = run(path, "--skip-damaged")
check(isinstance(r[0], subprocess.Popen), f"--skip-damaged starts on damaged pages: {r[1:]}")
if isinstance(r[0], subprocess.Popen):
    stop(r[0])

# ---- read-only ----
# Two ways a database may not be writable by the server: its file (the
# folder is writable) and its folder too. A read-only file in a writable
# folder is the case SQLite opens without a word (read-only, its -shm made in
# the folder) and every creation then failed with 500; the start-up check
# (sq_writable) must refuse it. (A read-only folder already failed when
# the schema was checked, with or without that check.)
for case, dir_writable in (("file", True), ("folder", False)):
    rodir = os.path.join(WORK, "ro-" + case)
    os.makedirs(rodir)
    path = os.path.join(rodir, "ro.db")
    shutil.copy(db, path)
    if os.geteuid() == 0:
        os.chmod(WORK, 0o755)
        os.chmod(rodir, 0o777 if dir_writable else 0o755)
        os.chmod(path, 0o644)
        user = 65534  # nobody: may read the file, not write it
    else:
        os.chmod(path, 0o444)
        os.chmod(rodir, 0o755 if dir_writable else 0o555)
        user = None
    r = run(path, user=user)
    check(not isinstance(r[0], subprocess.Popen),
          f"a database whose {case} is read-only does not start silently")
    if isinstance(r[0], subprocess.Popen):
        p, line, port = r
        st, g = http_json(port, "POST", "/api/games", {"players": 2})
        print(f"read-only {case}: the server started; a creation answered {st}", flush=True)
        stop(p)
    else:
        code, out, err = r
        check(code == 1 and ("read-only" in err or "readonly" in err or "cannot be written" in err),
              f"read-only {case}: it says the database cannot be written: {code} {err!r}")
    os.chmod(rodir, 0o755)
finish("damaged: a damaged or read-only database never starts silently")
