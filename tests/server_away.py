"""server_away.py: the per-game turn timer and reconnection. A human seat
that lets the timer run out is marked away and a bot plays for it (the game
moves on without it); when the player reconnects with the token it takes the
seat back and gets the full current view. Without a timer nobody is replaced.

usage: python3 server_away.py BINARY SRCDIR WORKDIR
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()


srv = Server(BIN, os.path.join(WORK, "away.db")).start()
try:
    st, g = http_json(srv.port, "POST", "/api/games", {
        "players": 2, "seed": 3, "turn_timer": 1,
        "seats": [{"kind": "human", "name": "Slow"}, {"kind": "human", "name": "Fast"}]})
    check(st == 201, "create with a timer")
    gid = g["id"]
    a, b = srv.ws(), srv.ws()
    a.send({"type": "join", "game": gid, "token": g["seats"][0]["token"]})
    b.send({"type": "join", "game": gid, "token": g["seats"][1]["token"]})
    m = a.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    check(m["timer"]["seconds"] == 1 and isinstance(m["timer"]["deadline"], int),
          f"the timer is announced: {m['timer']}")
    start, deadline = m["decision"], m["timer"]["deadline"]
    # nobody moves: after the timer the deciders are away and a bot moves.
    # The deadline is the server's clock (Unix ms), like time.time() here:
    # a frame saying someone is away is built at or after it, and read later
    m = a.recv_until(lambda m: m["type"] == "state" and m["decision"] >= start + 3, timeout=20)
    seen = time.time() * 1000
    away = [s["away"] for s in m["seats"]]
    check(any(away), f"a seat is marked away: {m['seats']}")
    check(seen >= deadline, f"not before the timer ran out ({seen - deadline:.0f} ms after "
          f"its deadline)")
    # seat 0 comes back: a fresh connection with the token
    a.close()
    a2 = srv.ws()
    a2.send({"type": "join", "game": gid, "token": g["seats"][0]["token"]})
    m = a2.recv_until(lambda m: m["type"] == "state")
    check(m["seat"] == 0 and not m["seats"][0]["away"], "reconnecting takes the seat back")
    check("hand" in m["view"]["players"][0], "the reconnected seat sees its hand")
    check(len(m["log"]) > 0, "the reconnected seat gets the log")
    a2.close()
    b.close()

    # without a timer nobody is replaced
    st, g = http_json(srv.port, "POST", "/api/games", {
        "players": 2, "seed": 4, "seats": [{"kind": "human"}, {"kind": "human"}]})
    c, d = srv.ws(), srv.ws()
    c.send({"type": "join", "game": g["id"], "token": g["seats"][0]["token"]})
    d.send({"type": "join", "game": g["id"], "token": g["seats"][1]["token"]})
    m = c.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    check(m["timer"] == {"seconds": 0, "deadline": None}, "no timer by default")
    time.sleep(2.0)
    st, s = http_json(srv.port, "GET", f"/api/games/{g['id']}")
    check(s["decision"] == m["decision"] and not any(x["away"] for x in s["seats"]),
          "without a timer the game waits")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly on SIGTERM (status {code}): {srv.log_text()[-2000:]}")

finish("server_away: the turn timer hands a seat to a bot; the token takes it back")
