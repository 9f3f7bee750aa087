"""server_follow.py: following players (issue 32 item 4; docs/protocol.md,
"Following") against `chartered serve` over real sockets:
1. Bad input: no session or a guest (401), an unknown name (404), oneself, a
   missing or extra field, not JSON (400), GET of the remove route (405),
   removing someone not followed (404); nothing is stored for any of them.
2. anna follows Bart (any case): 201, then 200 again and still one row;
   Bart is not told (his own list is empty, nothing pending for him).
3. anna's list names Bart, online (he used his session just now), not
   playing; once Bart starts a game against a bot it is listed, marked new,
   with its players and a link to watch it; a waiting game of his is listed
   too, and a game of someone anna does not follow is not.
4. A restart keeps the follow; after unfollowing, the list is empty and the
   row gone.

usage: python3 server_follow.py BINARY SRCDIR WORKDIR (CHARTERED_TEST_PG=1: PostgreSQL)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, signup, http_call, http_json, guest, sql_rows, check,  # noqa: E402
                      finish, test_args)

BIN, SRC, WORK = test_args()
db = os.path.join(WORK, "follow.db")
srv = Server(BIN, db).start()
P = srv.port


def rows():
    return int(sql_rows(db, "SELECT COUNT(*) FROM follows")[0][0])


def following(cookie):
    st, r = http_json(P, "GET", "/api/following", cookie=cookie)
    check(st == 200, f"the list: {st} {r}")
    return r["following"]


try:
    anna, bart, cees = signup(P, "anna"), signup(P, "Bart"), signup(P, "cees")

    # 1. bad input
    st, r = http_json(P, "POST", "/api/following", {"name": "Bart"})
    check(st == 401, f"no session: 401 ({st} {r})")
    gast = guest(P, "Gast")
    for method, path in (("POST", "/api/following"), ("GET", "/api/following")):
        st, r = http_json(P, method, path, {"name": "Bart"} if method == "POST" else None,
                          cookie=gast)
        check(st == 401, f"a guest: {method} {path} 401 ({st} {r})")
    st, r = http_json(P, "POST", "/api/following", {"name": "nobody"}, cookie=anna)
    check(st == 404, f"an unknown name: 404 ({st} {r})")
    st, r = http_json(P, "POST", "/api/following", {"name": "ANNA"}, cookie=anna)
    check(st == 400 and "yourself" in r.get("error", ""), f"oneself: 400 ({st} {r})")
    for body in ({}, {"name": ""}, {"name": 5}, {"name": "Bart", "notify": True}, {"name": "x" * 30}):
        st, r = http_json(P, "POST", "/api/following", body, cookie=anna)
        check(st == 400, f"{body}: 400 ({st} {r})")
    st, r, _ = http_call(P, "POST", "/api/following", raw=b"{not json", cookie=anna)
    check(st == 400, f"not JSON: 400 ({st})")
    st, r = http_json(P, "GET", "/api/following/remove", cookie=anna)
    check(st == 405, f"remove by GET: 405 ({st} {r})")
    st, r = http_json(P, "POST", "/api/following/remove", {"name": "Bart"}, cookie=anna)
    check(st == 404, f"removing someone not followed: 404 ({st} {r})")
    check(rows() == 0, "nothing stored for bad input")

    # 2. follow, twice; the followed person is not told
    st, r = http_json(P, "POST", "/api/following", {"name": "bart"}, cookie=anna)
    check(st == 201 and r == {"name": "Bart", "following": True}, f"anna follows Bart: {st} {r}")
    st, r = http_json(P, "POST", "/api/following", {"name": "BART"}, cookie=anna)
    check(st == 200 and r["following"] is True, f"again: 200 ({st} {r})")
    check(rows() == 1, "one row")
    check(following(bart) == [], "Bart's own list is empty")
    st, r = http_json(P, "GET", "/api/challenges", cookie=bart)
    check(st == 200 and r["incoming"] == [], f"nothing is pending for Bart: {r}")

    # 3. the list: online, then his games
    f = following(anna)
    check([x["name"] for x in f] == ["Bart"] and f[0]["online"] is True and
          f[0]["playing"] is False and f[0]["games"] == [], f"Bart, online, no game: {f}")
    st, g = http_json(P, "POST", "/api/games",
                      {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]},
                      cookie=bart)
    check(st == 201, f"Bart starts a game against a bot: {st} {g}")
    st, w = http_json(P, "POST", "/api/games",
                      {"players": 2, "edition": "golden-age",
                       "seats": [{"kind": "human"}, {"kind": "human", "access": "open"}]},
                      cookie=bart)
    check(st == 201, f"and opens a game for anyone: {st} {w}")
    st, o = http_json(P, "POST", "/api/games",
                      {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]},
                      cookie=cees)
    check(st == 201, f"cees plays a bot too: {st} {o}")
    f = following(anna)
    games = f[0]["games"]
    ids = [x["id"] for x in games]
    check(f[0]["playing"] is True and sorted(ids) == sorted([g["id"], w["id"]]),
          f"Bart's two games are listed, cees's is not: {f}")
    mine = [x for x in games if x["id"] == g["id"]][0]
    check(mine["new"] is True and mine["status"] == "playing" and
          mine["link"] == f"/#/watch/{g['id']}" and mine["players"][0] == "Bart" and
          mine["edition"] == "amsterdam", f"the game against the bot: {mine}")
    wait = [x for x in games if x["id"] == w["id"]][0]
    check(wait["status"] == "waiting" and wait["edition"] == "golden-age", f"the open one: {wait}")

    # 4. kept over a restart; unfollowed
    srv.stop()
    srv.start()
    P = srv.port
    check([x["name"] for x in following(anna)] == ["Bart"], "after a restart: still followed")
    st, r = http_json(P, "POST", "/api/following/remove", {"name": "Bart"}, cookie=anna)
    check(st == 200 and r == {"name": "Bart", "following": False}, f"unfollowed: {st} {r}")
    check(following(anna) == [] and rows() == 0, "the list is empty, the row gone")
finally:
    srv.stop()

finish("following: bad input, follow/unfollow, the list with games, restart: ok")
