"""server_conflict.py: a second writer of move N of a game is refused (issue 17:
the moves' primary key (game, n), on SQLite and PostgreSQL alike; the cluster
relies on it so that two servers can never both store move N of a game).

Two people play a game a little; then another writer (this test, standing in
for a second server) stores move N of that game itself, directly in the
database, before the server's commit of the move the player sends for N. The
server's commit of its batch is refused as a conflict:
- every seated client gets an error with code "conflict" (not "storage");
- nothing of the refused batch is stored, and the game is rebuilt from what
  the database holds: move N is the other writer's, the clients are shown it,
  and play goes on from N+1;
- the database's move list is exactly what the clients were shown.

Under CHARTERED_TEST_PG=1 (the pg_ variant) the database is PostgreSQL.

usage: python3 server_conflict.py BINARY SRCDIR WORKDIR
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, http_json, pick_move, check, finish, test_args,  # noqa: E402
                      sql_rows, sql_exec)

BIN, SRC, WORK = test_args()

db = os.path.join(WORK, "conflict.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
srv = Server(BIN, db).start()
rng = random.Random(17)
seen = {}    # move number -> notation, as the clients were told (acknowledged)
acked = 0    # highest decision any client was shown


class Seat:
    """One seated connection and the newest state it holds."""

    def __init__(self, gid, seat, tok):
        self.gid, self.seat, self.tok = gid, seat, tok
        self.connect()

    def connect(self):
        self.ws = srv.ws()
        self.ws.send({"type": "join", "game": self.gid, "token": self.tok})
        self.state = None
        self.errors = []
        self.take(self.ws.recv_until(lambda m: m["type"] == "state", timeout=30))

    def take(self, m):
        global acked
        if m["type"] == "state":
            self.state = m
            for e in m["log"]:
                if e["player"] == self.seat or not e.get("hidden"):
                    prev = seen.get(e["n"])
                    check(prev is None or prev == e["move"], f"log entry {e['n']} changed")
                    seen[e["n"]] = e["move"]
            acked = max(acked, m["decision"])
        elif m["type"] == "error":
            self.errors.append(m)

    def drain(self, secs=0.05):
        end = time.time() + secs
        try:
            while True:
                self.take(self.ws.recv(timeout=max(0.01, end - time.time())))
                if time.time() >= end and not self.ws.buf:
                    break
        except (TimeoutError, OSError):
            pass

    def until(self, pred, timeout=30):
        m = self.ws.recv_until(lambda m: m["type"] in ("state", "error"), timeout=timeout)
        while True:
            self.take(m)
            if pred(m):
                return m
            m = self.ws.recv_until(lambda m: m["type"] in ("state", "error"), timeout=timeout)


def mover_of(seats):
    """A seat that decides now in the newest decision (with its move)."""
    top = max(s.state["decision"] for s in seats)
    for s in seats:
        st = s.state
        if st["decision"] == top and st["status"] == "playing" and st["legal"]:
            return s
    return None


def play(seats, count):
    """Make `count` moves (fewer if the game ends), each acknowledged."""
    for _ in range(count):
        for s in seats:
            s.drain(0.02)
        s = mover_of(seats)
        if s is None:
            if all(x.state["status"] == "over" for x in seats):
                return
            for x in seats:  # a frame in flight
                x.drain(0.3)
            s = mover_of(seats)
            check(s is not None, "someone decides")
            if s is None:
                return
        d = s.state["decision"]
        s.ws.send({"type": "move", "move": pick_move(s.state["legal"], rng), "decision": d})
        m = s.until(lambda m: m["type"] == "error" or m["decision"] > d)
        check(m["type"] == "state", f"move accepted: {m}")
        for x in seats:
            if x is not s:
                x.until(lambda m: m["type"] == "state" and m["decision"] >= m_dec(s))


def m_dec(s):
    return s.state["decision"]


def db_moves(gid):
    return [r[0] for r in sql_rows(db, "SELECT move FROM moves WHERE game='%s' ORDER BY n" % gid)]


try:
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2, "seed": 41,
        "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]})
    check(st == 201, f"create: {st} {g}")
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    seats = [Seat(gid, i, t) for i, t in enumerate(toks)]
    for s in seats:
        s.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    play(seats, 8)
    for s in seats:
        s.drain(0.2)
    s = mover_of(seats)
    check(s is not None, "a seat decides")
    dec = s.state["decision"]
    check(db_moves(gid) == [seen[n] for n in range(dec)], "the database holds the acked moves")
    legal = s.state["legal"]
    theirs = pick_move(legal, rng)
    ours = pick_move(legal, rng)
    # ---- another writer stores move `dec` first ----
    sql_exec(db, "INSERT INTO moves(game, n, player, move) VALUES('%s', %d, %d, '%s')"
             % (gid, dec, s.seat, theirs.replace("'", "''")))
    s.ws.send({"type": "move", "move": ours, "decision": dec})
    err = s.until(lambda m: m["type"] == "error" or m["decision"] != dec, timeout=30)
    check(err["type"] == "error" and err["code"] == "conflict",
          f"the refused write answers a conflict error: {err}")
    for x in seats:
        if x is not s:
            m = x.until(lambda m: m["type"] == "error" or m["decision"] != dec, timeout=10)
            check(m["type"] == "error" and m["code"] == "conflict",
                  f"the other seated client hears of it too: {m}")
    # rebuilt from the database: move `dec` is the other writer's
    for x in seats:
        x.until(lambda m: m["type"] == "state" and m["decision"] > dec, timeout=10)
    check(seen.get(dec) == theirs, f"the clients are shown the stored move {dec}: "
          f"{seen.get(dec)!r}, stored {theirs!r}")
    check(db_moves(gid) == [seen[n] for n in range(dec + 1)],
          "the database holds the other writer's move and nothing of the refused batch")
    # ---- play goes on ----
    play(seats, 6)
    for x in seats:
        x.drain(0.3)
    check(acked >= dec + 4, f"play goes on after the conflict: decision {acked}")
    time.sleep(0.2)
    check(db_moves(gid) == [seen[n] for n in range(acked)],
          "the database's move list is exactly what the clients were shown")
    check(srv.alive(), "the server runs on")
finally:
    srv.stop()
finish("server_conflict: a second writer of move N is refused and the game goes on")
