"""server_end.py: POST /api/games/ID/end (docs/protocol.md "Abandoned
games"): the one person of a practice game against bots ends it, as the
tutorial does when a learner leaves a step (docs/tutorial.md), over real
sockets. The game becomes "abandoned" (summary, the person's state frame),
leaves "My games" (where it stood with the person to move), stays so after a
restart, and is counted in /api/health; a second end is refused (409). Who
else may not end it: no session (401), another guest (403); what may not be
ended: a rated game against bots, a practice game of two people (403).

usage: python3 server_end.py BINARY SRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, guest, http_json, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()

# the tutorial's founding step: seat 2 is the learner's
LESSON = """edition amsterdam
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
BOTS3 = [{"kind": "bot", "bot": "greedy"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]


def my_games(cookie):
    st, r = http_json(srv.port, "GET", "/api/my-games", cookie=cookie)
    check(st == 200, f"my-games: {st} {r}")
    return [x["id"] for x in r.get("games", [])]


db = os.path.join(WORK, "end.db")
srv = Server(BIN, db).start()
try:
    me = guest(srv.port, "Learner")
    st, g = http_json(srv.port, "POST", "/api/games", {"position": LESSON, "seats": BOTS3}, cookie=me)
    check(st == 201, f"a tutorial step's game: {st} {g}")
    gid = g["id"]
    c = srv.ws(me)
    c.send({"type": "join", "game": gid})
    m = c.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    check(gid in my_games(me), "the game is in the learner's \"My games\" while in play")

    # who may not end it
    st, r = http_json(srv.port, "POST", f"/api/games/{gid}/end")
    check(st == 401, f"no session: {st} {r}")
    other = guest(srv.port, "Other")
    st, r = http_json(srv.port, "POST", f"/api/games/{gid}/end", cookie=other)
    check(st == 403 and "only the person" in r.get("error", ""), f"another guest: {st} {r}")
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(s.get("status") == "playing", f"the refusals changed nothing: {s.get('status')}")

    # its person ends it
    st, r = http_json(srv.port, "POST", f"/api/games/{gid}/end", cookie=me)
    check(st == 200 and r.get("status") == "abandoned", f"the learner ends it: {st} {r}")
    m = c.recv_until(lambda m: m["type"] == "state" and m["status"] != "playing")
    check(m["status"] == "abandoned", f"the state frame says abandoned: {m['status']}")
    c.close()
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(s.get("status") == "abandoned", f"the summary says abandoned: {s}")
    check(gid not in my_games(me), "the game left \"My games\"")
    st, r = http_json(srv.port, "POST", f"/api/games/{gid}/end", cookie=me)
    check(st == 409, f"ended twice: {st} {r}")
    st, h = http_json(srv.port, "GET", "/api/health")
    check(h.get("games_abandoned") == 1, f"/api/health counts it: {h.get('games_abandoned')}")

    # what cannot be ended
    st, g2 = http_json(srv.port, "POST", "/api/games", {"edition": "amsterdam", "players": 2, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}, cookie=me)
    check(st == 201, f"a rated game against a bot: {st} {g2}")
    st, r = http_json(srv.port, "POST", f"/api/games/{g2['id']}/end", cookie=me)
    check(st == 403 and "practice" in r.get("error", ""), f"a rated game is not ended: {st} {r}")
    st, g3 = http_json(srv.port, "POST", "/api/games", {"position": LESSON, "seats": [
        {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}, cookie=me)
    check(st == 201, f"a practice game of two people: {st} {g3}")
    st, r = http_json(srv.port, "POST", f"/api/games/{g3['id']}/end", cookie=me)
    check(st == 403 and "against bots" in r.get("error", ""), f"two people's game is not ended: {st} {r}")
    st, r = http_json(srv.port, "POST", "/api/games/ffffffffffffffff/end", cookie=me)
    check(st == 404, f"no such game: {st} {r}")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code}): {srv.log_text()[-2000:]}")

# stored as abandoned: still so after a restart
srv = Server(BIN, db).start()
try:
    st, s = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 200 and s.get("status") == "abandoned", f"abandoned after a restart: {st} {s}")
    check(gid not in my_games(me), "not back in \"My games\" after a restart")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code})")

finish("server_end: a practice game against bots ended by its person; refusals; restart")
