"""server_turnbased.py: turn-based games of `chartered serve` over real
sockets (docs/protocol.md, "Turn-based games").

1. Bad requests: an unknown mode, days other than 1, 2, 3 or 7, days for a
   live game, a turn timer on a turn-based game: each 400 with its reason.
2. A turn-based game of two people (1 day per move) is played a few moves;
   with no client it leaves memory (CHARTERED_EVICT_SECONDS=1), comes back
   for its summary with the same decision, and leaves again. The server
   is stopped and started again: the game is not loaded at start (it costs
   no memory), a player joins with the token, gets the same decision and
   legal moves and plays on.
3. The server is started again with days of one second
   (CHARTERED_DAY_SECONDS=1): the clock of the game, which is out of memory,
   has run out; the server reads it back by itself and the stand-in bot
   plays for the person to move (the seat is shown away), with no client
   connected. The days per move stay in the summary and the state frames.

usage: python3 server_turnbased.py BINARY SRCDIR WORKDIR
"""
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, http_call, check, finish, test_args, pick_move  # noqa: E402

BIN, SRC, WORK = test_args()

db = os.path.join(WORK, "turnbased.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
os.environ["CHARTERED_EVICT_SECONDS"] = "1"
os.environ["CHARTERED_DAY_SECONDS"] = "3600"  # no clock runs out in parts 1-2
srv = Server(BIN, db).start()
rng = random.Random(7)


def health():
    st, h = http_json(srv.port, "GET", "/api/health")
    check(st == 200 and h.get("ok") is True, f"health: {st} {h}")
    return h


def wait_health(pred, what, secs=30):
    end = time.time() + secs
    while time.time() < end:
        h = health()
        if pred(h):
            return h
        time.sleep(0.2)
    h = health()
    check(False, f"{what}: not within {secs} s ({h})")
    return h


def join(gid, tok):
    c = srv.ws()
    c.send({"type": "join", "game": gid, "token": tok})
    m = c.recv_until(lambda m: m["type"] in ("state", "error"), timeout=30)
    return c, m


def play_one(c, m):
    """The seat of c decides in state m: one legal move, and the next frame
    after it (the acknowledgement)."""
    d = m["decision"]
    c.send({"type": "move", "move": pick_move(m["legal"], rng), "decision": d})
    return c.recv_until(lambda x: x["type"] == "error" or
                        (x["type"] == "state" and x["decision"] > d), timeout=30)


try:
    # 1. bad requests
    bad = [({"mode": "slow"}, "mode must be"),
           ({"mode": "turn-based", "days": 4}, "days must be 1, 2, 3 or 7"),
           ({"mode": "turn-based", "days": "3"}, "days must be 1, 2, 3 or 7"),
           ({"days": 2}, "days is for turn-based games only"),
           ({"mode": "turn-based", "days": 2, "turn_timer": 60}, "no turn_timer")]
    for extra, want in bad:
        body = {"players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}
        body.update(extra)
        st, r = http_json(srv.port, "POST", "/api/games", body)
        check(st == 400 and want in r.get("error", ""), f"{extra}: {st} {r}")
    st, r = http_json(srv.port, "GET", "/api/games")
    check(st == 200 and r["games"] == [], f"no game made by a bad request: {r}")

    # 2. a turn-based game leaves memory and survives a restart
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2, "seed": 5, "mode": "turn-based", "days": 1,
        "seats": [{"kind": "human", "name": "Anke"}, {"kind": "human", "name": "Bram"}]})
    check(st == 201, f"create: {st} {g}")
    gid = g["id"]
    tok = {s["seat"]: s["token"] for s in g["seats"]}
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(s["mode"] == "turn-based" and s["days"] == 1, f"summary: {s}")
    a, ma = join(gid, tok[0])
    b, mb = join(gid, tok[1])
    check(ma["type"] == "state" and mb["type"] == "state", f"both join: {ma} {mb}")
    conns = {0: a, 1: b}
    last = {0: ma, 1: mb}

    def frame_at(seat, d):
        """Seat's state frame at decision d (the one kept, or the next)."""
        if last[seat]["type"] == "state" and last[seat]["decision"] == d \
                and last[seat]["status"] == "playing":
            return last[seat]
        last[seat] = conns[seat].recv_until(
            lambda x: x["type"] == "state" and x["decision"] == d and x["status"] == "playing",
            timeout=30)
        return last[seat]

    # play until one person alone is to move, after a few moves
    m = frame_at(0, 0)
    for _ in range(60):
        who = m["deciders"]
        if m["decision"] >= 4 and len(who) == 1:
            break
        seat = who[0]
        mm = frame_at(seat, m["decision"])
        m = play_one(conns[seat], mm)
        last[seat] = m
        check(m["type"] == "state", f"a move is accepted: {m}")
        if m["type"] != "state":
            break
    check(m["timer"].get("days") == 1 and m["timer"]["seconds"] == 3600
          and m["timer"]["deadline"] is not None, f"the state frame shows the clock: {m['timer']}")
    decision, decider = m["decision"], m["deciders"][0]
    a.close()
    b.close()
    h = wait_health(lambda h: h["games_in_memory"] == 0, "the idle turn-based game leaves memory")
    check(h["games_evicted"] >= 1, f"counted as evicted: {h}")
    # out of memory, it is still listed: in the lobby, and in both players'
    # "My games" (guests here), the one to move first; none of this reads
    # it back into memory ("read back once" below)
    st, lst = http_json(srv.port, "GET", "/api/games")
    idle = [x for x in lst.get("games", []) if x["id"] == gid]
    check(st == 200 and len(idle) == 1 and idle[0]["status"] == "playing"
          and idle[0]["mode"] == "turn-based" and idle[0]["days"] == 1
          and idle[0]["decision"] == decision, f"the lobby lists the idle game once: {idle}")
    for seat in (0, 1):
        st, r, _ = http_call(srv.port, "GET", "/api/my-games", cookie=srv.token_cookies[tok[seat]])
        ent = [x for x in r.get("games", []) if x["id"] == gid]
        check(st == 200 and len(ent) == 1 and ent[0]["seat"] == seat
              and ent[0]["your_turn"] == (seat == decider) and ent[0]["days"] == 1,
              f"seat {seat}'s My games lists the idle game: {st} {r}")
        # the table, read from the stored seats: names, and who decides
        pl = ent[0].get("players", []) if ent else []
        check(len(pl) == 2 and all(p["name"] and not p["bot"] for p in pl)
              and [p["deciding"] for p in pl] == [decider == 0, decider == 1],
              f"seat {seat}'s entry names the table and whose turn it is: {pl}")
    check(health()["games_in_memory"] == 0, "listing it did not load it")
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200 and s["status"] == "playing" and s["decision"] == decision,
          f"read back for its summary: {st} {s}")
    check(health()["games_reloaded"] == 1, "read back once")
    wait_health(lambda h: h["games_in_memory"] == 0, "and leaves memory again")

    check(srv.stop() == 0, "SIGTERM stops the server")
    srv.start()
    h = health()
    check(h["games_in_memory"] == 0, f"not loaded at start: {h}")
    c, m = join(gid, tok[decider])
    check(m["type"] == "state" and m["decision"] == decision and m["deciders"] == [decider]
          and m["legal"], f"after the restart the player finds the game as it was: {m}")
    m2 = play_one(c, m)
    check(m2["type"] == "state" and m2["decision"] > decision, f"and plays on: {m2}")
    decision = m2["decision"]
    c.close()
    wait_health(lambda h: h["games_in_memory"] == 0, "idle again after the restart")
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(s["decision"] == decision, f"the move is stored: {s}")
    deciders_now = None
    # who must move now (from a spectator's frame)
    w = srv.ws()
    w.send({"type": "watch", "game": gid})
    wm = w.recv_until(lambda x: x["type"] == "state", timeout=30)
    deciders_now = wm["deciders"]
    w.close()
    wait_health(lambda h: h["games_in_memory"] == 0, "idle before the last restart")
    check(srv.stop() == 0, "SIGTERM stops the server again")

    # 3. days of one second: the clock has run out while out of memory
    os.environ["CHARTERED_DAY_SECONDS"] = "1"
    srv.start()
    h = wait_health(lambda h: h["games_reloaded"] >= 1, "the server reads the game back "
                    "when its clock runs out")
    end = time.time() + 60
    s = {}
    while time.time() < end:
        st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
        if st == 200 and s["decision"] > decision:
            break
        time.sleep(0.2)
    check(s.get("decision", 0) > decision, f"the stand-in moved: {s}")
    away = [x["seat"] for x in s.get("seats", []) if x.get("away")]
    check(away and set(away) <= set(deciders_now),
          f"for the person who had to move: away {away}, deciders were {deciders_now}")
    print(f"game {gid}: {decision} moves by people, then the stand-in", flush=True)
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code}): {srv.log_text()[-2000:]}")

finish("server_turnbased: turn-based games leave memory, survive a restart, and their clock "
       "brings the stand-in")
