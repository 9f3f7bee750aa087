"""server_backup.py: `chartered backup` and `chartered restore` (issue 35,
item 5). A server plays a game of two people and a bot (moves sent by this
test, each acknowledged by a state frame) and four games of bots only (load:
commits all the time). While moves go on:
- `chartered backup --db DB OUT` copies the database (SQLite's online
  backup); OUT has mode 0600; restore refuses to overwrite the running
  server's database, with or without --replace;
- the server is stopped; `chartered restore OUT --db NEW` makes a new
  database; a server started on it resumes every game: the people's game at
  least at the decision acknowledged before the backup began, every move a
  client saw before then stored at its number, and play goes on there; each
  bot game's moves in the backup are the first moves of the original's (one
  consistent moment), and its bots move on;
- outputs: a symbolic link is followed (the link stays), a FIFO and "-" are
  written in place, a folder and a PostgreSQL --db are refused with the way
  to go; a file that is not a chartered database is refused by restore.

usage: python3 server_backup.py BINARY SRCDIR WORKDIR
"""
import os
import random
import selectors
import sqlite3
import stat
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, WSClosed, http_json, pick_move, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
if os.environ.get("CHARTERED_TEST_PG") == "1":
    print("SKIP: backup and restore are SQLite's (PostgreSQL: pg_dump, docs/deploy.md)")
    sys.exit(77)
rng = random.Random(35)
db = os.path.join(WORK, "live.db")
srv = Server(BIN, db).start()
games = {}


def create(req):
    st, g = http_json(srv.port, "POST", "/api/games", req)
    assert st == 201, (st, g)
    games[g["id"]] = {"tokens": {s["seat"]: s["token"] for s in g["seats"] if s["kind"] == "human"},
                      "seen": {}, "acked": 0, "over": False}
    return g["id"]


def connect_all(gid):
    conns = []
    for seat, tok in games[gid]["tokens"].items():
        c = srv.ws()
        c.gid, c.seat = gid, seat
        c.send({"type": "join", "game": gid, "token": tok})
        conns.append(c)
    return conns


def note(c, m):
    info = games[c.gid]
    for e in m["log"]:
        if e["player"] == c.seat or not e.get("hidden"):
            info["seen"][e["n"]] = e["move"]
    info["acked"] = max(info["acked"], m["decision"])
    info["over"] = info["over"] or m["status"] == "over"


def play(conns, max_moves):
    """Random moves until max_moves were sent or the game is over."""
    sel = selectors.DefaultSelector()
    for c in conns:
        sel.register(c.sock, selectors.EVENT_READ, c)
    sent = 0
    last = {}

    def handle(c):
        nonlocal sent
        while True:
            m = c.recv(timeout=30)
            if m["type"] == "state":
                note(c, m)
                if m["legal"] and m["status"] == "playing" and sent < max_moves:
                    last[id(c)] = {"type": "move", "move": pick_move(m["legal"], rng),
                                   "decision": m["decision"]}
                    c.send(last[id(c)])
                    sent += 1
            elif m["type"] == "error":
                # a move sent from a frame that was already old when the game ended
                # is answered "the game is over" (the server checks the end first)
                check(m["code"] in ("stale", "rate_limited") or
                      (m["code"] == "not_your_turn" and "over" in m.get("message", "")), f"unexpected error {m}")
                if m["code"] == "rate_limited":
                    time.sleep(0.1)
                    c.send(last[id(c)])
            if not c.buf:
                break

    for c in conns:
        st = [m for m in c.frames if m["type"] == "state"]
        if st and st[-1]["legal"] and st[-1]["status"] == "playing":
            last[id(c)] = {"type": "move", "move": pick_move(st[-1]["legal"], rng),
                           "decision": st[-1]["decision"]}
            c.send(last[id(c)])
            sent += 1
    while sent < max_moves and not all(i["over"] for g, i in games.items() if i["tokens"]):
        ready = sel.select(timeout=30)
        if not ready:
            check(False, "no frame for 30 s")
            break
        for key, _ in ready:
            handle(key.data)
    sel.close()


def drain(conns, secs=0.5):
    end = time.time() + secs
    for c in conns:
        try:
            while time.time() < end:
                m = c.recv(timeout=max(0.01, end - time.time()))
                if m["type"] == "state":
                    note(c, m)
        except (TimeoutError, OSError, WSClosed, ValueError):
            pass


def moves_of(path, gid):
    con = sqlite3.connect(path)
    try:
        return list(con.execute("SELECT n, move FROM moves WHERE game = ? ORDER BY n", (gid,)))
    finally:
        con.close()


def run(*args, **kw):
    return subprocess.run([BIN] + list(args), capture_output=True, timeout=120, **kw)


try:
    people = create({"edition": "amsterdam", "players": 3, "seed": 35,
                     "seats": [{"kind": "human"}, {"kind": "human"},
                               {"kind": "bot", "bot": "greedy"}]})
    # ISMCTS at strength 1 (100 iterations a move): games long enough to be
    # in play through the backup, each move a commit
    bots = [create({"edition": ("amsterdam", "golden-age")[i % 2], "players": 3, "seed": 50 + i,
                    "seats": [{"kind": "bot", "bot": "ismcts", "strength": 1}] * 3})
            for i in range(4)]
    conns = connect_all(people)
    play(conns, 30)
    drain(conns)
    acked = games[people]["acked"]
    seen = dict(games[people]["seen"])
    check(acked >= 20, f"the people's game was played before the backup: {acked} decisions")

    # the backup while the people move and the bots play
    out = os.path.join(WORK, "backup.db")
    result = {}
    t = threading.Thread(target=lambda: result.setdefault("r", run("backup", "--db", db, out)))
    t.start()
    play(conns, 15)
    t.join()
    r = result["r"]
    check(r.returncode == 0, f"backup under load: {r.returncode} {r.stderr.decode()[-500:]}")
    check(os.path.exists(out) and stat.S_IMODE(os.stat(out).st_mode) == 0o600,
          f"the backup has mode 0600: {oct(os.stat(out).st_mode) if os.path.exists(out) else None}")
    play(conns, 10)  # after the backup: not in it
    drain(conns)

    # restore refuses the running server's database
    r = run("restore", out, "--db", db)
    check(r.returncode == 1 and b"exists" in r.stderr, f"restore over a database: {r.stderr}")
    r = run("restore", out, "--db", db, "--replace")
    check(r.returncode == 1 and b"is open" in r.stderr,
          f"restore --replace over a running server's database: {r.stderr}")
    for c in conns:
        c.close()
    check(srv.stop() == 0, "the server stops cleanly")
    final = {g: moves_of(db, g) for g in games}

    # restore into a new database and resume there
    new = os.path.join(WORK, "restored.db")
    r = run("restore", out, "--db", new)
    check(r.returncode == 0, f"restore: {r.returncode} {r.stderr.decode()}")
    backed = {g: moves_of(new, g) for g in games}
    for g in bots:
        # (under the sanitizers an ISMCTS game may not have moved yet: an
        # empty list is the first 0 moves)
        check(backed[g] == final[g][:len(backed[g])],
              f"bot game {g}: the backup's {len(backed[g])} moves are the first of the "
              f"original's {len(final[g])}")
    stored = dict(backed[people])
    missing = [n for n, mv in seen.items() if stored.get(n) != mv]
    check(not missing, f"every move seen before the backup is restored: missing {missing[:5]}")
    srv.db = new
    srv.start()
    conns = connect_all(people)
    for c in conns:
        m = c.recv_until(lambda m: m["type"] == "state", timeout=30)
        check(m["decision"] >= acked, f"resumed at {m['decision']}, {acked} acknowledged before "
              "the backup")
        games[people]["acked"] = m["decision"]  # the later moves are not in the backup
        note(c, m)
    before = games[people]["acked"]
    play(conns, 6)
    drain(conns)
    check(games[people]["acked"] > before or games[people]["over"],
          f"play goes on in the restored database: {before} -> {games[people]['acked']}")
    # the bot games still playing in the backup move on there
    playing = [g for g in bots if http_json(srv.port, "GET", f"/api/games/{g}")[1].get("status")
               == "playing"]
    check(len(playing) > 0, "bot games were in play in the backup (the load)")
    deadline = time.time() + 20
    while time.time() < deadline and playing and \
            not all(len(moves_of(new, g)) > len(backed[g]) for g in playing):
        time.sleep(0.2)
    check(all(len(moves_of(new, g)) > len(backed[g]) for g in playing),
          f"the bots of the {len(playing)} bot games in play move on in the restored database")
    print(f"{len(playing)} of {len(bots)} bot games were in play in the backup", flush=True)
    for c in conns:
        c.close()
    check(srv.stop() == 0, "the restored server stops cleanly")
    # where a backup may go
    link = os.path.join(WORK, "link.db")
    target = os.path.join(WORK, "target.db")
    open(target, "w").close()
    os.symlink(target, link)
    r = run("backup", "--db", new, link)
    check(r.returncode == 0 and os.path.islink(link) and
          moves_of(target, people) == moves_of(new, people) and
          stat.S_IMODE(os.stat(target).st_mode) == 0o600,
          f"a link is followed, the target written (0600), the link kept: {r.stderr}")
    fifo = os.path.join(WORK, "fifo")
    os.mkfifo(fifo)
    got = {}

    def reader():
        with open(fifo, "rb") as f:
            got["data"] = f.read()
    rt = threading.Thread(target=reader)
    rt.start()
    r = run("backup", "--db", new, fifo)
    rt.join(timeout=60)
    check(r.returncode == 0 and got.get("data", b"").startswith(b"SQLite format 3\0"),
          f"a FIFO is written in place: {r.stderr} {len(got.get('data', b''))} bytes")
    r = run("backup", "--db", new, "-")
    check(r.returncode == 0 and r.stdout.startswith(b"SQLite format 3\0") and
          len(r.stdout) == len(got.get("data", b"")), "- writes standard output")
    r = run("backup", "--db", new, WORK)
    check(r.returncode == 1 and b"is a folder" in r.stderr, f"a folder: {r.stderr}")
    r = run("backup", "--db", "postgresql://x@localhost/chartered", out)
    check(r.returncode == 2 and b"pg_dump" in r.stderr, f"PostgreSQL: {r.stderr}")
    junk = os.path.join(WORK, "junk.db")
    sqlite3.connect(junk).execute("CREATE TABLE t (x)").connection.commit()
    r = run("restore", junk, "--db", os.path.join(WORK, "other.db"))
    check(r.returncode == 1 and b"not a chartered database" in r.stderr and
          not os.path.exists(os.path.join(WORK, "other.db")),
          f"restore of a database that is not chartered's: {r.stderr}")
finally:
    if srv.alive():
        srv.stop()

finish("server_backup: backup under load, restore, resumed with every acknowledged move; "
       "links, FIFOs, standard output")
