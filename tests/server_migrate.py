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
(src/server/store/store.c at 840180d); the moves come from `chartered legal`. A
second database is at version 2 (accounts and sessions, seats owned by an
account): its upgrade fills game_players (version 3) from the stored seats.

With CHARTERED_TEST_PG=1 (CTest's pg_server_migrate) the same databases are
written into PostgreSQL databases (the tables as an older chartered made them
there: BIGINT for INTEGER, the version in table schema_version, none at
version 0) and upgraded in place the same way (docs/storage.md).

usage: python3 server_migrate.py BINARY SRCDIR WORKDIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, WS, http_json, guest, check, finish, test_args,  # noqa: E402
                      pg_mode, pg_drop, db_target, sql_rows, sql_exec)

BIN, SRC, WORK = test_args()
OLD_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS games ("
    " id TEXT PRIMARY KEY, setup TEXT NOT NULL, seats TEXT NOT NULL,"
    " status TEXT NOT NULL, turn_timer INTEGER NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS moves ("
    " game TEXT NOT NULL, n INTEGER NOT NULL, player INTEGER NOT NULL, move TEXT NOT NULL,"
    " PRIMARY KEY (game, n)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS games_status ON games(status, created);")


# Version 2's tables, as store.c wrote them from 2 until 3
V2_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS accounts ("
    " id INTEGER PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,"
    " pwhash TEXT NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sessions ("
    " hash TEXT PRIMARY KEY, sid TEXT NOT NULL UNIQUE, user_id INTEGER REFERENCES accounts(id),"
    " guest_name TEXT, created INTEGER NOT NULL);")


def fresh(name):
    db = os.path.join(WORK, name)
    for f in (db, db + "-wal", db + "-shm"):
        if os.path.exists(f):
            os.remove(f)
    pg_drop(db)
    return db


def q(v):
    """An SQL literal of v (text or number)."""
    return str(v) if isinstance(v, int) else "'" + str(v).replace("'", "''") + "'"


def make_old(db, version, script, inserts):
    """An old database at path db: its tables (SQLite's dialect, translated
    for PostgreSQL as the server translates them), its schema version
    (none at 0), and the rows (table, tuple)."""
    sqls = [script]
    sqls += ["INSERT INTO %s VALUES(%s)" % (t, ",".join(q(v) for v in row)) for t, row in inserts]
    if pg_mode():
        db_target(db)  # makes the database
        pg = ";".join(sqls).replace(" WITHOUT ROWID", "").replace("INTEGER PRIMARY KEY",
                                                                  "BIGINT PRIMARY KEY")
        pg = pg.replace("INTEGER", "BIGINT")
        if version:
            pg += ";CREATE TABLE schema_version (version INTEGER NOT NULL);" \
                  "INSERT INTO schema_version VALUES(%d)" % version
        sql_exec(db, pg)
        return
    import sqlite3
    con = sqlite3.connect(db)
    con.executescript(";".join(sqls) + ";PRAGMA user_version = %d;" % version)
    con.commit()
    con.close()


def version_of(db):
    if pg_mode():
        return int(sql_rows(db, "SELECT max(version) FROM schema_version")[0][0])
    return int(sql_rows(db, "PRAGMA user_version")[0][0])


def tables_of(db):
    if pg_mode():
        return {r[0] for r in sql_rows(db, "SELECT table_name FROM information_schema.tables "
                                            "WHERE table_schema = current_schema()")}
    return {r[0] for r in sql_rows(db, "SELECT name FROM sqlite_master WHERE type='table'")}


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
setup = {"edition": "amsterdam", "players": 3, "seed": "77", "arrangement": "standard",
         "events": 1}
seats = [{"seat": 0, "kind": "human", "name": "Anke", "claimed": True, "token": T[0]},
         {"seat": 1, "kind": "human", "name": "Bram", "claimed": True, "token": T[1]},
         {"seat": 2, "kind": "human", "name": "Cato", "claimed": False, "token": T[2]}]
make_old(db, 0, OLD_SCHEMA,
         [("games", ("0123456789abcdef", json.dumps(setup), json.dumps(seats), "playing", 0,
                     1700000000))] +
         [("moves", ("0123456789abcdef", n, pl, mv)) for n, (pl, mv) in enumerate(moves)])
check(version_of(db) == 0 if not pg_mode() else "schema_version" not in tables_of(db),
      "the old database has no schema version")

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
v = version_of(db)
check(v == 12, f"the schema version is now 12: {v}")
tables = tables_of(db)
check({"games", "moves", "accounts", "sessions", "turn_clock", "results", "ratings",
       "rating_changes", "game_players", "chat", "tutorial_progress"} <= tables, f"the tables: {tables}")
stored = sql_rows(db, "SELECT seats FROM games")[0][0]
check(all(t not in stored for t in T) and stored.count("token_hash") == 3,
      f"the seat tokens are stored as hashes only: {stored[:200]}")
n = int(sql_rows(db, "SELECT count(*) FROM moves")[0][0])
check(n == len(moves), "no move lost")
# opened again: nothing to do, still fine
srv = Server(BIN, db).start()
st, g = http_json(srv.port, "GET", "/api/games/0123456789abcdef")
check(st == 200 and g["decision"] == len(moves), "a second start on the upgraded database")
srv.stop()

# version 2: a game whose seat 1 is held by account 1; the upgrade to 3
# fills game_players from the stored seats (results.c), on both back ends
db3 = fresh("v2.db")
seats2 = [{"seat": 0, "kind": "human", "name": "Anke", "claimed": True, "token_hash": "d" * 64,
           "owner": "g:" + "e" * 32},
          {"seat": 1, "kind": "human", "name": "dirk", "claimed": True, "token_hash": "f" * 64,
           "owner": "u:1"},
          {"seat": 2, "kind": "human", "name": "Cato", "claimed": False, "token_hash": "9" * 64}]
make_old(db3, 2, OLD_SCHEMA + V2_SCHEMA,
         [("accounts", (1, "dirk", "dirk", "$argon2id$x", 1700000000)),
          ("games", ("fedcba9876543210", json.dumps(setup), json.dumps(seats2), "playing", 0,
                     1700000000))] +
         [("moves", ("fedcba9876543210", n, pl, mv)) for n, (pl, mv) in enumerate(moves)])
srv = Server(BIN, db3).start()
st, g = http_json(srv.port, "GET", "/api/games/fedcba9876543210")
check(st == 200 and g["decision"] == len(moves), f"the version-2 game resumes: {st} {g}")
srv.stop()
check(version_of(db3) == 12, "version 2 upgraded to 12")
gp = sql_rows(db3, "SELECT user_id, game, seat FROM game_players")
check(gp == [["1", "fedcba9876543210", "1"]], f"game_players filled from the seats: {gp}")

# a database from a newer chartered is refused, and left as it was
db2 = fresh("newer.db")
make_old(db2, 99, OLD_SCHEMA, [])
r = subprocess.run([BIN, "serve", "--port", "0", "--db", db_target(db2), "--quiet"],
                   capture_output=True, text=True, timeout=60)
check(r.returncode != 0 and "newer chartered" in r.stderr,
      f"a newer schema is refused: {r.returncode} {r.stderr.strip()}")
check(version_of(db2) == 99 and "accounts" not in tables_of(db2), "and left as it was")
finish("server_migrate: the old databases were upgraded in place"
       + (" (PostgreSQL)" if pg_mode() else ""))
