"""server_migrate.py: a database made by chartered before its schema was
versioned (user_version 0: games and moves only, seat tokens in clear) is
opened by `chartered serve` and upgraded in place (issue 14, "the schema is
versioned"): the schema version becomes current, the accounts and sessions
tables exist, every seat token is replaced by its hash, the game resumes at
its stored decision, an invite not yet used still works and is bound to the
session that uses it, and a seat claimed before the upgrade is bound to the
first session that shows its token. A database from a newer chartered is
refused with a clear message.

The old schema is written here, as the code before versioning wrote it
(src/server/store.c at 840180d); the moves come from `chartered legal`.

usage: python3 server_migrate.py BINARY SRCDIR WORKDIR
"""
import json
import os
import sqlite3
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, WS, http_json, guest, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
OLD_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS games ("
    " id TEXT PRIMARY KEY, setup TEXT NOT NULL, seats TEXT NOT NULL,"
    " status TEXT NOT NULL, turn_timer INTEGER NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS moves ("
    " game TEXT NOT NULL, n INTEGER NOT NULL, player INTEGER NOT NULL, move TEXT NOT NULL,"
    " PRIMARY KEY (game, n)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS games_status ON games(status, created);")


def fresh(name):
    db = os.path.join(WORK, name)
    for f in (db, db + "-wal", db + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    return db


# a few moves of a 3-player game with seed 77, as `chartered` plays them
gf = os.path.join(WORK, "g.json")
subprocess.run([BIN, "new", "--players", "3", "--seed", "77", "-o", gf], check=True,
               capture_output=True)
moves = []
for _ in range(5):
    lg = json.loads(subprocess.run([BIN, "legal", gf, "--json"], check=True,
                                   capture_output=True, text=True).stdout)
    p = lg["players"][0]
    mv = p["moves"][0]
    subprocess.run([BIN, "apply", gf, mv], check=True, capture_output=True)
    moves.append((p["player"] - 1, mv))

db = fresh("old.db")
T = ["a" * 32, "b" * 32, "c" * 32]
con = sqlite3.connect(db)
con.executescript(OLD_SCHEMA)
setup = {"edition": "amsterdam", "players": 3, "seed": "77", "arrangement": "standard",
         "events": 1}
seats = [{"seat": 0, "kind": "human", "name": "Anke", "claimed": True, "token": T[0]},
         {"seat": 1, "kind": "human", "name": "Bram", "claimed": True, "token": T[1]},
         {"seat": 2, "kind": "human", "name": "Cato", "claimed": False, "token": T[2]}]
con.execute("INSERT INTO games VALUES(?,?,?,?,?,?)",
            ("0123456789abcdef", json.dumps(setup), json.dumps(seats), "waiting", 0, 1700000000))
con.execute("UPDATE games SET status='playing'")
for n, (pl, mv) in enumerate(moves):
    con.execute("INSERT INTO moves VALUES(?,?,?,?)", ("0123456789abcdef", n, pl, mv))
con.commit()
(v,) = con.execute("PRAGMA user_version").fetchone()
check(v == 0, "the old database has no schema version")
con.close()

srv = Server(BIN, db).start()
try:
    P = srv.port
    st, g = http_json(P, "GET", "/api/games/0123456789abcdef")
    check(st == 200 and g["decision"] == len(moves),
          f"the old game resumes at its decision {len(moves)}: {st} {g.get('decision')}")
    # the invite of seat 2, never used, still works, and binds the seat
    cato = guest(P, "Cato")
    c = WS("127.0.0.1", P, cookie=cato)
    c.send({"type": "join", "game": "0123456789abcdef", "token": T[2]})
    m = c.recv_until(lambda m: m["type"] in ("state", "error"))
    check(m["type"] == "state" and m["seat"] == 2, f"the unused invite works after the upgrade: {m}")
    # seat 0, claimed before the upgrade: bound to the first session with its token
    anke = guest(P, "Anke")
    a = WS("127.0.0.1", P, cookie=anke)
    a.send({"type": "join", "game": "0123456789abcdef", "token": T[0]})
    m = a.recv_until(lambda m: m["type"] in ("state", "error"))
    check(m["type"] == "state" and m["seat"] == 0, f"a claimed seat's old token: {m}")
    mal = WS("127.0.0.1", P, cookie=guest(P, "Mallory"))
    mal.send({"type": "join", "game": "0123456789abcdef", "token": T[0]})
    m = mal.recv_until(lambda m: m["type"] in ("state", "error"))
    check(m["type"] == "error" and m["code"] == "seat_taken",
          f"and nobody else after that: {m}")
    # accounts work on the upgraded database
    st, r = http_json(P, "POST", "/api/signup", {"name": "dirk", "password": "long enough"})
    check(st == 201, f"sign-up on the upgraded database: {st} {r}")
    for x in (a, c, mal):
        x.close()
finally:
    srv.stop()
con = sqlite3.connect(db)
(v,) = con.execute("PRAGMA user_version").fetchone()
check(v == 4, f"the schema version is now 4: {v}")
tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
check({"games", "moves", "accounts", "sessions", "turn_clock", "results", "ratings",
       "rating_changes", "game_players", "chat"} <= tables, f"the tables: {tables}")
(stored,) = con.execute("SELECT seats FROM games").fetchone()
check(all(t not in stored for t in T) and stored.count("token_hash") == 3,
      f"the seat tokens are stored as hashes only: {stored[:200]}")
(n,) = con.execute("SELECT count(*) FROM moves").fetchone()
check(n == len(moves), "no move lost")
con.close()
# opened again: nothing to do, still fine
srv = Server(BIN, db).start()
st, g = http_json(srv.port, "GET", "/api/games/0123456789abcdef")
check(st == 200 and g["decision"] == len(moves), "a second start on the upgraded database")
srv.stop()

# a database from a newer chartered is refused, and left as it was
db2 = fresh("newer.db")
con = sqlite3.connect(db2)
con.executescript(OLD_SCHEMA)
con.execute("PRAGMA user_version = 99")
con.commit()
con.close()
r = subprocess.run([BIN, "serve", "--port", "0", "--db", db2, "--quiet"], capture_output=True,
                   text=True, timeout=30)
check(r.returncode != 0 and "newer chartered" in r.stderr,
      f"a newer schema is refused: {r.returncode} {r.stderr.strip()}")
finish("server_migrate: the old database was upgraded in place")
