"""server_rematch.py: "play again with the same people" asks each of them
(issue 32 item 4, issue 31; docs/protocol.md, "Rematch") against `chartered
serve` over real sockets. Games end quickly here: nobody stays connected, so
a live game of people is abandoned after a second (CHARTERED_ABANDON_SECONDS).
1. A table of anna, Bart, the guest Gus and a bot: who may propose (401 no
   session, 403 not a player, 409 a game in play). anna proposes: an offer,
   anna's yes, Bart and Gus asked (the bot is not); it is in their lists,
   not in cees's; cees cannot answer it (404). Bart accepts (twice: no
   change): still pending. Gus accepts: the game starts, with the four in
   their seats; the old game names it; proposing again gets it (200).
2. One decline: Bart proposes after a game with anna, anna declines: the
   offer says so (declined_by), Bart's accept is refused (409), no game is
   made; Bart may ask again.
3. Against bots only: nobody to ask, the game at once.
4. A restart keeps an offer; one nobody answers in time (here 1 s,
   CHARTERED_REMATCH_SECONDS) is "expired" and cannot be accepted (409).

usage: python3 server_rematch.py BINARY SRCDIR WORKDIR (CHARTERED_TEST_PG=1: PostgreSQL)
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, signup, http_json, guest, sql_rows, check, finish,  # noqa: E402
                      test_args)

BIN, SRC, WORK = test_args()
db = os.path.join(WORK, "rematch.db")
os.environ["CHARTERED_ABANDON_SECONDS"] = "1"
srv = Server(BIN, db).start()
P = srv.port


def games():
    return int(sql_rows(db, "SELECT COUNT(*) FROM games")[0][0])


def offers(cookie):
    st, r = http_json(P, "GET", "/api/rematches", cookie=cookie)
    check(st == 200, f"the offers: {st} {r}")
    return r.get("offers", [])


def over(gid):
    end = time.time() + 30
    while time.time() < end:
        st, s = http_json(P, "GET", f"/api/games/{gid}")
        if st == 200 and s["status"] in ("over", "abandoned"):
            return s
        time.sleep(0.2)
    check(False, f"game {gid} ends (abandoned: nobody connected)")


def answers(o):
    return [(a["name"], a["answer"]) for a in o["answers"]]


try:
    anna, bart, cees = signup(P, "anna"), signup(P, "Bart"), signup(P, "cees")
    gus = guest(P, "Gus")

    # 1. a table of three people and a bot
    st, t = http_json(P, "POST", "/api/games",
                      {"players": 4, "seats": [{"kind": "human"},
                                               {"kind": "human", "access": "open"},
                                               {"kind": "human", "access": "open"},
                                               {"kind": "bot", "bot": "greedy"}]}, cookie=anna)
    check(st == 201, f"anna's table: {st} {t}")
    T = t["id"]
    for ck, seat in ((bart, 1), (gus, 2)):
        st, r = http_json(P, "POST", f"/api/games/{T}/join", {"seat": seat}, cookie=ck)
        check(st == 200, f"seat {seat} taken: {st} {r}")
    st, r = http_json(P, "POST", f"/api/games/{T}/rematch", {}, cookie=anna)
    check(st == 409, f"a game in play: 409 ({st} {r})")
    over(T)
    st, r = http_json(P, "POST", f"/api/games/{T}/rematch", {})
    check(st == 401, f"no session: 401 ({st} {r})")
    st, r = http_json(P, "POST", f"/api/games/{T}/rematch", {}, cookie=cees)
    check(st == 403, f"not a player: 403 ({st} {r})")
    n0 = games()
    st, o = http_json(P, "POST", f"/api/games/{T}/rematch", {}, cookie=anna)
    check(st == 201 and o["status"] == "pending" and o["game"] == T and o["by"] == "anna" and
          answers(o) == [("anna", "yes"), ("Bart", "ask"), ("Gus", "ask")] and o["mine"] == "yes"
          and 500 < o["expires"] / 1000 - time.time() < 700,
          f"anna proposes: an offer, the others asked, 10 minutes: {st} {o}")
    check(games() == n0, "no game yet")
    oid = o["id"]
    for who, ck in (("Bart", bart), ("Gus", gus)):
        mine = [x for x in offers(ck) if x["id"] == oid]
        check(mine and mine[0]["mine"] == "ask" and mine[0]["status"] == "pending",
              f"{who} is asked: {mine}")
    check(offers(cees) == [], "cees is not")
    for verb in ("accept", "decline"):
        st, r = http_json(P, "POST", f"/api/rematches/{oid}/{verb}", {}, cookie=cees)
        check(st == 404, f"cees cannot {verb}: 404 ({st} {r})")
    st, r = http_json(P, "GET", f"/api/rematches/{oid}/accept", cookie=bart)
    check(st == 405, f"accept by GET: 405 ({st} {r})")
    st, r = http_json(P, "POST", f"/api/rematches/{oid}/shrug", {}, cookie=bart)
    check(st == 404, f"an unknown verb: 404 ({st} {r})")
    for bad in ("", "a" * 17):  # no id, one longer than an id (16) (api/job_api.c)
        st, r = http_json(P, "POST", f"/api/rematches/{bad}/accept", {}, cookie=bart)
        check(st == 404 and "no such route" in r.get("error", ""),
              f"an id of {len(bad)} characters: 404 ({st} {r})")
    for i in range(2):
        st, r = http_json(P, "POST", f"/api/rematches/{oid}/accept", {}, cookie=bart)
        check(st == 200 and r["status"] == "pending" and
              answers(r) == [("anna", "yes"), ("Bart", "yes"), ("Gus", "ask")],
              f"Bart accepts ({i + 1}): still waiting for Gus: {st} {r}")
    check(games() == n0, "still no game")
    st, r = http_json(P, "POST", f"/api/rematches/{oid}/accept", {}, cookie=gus)
    check(st == 200 and r["status"] == "started" and r["link"] == f"/#/play/{r['rematch']}",
          f"Gus accepts: it starts: {st} {r}")
    G = r["rematch"]
    st, s = http_json(P, "GET", f"/api/games/{G}")
    check(st == 200 and [x.get("name") for x in s["seats"][:3]] == ["anna", "Bart", "Gus"] and
          s["seats"][3]["kind"] == "bot" and s["status"] in ("playing", "abandoned", "over"),
          f"the four in their seats: {s}")
    st, s = http_json(P, "GET", f"/api/games/{T}")
    check(s.get("rematch") == G, f"the old game names it: {s.get('rematch')}")
    st, r = http_json(P, "POST", f"/api/games/{T}/rematch", {}, cookie=bart)
    check(st == 200 and r["rematch"] == G and r["created"] is False, f"asked again: it: {st} {r}")
    mine = [x for x in offers(anna) if x["id"] == oid]
    check(mine and mine[0]["status"] == "started" and mine[0]["rematch"] == G,
          f"anna's list says it started: {mine}")
    check(games() == n0 + 1, "one game made")

    # 2. one "no"
    st, c = http_json(P, "POST", "/api/challenges", {"name": "Bart", "edition": "golden-age"},
                      cookie=anna)
    st, a = http_json(P, "POST", f"/api/challenges/{c['id']}/accept", {}, cookie=bart)
    check(st == 201, f"a game of anna and Bart: {st} {a}")
    D = a["game"]
    over(D)
    n1 = games()
    st, o = http_json(P, "POST", f"/api/games/{D}/rematch", {}, cookie=bart)
    check(st == 201 and o["status"] == "pending" and o["edition"] == "golden-age",
          f"Bart proposes: {st} {o}")
    st, r = http_json(P, "POST", f"/api/rematches/{o['id']}/decline", {}, cookie=anna)
    check(st == 200 and r["status"] == "declined" and r["declined_by"] == "anna",
          f"anna declines: {st} {r}")
    mine = [x for x in offers(bart) if x["id"] == o["id"]]
    check(mine and mine[0]["status"] == "declined" and mine[0]["declined_by"] == "anna",
          f"Bart is told: {mine}")
    st, r = http_json(P, "POST", f"/api/rematches/{o['id']}/accept", {}, cookie=bart)
    check(st == 409 and "declined" in r.get("error", ""), f"accepting it now: 409 ({st} {r})")
    st, r = http_json(P, "POST", f"/api/rematches/{o['id']}/accept", {}, cookie=anna)
    check(st == 409, f"anna changing her mind: 409 ({st} {r})")
    check(games() == n1, "no game made")
    st, o2 = http_json(P, "POST", f"/api/games/{D}/rematch", {}, cookie=bart)
    check(st == 201 and o2["id"] != o["id"] and o2["status"] == "pending",
          f"Bart may ask again: {st} {o2}")

    # 3. bots only: at once
    st, b = http_json(P, "POST", "/api/games", {"players": 2, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}, cookie=cees)
    over(b["id"])
    st, r = http_json(P, "POST", f"/api/games/{b['id']}/rematch", {}, cookie=cees)
    check(st == 201 and r["status"] == "started" and r["created"] is True,
          f"against a bot: at once: {st} {r}")

    # 4. a restart keeps the offer; then one that runs out
    srv.stop()
    srv.start()
    P = srv.port
    mine = [x for x in offers(anna) if x["id"] == o2["id"]]
    check(mine and mine[0]["status"] == "pending" and mine[0]["mine"] == "ask",
          f"after a restart anna is still asked: {mine}")
    srv.stop()
    os.environ["CHARTERED_REMATCH_SECONDS"] = "1"
    srv.start()
    P = srv.port
    st, c = http_json(P, "POST", "/api/challenges", {"name": "cees", "edition": "amsterdam"},
                      cookie=anna)
    st, a = http_json(P, "POST", f"/api/challenges/{c['id']}/accept", {}, cookie=cees)
    E = a["game"]
    over(E)
    st, o3 = http_json(P, "POST", f"/api/games/{E}/rematch", {}, cookie=anna)
    check(st == 201 and o3["expires"] - o3["created"] == 1000, f"an offer of 1 s: {st} {o3}")
    time.sleep(1.2)
    n2 = games()
    st, r = http_json(P, "POST", f"/api/rematches/{o3['id']}/accept", {}, cookie=cees)
    check(st == 409 and "expired" in r.get("error", ""), f"too late: 409 ({st} {r})")
    mine = [x for x in offers(anna) if x["id"] == o3["id"]]
    check(mine and mine[0]["status"] == "expired", f"anna's list says so: {mine}")
    check(games() == n2, "no game made")
finally:
    srv.stop()

finish("rematch offers: asked of each person, accepted by all, one no, bots only, "
       "restart, expiry: ok")
