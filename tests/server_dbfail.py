"""server_dbfail.py: `chartered serve` when its database refuses a write. In
the middle of a game this test opens the server's SQLite file itself and
holds the write lock (BEGIN IMMEDIATE), so the server's commit really fails
(SQLITE_BUSY after its bounded busy timeout). Then:
- the move gets an error with code "storage", sent to every seated client;
- the game is exactly where it was: same decision, same view, the move in
  no log and not in the database;
- the server keeps serving: HTTP answers, another game can be watched, and a
  new game is refused with 500 (its row cannot be written) and not kept;
- once the lock is released the same move (same decision number) is
  accepted, and the game plays on;
- a kill -9 and restart resume the game at exactly the acknowledged
  decision, and the game is then played to the end: its replay holds exactly
  the moves the clients were told about.

Under CHARTERED_TEST_PG=1 (the pg_ variant, docs/storage.md) the database is
PostgreSQL and the lock is another session's LOCK TABLE games, moves IN
EXCLUSIVE MODE (reads go on, writes wait): the server's commit fails after
its lock_timeout of 250 ms, as SQLite's after its busy timeout.

usage: python3 server_dbfail.py BINARY SRCDIR WORKDIR
"""
import os
import random
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from seats import Table  # noqa: E402
from wsclient import (Server, http_json, pick_move, check, finish, test_args,  # noqa: E402
                      db_target, pg_mode, _pg_server)

BIN, SRC, WORK = test_args()

db = os.path.join(WORK, "dbfail.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
srv = Server(BIN, db).start()
rng = random.Random(11)
T = Table(srv, db, rng)  # the seated clients and what they were shown (support/seats.py)
seen = T.seen


class Lock:
    """Another process's write lock on the database, held until release()."""

    def __init__(self, gid):
        if pg_mode():
            pg = _pg_server()
            self.p = subprocess.Popen([os.path.join(pg.bindir, "psql"), db_target(db), "-qAt"],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            self.p.stdin.write("BEGIN; LOCK TABLE games, moves IN EXCLUSIVE MODE; "
                               "SELECT 'locked';\n")
            self.p.stdin.flush()
            line = self.p.stdout.readline()
            check("locked" in line, f"another session holds the lock: {line!r}")
            return
        self.c = sqlite3.connect(db, timeout=10, isolation_level=None)
        self.c.execute("BEGIN IMMEDIATE")
        self.c.execute("UPDATE games SET turn_timer = turn_timer WHERE id = ?", (gid,))

    def release(self):
        if pg_mode():
            self.p.communicate("ROLLBACK;\n", timeout=30)
            return
        self.c.execute("ROLLBACK")
        self.c.close()


def create(seed):
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2, "seed": seed,
        "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]})
    check(st == 201, f"create: {st} {g}")
    return g["id"], [s["token"] for s in g["seats"]]


try:
    gid, toks = create(31)
    other_gid, _ = create(32)
    seats = [T.seat(gid, i, t) for i, t in enumerate(toks)]
    for s in seats:
        s.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    T.play(seats, 12)
    for s in seats:
        s.drain(0.2)
    s = T.mover_of(seats)
    check(s is not None, "a seat decides")
    dec = s.state["decision"]
    view_before = {x.seat: x.state["view"] for x in seats}
    check(T.db_moves(gid) == [seen[n] for n in range(dec)], "the database holds the acked moves")
    move = pick_move(s.state["legal"], rng)

    # ---- hold the database's write lock as another process would ----
    lock = Lock(gid)
    t0 = time.time()
    s.ws.send({"type": "move", "move": move, "decision": dec})
    err = s.until(lambda m: m["type"] == "error" or m["decision"] != dec, timeout=30)
    waited = time.time() - t0
    check(err["type"] == "error" and err["code"] == "storage",
          f"a refused write answers a storage error: {err}")
    check(isinstance(err.get("message"), str) and len(err["message"]) > 10, "it says why")
    check(waited < 10, f"the refusal comes within the busy timeout ({waited:.2f} s)")
    print(f"storage error after {waited * 1000:.0f} ms", flush=True)
    for x in seats:
        if x is not s:
            m = x.until(lambda m: m["type"] == "error" or m["decision"] != dec, timeout=10)
            check(m["type"] == "error" and m["code"] == "storage",
                  f"the other seated client hears of it too: {m}")
    # the state frames that follow show the same decision and view
    for x in seats:
        x.drain(0.3)
        check(x.state["decision"] == dec, f"seat {x.seat}: the decision stays {dec}")
        check(x.state["view"] == view_before[x.seat], f"seat {x.seat}: the view is unchanged")
    check(dec not in seen, "the refused move is in no log")
    st, summ = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200 and summ["decision"] == dec and summ["status"] == "playing",
          f"HTTP summary unchanged while locked: {st} {summ}")
    # the server serves the rest: another game's spectator, the lobby
    w = srv.ws()
    w.send({"type": "watch", "game": other_gid})
    m = w.recv_until(lambda m: m["type"] == "state", timeout=10)
    check(m["game"] == other_gid and m["seat"] == -1, "another game can be watched")
    w.close()
    st, lst = http_json(srv.port, "GET", "/api/games")
    check(st == 200 and {g["id"] for g in lst["games"]} >= {gid, other_gid}, "the lobby lists")
    st, r = http_json(srv.port, "POST", "/api/games", {"players": 2})
    check(st == 500 and "database" in r.get("error", ""),
          f"a game that cannot be stored is refused: {st} {r}")
    st, lst = http_json(srv.port, "GET", "/api/games")
    check(st == 200 and len(lst["games"]) == 2, "the refused game is not kept")
    # a second try while still locked is refused the same way
    s.ws.send({"type": "move", "move": move, "decision": dec})
    err = s.until(lambda m: m["type"] == "error" or m["decision"] != dec, timeout=30)
    check(err["type"] == "error" and err["code"] == "storage", f"refused again: {err}")
    check(srv.alive(), "the server runs on")
    lock.release()
    check(T.db_moves(gid) == [seen[n] for n in range(dec)], "nothing of the refused move stored")

    # ---- released: the same move for the same decision is accepted ----
    for x in seats:
        x.drain(0.3)
    s.ws.send({"type": "move", "move": move, "decision": dec})
    m = s.until(lambda m: m["type"] == "error" or m["decision"] > dec)
    check(m["type"] == "state" and m["decision"] == dec + 1, f"the move is accepted now: {m}")
    check(seen.get(dec) == move or (dec in seen), "the move is in the log")
    for x in seats:
        if x is not s:
            x.until(lambda m: m["type"] == "state" and m["decision"] > dec)
    T.play(seats, 10)
    for x in seats:
        x.drain(0.3)
    # ---- kill -9 and restart: exactly the acknowledged moves ----
    at = T.acked
    srv.stop(kill=True)
    for x in seats:
        x.ws.close()
    check(T.db_moves(gid) == [seen[n] for n in range(at)],
          f"after kill -9 the database holds exactly the {at} acknowledged moves")
    srv.start()
    seats = [T.seat(gid, i, t) for i, t in enumerate(toks)]
    for x in seats:
        check(x.state["decision"] == at, f"resumed at {x.state['decision']}, acked {at}")
    T.play(seats, 100000)
    for x in seats:
        x.drain(0.3)
    check(all(x.state["status"] == "over" for x in seats), "the game was played to the end")
    st, rep = http_json(srv.port, "GET", f"/api/games/{gid}/replay")
    check(st == 200, f"replay: {st}")
    if st == 200:
        check([mv["move"] for mv in rep["moves"]] == [seen[n] for n in range(rep["steps"])]
              and rep["steps"] == T.acked,
              f"the replay holds exactly the {T.acked} acknowledged moves ({rep['steps']})")
        print(f"game {gid}: {rep['steps']} moves, storage refusal at decision {dec}", flush=True)
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly on SIGTERM (status {code}): {srv.log_text()[-2000:]}")

finish("server_dbfail: a refused write changed nothing and lost nothing")
