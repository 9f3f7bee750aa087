"""server_end.py: POST /api/games/ID/end (docs/protocol.md "Abandoned
games"): the one person of a practice game against bots ends it, as the
tutorial does when a learner leaves a step (docs/tutorial.md), over real
sockets. The game becomes "abandoned" (summary, the person's state frame),
leaves "My games" (where it stood with the person to move), stays so after a
restart, and is counted in /api/health; a second end is refused (409). Who
else may not end it: no session (401), another guest (403); what may not be
ended: a rated game against bots, a practice game of two people (403).
A tutorial step's game is created with "listed": false: it is in neither
public list (in play, finished) while in play, once ended, nor after a
restart, while a listed practice game ended so is in the finished list; only
a practice game may be unlisted (400).

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


def listed(status=None):
    st, r = http_json(srv.port, "GET", "/api/games" + (f"?status={status}" if status else ""))
    check(st == 200, f"the public list {status}: {st} {r}")
    return [x["id"] for x in r.get("games", [])]


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

    # a tutorial step's game: unlisted
    st, u = http_json(srv.port, "POST", "/api/games", {"position": LESSON, "seats": BOTS3, "listed": False},
                      cookie=me)
    check(st == 201, f"an unlisted practice game: {st} {u}")
    uid = u["id"]
    st, s1 = http_json(srv.port, "GET", f"/api/games/{uid}")
    check(s1.get("unlisted") is True and s1.get("practice") is True, f"its summary says unlisted: {s1}")
    cu = srv.ws(me)
    cu.send({"type": "join", "game": uid})
    cu.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    check(uid in my_games(me), "the unlisted game is in its person's \"My games\"")
    check(uid not in listed() and gid not in listed(), "neither game is in the public list of games in play")
    st, r = http_json(srv.port, "POST", f"/api/games/{uid}/end", cookie=me)
    check(st == 200 and r.get("status") == "abandoned", f"the learner ends the unlisted game: {st} {r}")
    cu.close()
    over = listed("over")
    check(gid in over, "the listed practice game ended is in the public finished list")
    check(uid not in over, "the unlisted one is not in the public finished list")
    st, s2 = http_json(srv.port, "GET", f"/api/games/{uid}")
    check(st == 200 and s2.get("status") == "abandoned", f"its link still answers: {st} {s2}")
    for bad, want in ((dict(edition="amsterdam", players=2, listed=False), "only a practice game"),
                      (dict(position=LESSON, listed="no"), "listed must be true or false")):
        st, r = http_json(srv.port, "POST", "/api/games", bad, cookie=me)
        check(st == 400 and want in r.get("error", ""), f"refused: {bad.get('listed')!r}: {st} {r}")

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
    over = listed("over")
    check(gid in over and uid not in over, "after a restart: the listed game is in the finished list, the unlisted not")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code})")

finish("server_end: a practice game against bots ended by its person; refusals; restart")
