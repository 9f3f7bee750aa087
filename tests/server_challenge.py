"""server_challenge.py: challenges by name (issue 32 item 4; docs/protocol.md,
"Challenges") against `chartered serve` over real sockets:
1. Bad input: no session or a guest (401), an unknown name (404), oneself,
   a missing name, bad settings, more than two players, an unknown field
   (400); nothing is stored for any of them.
2. A challenge is listed for both people (incoming, outgoing); only the
   challenged person accepts or declines, only the challenger cancels.
3. Accepted: a game of the chosen settings with both people seated, bound to
   their accounts (in both "My games"), the link given to the accepter and
   shown in the challenger's list; a second accept is refused (409).
4. Declined and cancelled challenges leave the lists; answering them again
   is refused (409); an unknown id is 404.
5. At most 5 pending challenges sent per account (429).
6. A pending challenge survives a restart and is accepted after it.

usage: python3 server_challenge.py BINARY SRCDIR WORKDIR (CHARTERED_TEST_PG=1: PostgreSQL)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, signup, http_call, http_json, guest, sql_rows, check,  # noqa: E402
                      finish, test_args)

BIN, SRC, WORK = test_args()
db = os.path.join(WORK, "challenge.db")
srv = Server(BIN, db).start()
P = srv.port


def rows():
    return int(sql_rows(db, "SELECT COUNT(*) FROM challenges")[0][0])


def lists(cookie):
    st, r = http_json(P, "GET", "/api/challenges", cookie=cookie)
    check(st == 200, f"the lists: {st} {r}")
    return r


def my_games(cookie):
    st, r = http_json(P, "GET", "/api/my-games", cookie=cookie)
    check(st == 200, f"my-games: {st} {r}")
    return [x["id"] for x in r.get("games", [])]


try:
    anna, bart, cees = signup(P, "anna"), signup(P, "Bart"), signup(P, "cees")
    turn = {"edition": "amsterdam", "mode": "turn-based", "days": 2}

    # 1. bad input
    st, r = http_json(P, "POST", "/api/challenges", {"name": "Bart", **turn})
    check(st == 401, f"no session: 401 ({st} {r})")
    st, r = http_json(P, "POST", "/api/challenges", {"name": "Bart", **turn}, cookie=guest(P, "Gast"))
    check(st == 401, f"a guest cannot challenge: 401 ({st} {r})")
    st, r = http_json(P, "GET", "/api/challenges", cookie=guest(P, "Gast2"))
    check(st == 401, f"a guest has no challenges: 401 ({st} {r})")
    st, r = http_json(P, "POST", "/api/challenges", {"name": "nobody", **turn}, cookie=anna)
    check(st == 404, f"an unknown name: 404 ({st} {r})")
    st, r = http_json(P, "POST", "/api/challenges", {"name": "ANNA", **turn}, cookie=anna)
    check(st == 400 and "yourself" in r.get("error", ""), f"oneself: 400 ({st} {r})")
    bad = [({**turn}, "name"), ({"name": "", **turn}, "name"), ({"name": 5}, "name"),
           ({"name": "Bart", "edition": "chess"}, "edition"),
           ({"name": "Bart", "edition": "amsterdam", "mode": "turn-based", "days": 4}, "days"),
           ({"name": "Bart", "edition": "amsterdam", "players": 3}, "two players"),
           ({"name": "Bart", "edition": "amsterdam", "seed": 4}, "unknown field"),
           ({"name": "Bart", "edition": "amsterdam", "seats": []}, "unknown field")]
    for body, word in bad:
        st, r = http_json(P, "POST", "/api/challenges", body, cookie=anna)
        check(st == 400 and word in r.get("error", ""), f"{body}: 400 naming {word} ({st} {r})")
    st, r, _ = http_call(P, "POST", "/api/challenges", raw=b"{not json", cookie=anna)
    check(st == 400, f"not JSON: 400 ({st})")
    st, r = http_json(P, "POST", "/api/challenges/abc/frobnicate", {}, cookie=anna)
    check(st == 404, f"an unknown verb: 404 ({st} {r})")
    for bad in ("", "a" * 17):  # no id, one longer than an id (16) (api/job_api.c)
        st, r = http_json(P, "POST", f"/api/challenges/{bad}/accept", {}, cookie=anna)
        check(st == 404 and "no such route" in r.get("error", ""),
              f"an id of {len(bad)} characters: 404 ({st} {r})")
    st, r = http_json(P, "GET", "/api/challenges/abc/accept", cookie=anna)
    check(st == 405, f"accept by GET: 405 ({st} {r})")
    check(rows() == 0, "nothing stored for bad input")

    # 2. a challenge, seen both ways
    st, c1 = http_json(P, "POST", "/api/challenges", {"name": "bart", **turn}, cookie=anna)
    check(st == 201 and c1["to"] == "Bart" and c1["from"] == "anna" and c1["status"] == "pending",
          f"anna challenges Bart: {st} {c1}")
    lb, la = lists(bart), lists(anna)
    check([x["id"] for x in lb["incoming"]] == [c1["id"]] and lb["outgoing"] == [],
          f"Bart sees it incoming: {lb}")
    check(lb["incoming"][0]["settings"] == turn and lb["incoming"][0]["from"] == "anna",
          f"with its settings: {lb['incoming'][0]}")
    check([x["id"] for x in la["outgoing"]] == [c1["id"]] and la["incoming"] == [],
          f"anna sees it outgoing: {la}")
    check(lists(cees) == {"incoming": [], "outgoing": []}, "cees sees nothing")
    for who, ck, verb in (("anna", anna, "accept"), ("anna", anna, "decline"),
                          ("cees", cees, "accept"), ("Bart", bart, "cancel"), ("cees", cees, "cancel")):
        st, r = http_json(P, "POST", f"/api/challenges/{c1['id']}/{verb}", {}, cookie=ck)
        check(st == 404, f"{who} cannot {verb} it: 404 ({st} {r})")

    # 3. accepted: both seated
    st, a = http_json(P, "POST", f"/api/challenges/{c1['id']}/accept", {}, cookie=bart)
    check(st == 201 and a["link"] == f"/#/play/{a['game']}", f"Bart accepts: {st} {a}")
    g = a["game"]
    check(g in my_games(anna) and g in my_games(bart) and g not in my_games(cees),
          "the game is in both people's games, not in others'")
    st, s = http_json(P, "GET", f"/api/games/{g}")
    names = sorted(x.get("name") for x in s.get("seats", []))
    check(st == 200 and names == ["Bart", "anna"] and s.get("status") == "playing",
          f"both seated, playing: {st} {s}")
    check(s.get("days") == 2 and s.get("mode") == "turn-based" and s.get("edition") == "amsterdam"
          and s.get("players") == 2, f"with the settings chosen: {s}")
    st, r = http_json(P, "POST", f"/api/challenges/{c1['id']}/accept", {}, cookie=bart)
    check(st == 409, f"a second accept: 409 ({st} {r})")
    la, lb = lists(anna), lists(bart)
    check(la["outgoing"] and la["outgoing"][0]["status"] == "accepted" and
          la["outgoing"][0]["link"] == f"/#/play/{g}", f"anna's list has the game's link: {la}")
    check(lb["incoming"] == [], f"no longer pending for Bart: {lb}")

    # 4. declined, cancelled
    st, c2 = http_json(P, "POST", "/api/challenges", {"name": "cees", "edition": "golden-age"},
                       cookie=bart)
    check(st == 201, f"Bart challenges cees: {st} {c2}")
    st, r = http_json(P, "POST", f"/api/challenges/{c2['id']}/decline", {}, cookie=cees)
    check(st == 200 and r["status"] == "declined", f"cees declines: {st} {r}")
    st, r = http_json(P, "POST", f"/api/challenges/{c2['id']}/accept", {}, cookie=cees)
    check(st == 409, f"accepting a declined one: 409 ({st} {r})")
    check(lists(cees)["incoming"] == [] and lists(bart)["outgoing"] == [], "gone from both lists")
    st, c3 = http_json(P, "POST", "/api/challenges", {"name": "cees", "edition": "amsterdam",
                                                      "mode": "live"}, cookie=anna)
    st, r = http_json(P, "POST", f"/api/challenges/{c3['id']}/cancel", {}, cookie=anna)
    check(st == 200 and r["status"] == "cancelled", f"anna cancels: {st} {r}")
    st, r = http_json(P, "POST", f"/api/challenges/{c3['id']}/accept", {}, cookie=cees)
    check(st == 409, f"accepting a cancelled one: 409 ({st} {r})")
    st, r = http_json(P, "POST", "/api/challenges/" + "0" * 16 + "/accept", {}, cookie=cees)
    check(st == 404, f"an unknown id: 404 ({st} {r})")
    check(lists(cees)["incoming"] == [], "cees has nothing pending")

    # 5. the limit on pending challenges
    ids = []
    for i in range(5):
        st, c = http_json(P, "POST", "/api/challenges", {"name": "cees", "edition": "amsterdam"},
                          cookie=bart)
        check(st == 201, f"pending challenge {i + 1}: {st} {c}")
        ids.append(c.get("id"))
    st, r = http_json(P, "POST", "/api/challenges", {"name": "anna", "edition": "amsterdam"},
                      cookie=bart)
    check(st == 429, f"a sixth pending one: 429 ({st} {r})")
    check(len(lists(cees)["incoming"]) == 5, "cees sees five")
    http_json(P, "POST", f"/api/challenges/{ids[0]}/cancel", {}, cookie=bart)
    st, c6 = http_json(P, "POST", "/api/challenges", {"name": "anna", "edition": "golden-age",
                                                      "mode": "turn-based", "days": 7}, cookie=bart)
    check(st == 201, f"after one is cancelled, another: {st} {c6}")

    # 6. a restart keeps them
    srv.stop()
    srv.start()
    P = srv.port
    check([x["id"] for x in lists(anna)["incoming"]] == [c6["id"]], "after a restart: still there")
    st, a6 = http_json(P, "POST", f"/api/challenges/{c6['id']}/accept", {}, cookie=anna)
    check(st == 201 and a6["game"] in my_games(bart), f"accepted after the restart: {st} {a6}")
finally:
    srv.stop()

finish("challenges: bad input, create/accept/decline/cancel, limits, restart: ok")
