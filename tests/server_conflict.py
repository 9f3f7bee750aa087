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
from seats import Table  # noqa: E402
from wsclient import (Server, http_json, pick_move, check, finish, test_args,  # noqa: E402
                      sql_exec)

BIN, SRC, WORK = test_args()

db = os.path.join(WORK, "conflict.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
srv = Server(BIN, db).start()
rng = random.Random(17)
T = Table(srv, db, rng)  # the seated clients and what they were shown (support/seats.py)
seen = T.seen


try:
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2, "seed": 41,
        "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]})
    check(st == 201, f"create: {st} {g}")
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    seats = [T.seat(gid, i, t) for i, t in enumerate(toks)]
    for s in seats:
        s.until(lambda m: m["type"] == "state" and m["status"] == "playing")
    T.play(seats, 8)
    for s in seats:
        s.drain(0.2)
    s = T.mover_of(seats)
    check(s is not None, "a seat decides")
    dec = s.state["decision"]
    check(T.db_moves(gid) == [seen[n] for n in range(dec)], "the database holds the acked moves")
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
    check(T.db_moves(gid) == [seen[n] for n in range(dec + 1)],
          "the database holds the other writer's move and nothing of the refused batch")
    # ---- play goes on ----
    T.play(seats, 6)
    for x in seats:
        x.drain(0.3)
    check(T.acked >= dec + 4, f"play goes on after the conflict: decision {T.acked}")
    time.sleep(0.2)
    check(T.db_moves(gid) == [seen[n] for n in range(T.acked)],
          "the database's move list is exactly what the clients were shown")
    check(srv.alive(), "the server runs on")
finally:
    srv.stop()
finish("server_conflict: a second writer of move N is refused and the game goes on")
