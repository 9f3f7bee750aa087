"""server_restart.py: durability of `chartered serve`. Games are played over
real sockets; the server is stopped (SIGTERM) and later killed (kill -9) in
the middle of play, restarted on the same database, and the clients rejoin
with their tokens. Every move a client was told about (a state frame is the
acknowledgement) must still be there, in order, the game resumes where it
was, bots carry on, and the finished game's replay lists exactly the moves
the clients saw. Also: a reconnecting client gets its seat and full view back.

usage: python3 server_restart.py BINARY SRCDIR WORKDIR
"""
import os
import random
import selectors
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, WSClosed, http_json, pick_move, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()


db = os.path.join(WORK, "restart.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
srv = Server(BIN, db).start()
rng = random.Random(7)

games = {}  # gid -> {"tokens": {seat: token}, "seen": {n: move}, "acked": int}


def create(req):
    st, g = http_json(srv.port, "POST", "/api/games", req)
    assert st == 201, (st, g)
    games[g["id"]] = {"tokens": {s["seat"]: s["token"] for s in g["seats"] if s["kind"] == "human"},
                      "seen": {}, "acked": 0, "over": False}
    return g["id"]


def connect_all():
    conns = []
    for gid, info in games.items():
        for seat, tok in info["tokens"].items():
            c = srv.ws()
            c.gid, c.seat = gid, seat
            c.send({"type": "join", "game": gid, "token": tok})
            conns.append(c)
    return conns


def note(c, m):
    info = games[c.gid]
    for e in m["log"]:
        if e["player"] == c.seat or not e.get("hidden"):
            prev = info["seen"].get(e["n"])
            check(prev is None or prev == e["move"], f"log entry {e['n']} changed: {prev} -> {e}")
            info["seen"][e["n"]] = e["move"]
    info["acked"] = max(info["acked"], m["decision"])
    if m["status"] == "over":
        info["over"] = True


def play(conns, max_moves, first_states=None):
    """Play random moves until max_moves were sent (or all games are over).
    Returns the frames seen first by each connection after (re)joining."""
    sel = selectors.DefaultSelector()
    for c in conns:
        sel.register(c.sock, selectors.EVENT_READ, c)
    sent = 0
    firsts = {}
    last = {}

    def handle(c):
        """Every frame c holds: its read buffer can hold several (small
        frames arrive together), and select sees only the socket."""
        nonlocal sent
        while True:
            m = c.recv(timeout=30)
            if m["type"] == "state":
                firsts.setdefault(id(c), m)
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

    for c in conns:  # act on the state each client already holds
        if c.buf:
            handle(c)
            continue
        st = [m for m in c.frames if m["type"] == "state"]
        if st and st[-1]["legal"] and st[-1]["status"] == "playing":
            last[id(c)] = {"type": "move", "move": pick_move(st[-1]["legal"], rng),
                           "decision": st[-1]["decision"]}
            c.send(last[id(c)])
            sent += 1
    while sent < max_moves and not all(i["over"] for i in games.values()):
        ready = sel.select(timeout=30)
        if not ready:
            check(False, "no frame for 30 s")
            break
        for key, _ in ready:
            handle(key.data)
    sel.close()
    return firsts


def drain(conns, secs=0.5):
    """Read what is already on the wire (acknowledgements in flight)."""
    end = time.time() + secs
    for c in conns:
        try:
            while time.time() < end:
                m = c.recv(timeout=max(0.01, end - time.time()))
                if m["type"] == "state":
                    note(c, m)
        except (TimeoutError, OSError, WSClosed, ValueError):
            pass


def check_resumed(conns, what):
    for c in conns:
        m = c.recv_until(lambda m: m["type"] == "state", timeout=30)
        info = games[c.gid]
        check(m["seat"] == c.seat, f"{what}: the token gives the seat back")
        check(m["decision"] >= info["acked"],
              f"{what}: game {c.gid} resumed at {m['decision']} but {info['acked']} were acknowledged")
        check("hand" in m["view"]["players"][c.seat], f"{what}: full view with the hand")
        note(c, m)


try:
    g1 = create({"edition": "amsterdam", "players": 3, "seed": 21,
                 "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
    g2 = create({"edition": "golden-age", "players": 2, "seed": 22,
                 "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    conns = connect_all()
    play(conns, 60)
    drain(conns)
    acked1 = {g: i["acked"] for g, i in games.items()}
    # 1. a clean stop and restart
    check(srv.stop() == 0, "SIGTERM stops the server cleanly")
    for c in conns:
        c.close()
    srv.start()
    conns = connect_all()
    check_resumed(conns, "after restart")
    play(conns, 60)
    # 2. kill -9 while moves are flying: send a burst, then kill at once
    for c in conns:
        st = [m for m in c.frames if m["type"] == "state"][-1]
        if st["legal"]:
            c.send({"type": "move", "move": pick_move(st["legal"], rng), "decision": st["decision"]})
    time.sleep(0.005)
    srv.stop(kill=True)
    drain(conns, 0.3)
    for c in conns:
        c.close()
    srv.start()
    conns = connect_all()
    check_resumed(conns, "after kill -9")
    # 3. play both games to the end; the replay has every acknowledged move
    play(conns, 100000)
    drain(conns)
    for gid, info in games.items():
        check(info["over"], f"game {gid} finished")
        st, rep = http_json(srv.port, "GET", f"/api/games/{gid}/replay")
        check(st == 200, f"replay {gid}: {st}")
        moves = rep["moves"]
        for n, mv in info["seen"].items():
            check(n < len(moves) and moves[n]["move"] == mv,
                  f"game {gid} move {n}: the client saw {mv}, the replay has "
                  f"{moves[n]['move'] if n < len(moves) else 'nothing'}")
        check(rep["steps"] >= acked1[gid], "no move lost across the restarts")
        print(f"game {gid}: {rep['steps']} moves, {len(info['seen'])} seen by clients, "
              f"all in the replay", flush=True)
    # 4. finished games stay viewable after another restart
    for c in conns:
        c.close()
    srv.stop(kill=True)
    srv.start()
    st, r = http_json(srv.port, "GET", "/api/games?status=over")
    check(st == 200 and {g["id"] for g in r["games"]} >= set(games), "finished games are listed")
    for gid in games:
        st, rep = http_json(srv.port, "GET", f"/api/games/{gid}/replay?step=3")
        check(st == 200 and rep["step"] == 3 and rep["view"]["viewer"] == -1,
              f"replay step 3 of {gid}")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly on SIGTERM (status {code}): {srv.log_text()[-2000:]}")

finish("server_restart: restart and kill -9 lost no acknowledged move")
