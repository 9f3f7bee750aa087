"""server_position.py: games that start from a position (issue 15 part 6,
docs/formats.md "Positions"; docs/protocol.md POST /api/games "position"),
over real sockets: POST /api/games with a position text creates an unrated
practice game with the position's players, board and cards; a seat sees its
hand from the position and can play from it; the game survives a restart
(the setup stores the position); a bad position is refused with
"position:LINE: reason" and creates nothing; a position with its own setup
fields (seed, players) is refused.

usage: python3 server_position.py BINARY SRCDIR WORKDIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()

LESSON = """# the rulebook's founding example: B1 and D1 lone, seat 2 holds C1
edition amsterdam
players 3
seed 5
turn 1 player 2 phase turn
warehouse Harbour B1
warehouse Harbour D1
player 2 cash f100
hand 2 Harbour C1, random 4
hand 1 random 5
hand 3 random 5
"""

db = os.path.join(WORK, "position.db")
srv = Server(BIN, db).start()
try:
    seats = [{"kind": "bot", "bot": "greedy"}, {"kind": "human", "name": "Bernadette"},
             {"kind": "bot", "bot": "greedy"}]
    st, g = http_json(srv.port, "POST", "/api/games", {"position": LESSON, "seats": seats})
    check(st == 201, f"create from a position: {st} {g}")
    gid = g["id"]
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200 and s.get("practice") is True, f"a position game is a practice game: {s}")
    c = srv.ws()
    c.send({"type": "join", "game": gid, "token": g["seats"][1]["token"]})
    m = c.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    view = json.dumps(m["view"])
    check("Harbour C1" in json.dumps(m["view"]["players"][1]), "seat 2 holds Harbour C1")
    check("play Harbour C1" in json.dumps(m.get("legal", [])), f"seat 2 may play Harbour C1: {m.get('legal')}")
    check(m["view"]["players"][1]["cash"] == 100, "seat 2 has f100")
    check("Harbour B1" in view and "Harbour D1" in view, "the board has B1 and D1")
    dec = m["decision"]
    c.send({"type": "move", "move": "play Harbour C1", "decision": dec})
    m = c.recv_until(lambda m: m["type"] == "state" and m["decision"] > dec)
    c.send({"type": "move", "move": "found Coal", "decision": m["decision"]})
    m = c.recv_until(lambda m: m["type"] == "state" and m["view"]["players"][1]["cash"] == 130)
    c.close()
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    before = s["decision"]
    # bad positions: refused with the line and the reason, nothing created
    for text, want in [
        ("players 3\nwarehouse Harbor B1\n", "position:2: unknown plot 'Harbor B1' (did you mean 'Harbour B1'?)"),
        ("players 3\nwarehouse Harbour B1\nwarehouse Harbour C1\n", "position:3: lone warehouses"),
        (7, "position must be the text of a position"),
    ]:
        st, r = http_json(srv.port, "POST", "/api/games", {"position": text})
        check(st == 400 and want in r.get("error", ""), f"bad position: {st} {r}")
    st, r = http_json(srv.port, "POST", "/api/games", {"position": LESSON, "seed": 3})
    check(st == 400 and "seed" in r.get("error", ""), f"a position with a seed: {st} {r}")
    st, r = http_json(srv.port, "POST", "/api/games", {"position": LESSON, "practice": False})
    check(st == 400, f"a position game cannot be rated: {st} {r}")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code}): {srv.log_text()[-2000:]}")

# the game comes back after a restart, from its stored position and moves
srv = Server(BIN, db).start()
try:
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200, f"the position game is back after a restart: {st} {s}")
    check(s["decision"] == before and s.get("practice") is True,
          f"... at the same decision ({before}), still a practice game: {s}")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code})")

finish("server_position: games from a position: create, play, restart, refusals")
