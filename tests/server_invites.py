"""server_invites.py: a reserved seat's invite link can be had again by the
game's creator, and replaced (issue 28 item 7), over real sockets against
`chartered serve`.

Anke (a guest) creates a game with two reserved seats and an open one. The
links were shown once at creation; afterwards:
- GET /api/games/ID/invites gives Anke (checked against her session) every
  unclaimed reserved seat's link, the same as at creation; Mallory (another
  session) gets none, without a session it is 401;
- POST /api/games/ID/invites {"seat":N} gives Anke a new link; the old one
  then seats nobody (bad_token), the new one seats Bram; Mallory's POST is
  403; an open seat, a taken seat or no such seat are refused;
- a claimed seat's link is no longer listed;
- the token is never stored (a copy of the database seats nobody): after a
  restart (the game read back from the database) the remaining seat is
  listed as "lost", and the creator makes it a new link, which seats Cato.

usage: python3 server_invites.py BINARY SRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, WS, http_json, guest, db_dump, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
db = os.path.join(WORK, "invites.db")
srv = Server(BIN, db).start()
P = srv.port


def join(cookie, gid, token):
    ws = WS("127.0.0.1", P, cookie=cookie)
    ws.send({"type": "join", "game": gid, "token": token})
    m = ws.recv_until(lambda m: m["type"] in ("state", "error"), timeout=20)
    ws.close()
    return m


def invites(cookie):
    return http_json(P, "GET", f"/api/games/{gid}/invites", cookie=cookie)


anke, bram, cato, mallory = guest(P, "Anke"), guest(P, "Bram"), guest(P, "Cato"), guest(P, "Mal")
st, g = http_json(P, "POST", "/api/games", {
    "edition": "amsterdam", "players": 4,
    "seats": [{"kind": "human"}, {"kind": "human", "access": "reserved", "name": "B"},
              {"kind": "human", "access": "reserved", "name": "C"},
              {"kind": "human", "access": "open"}]}, cookie=anke)
check(st == 201, f"Anke creates the game: {st} {g}")
gid = g["id"]
shown = {s["seat"]: s["link"] for s in g["seats"] if s.get("token")}
check(sorted(shown) == [1, 2], f"the creation shows the two reserved seats' links: {shown}")

st, r = invites(anke)
got = {x["seat"]: x["link"] for x in r.get("invites", [])} if st == 200 else {}
check(st == 200 and r.get("creator") is True and got == shown,
      f"the creator gets the same links again: {st} {r}")
st, r = invites(mallory)
check(st == 200 and r.get("creator") is False and r.get("invites") == [] and "token" not in repr(r),
      f"another session gets no link: {st} {r}")
st, r = invites(None)
check(st == 401, f"no session: 401: {st} {r}")

# a new link for seat 1: the old one ends
old1 = shown[1].rsplit("/", 1)[1]
st, r = http_json(P, "POST", f"/api/games/{gid}/invites", {"seat": 1}, cookie=mallory)
check(st == 403, f"Mallory cannot make a new link: {st} {r}")
st, r = http_json(P, "POST", f"/api/games/{gid}/invites", {"seat": 1}, cookie=anke)
new1 = r.get("token") if st == 200 else None
check(st == 200 and new1 and new1 != old1 and r.get("link", "").endswith("/" + str(new1)),
      f"the creator makes seat 1 a new link: {st} {r}")
st, r = invites(anke)
got = {x["seat"]: x["link"] for x in r.get("invites", [])}
check(got.get(1, "").endswith("/" + str(new1)) and got.get(2) == shown[2],
      f"the list shows the new link and keeps the other: {got}")
m = join(mallory, gid, old1)
check(m["type"] == "error" and m.get("code") == "bad_token",
      f"the old link seats nobody: {m.get('type')} {m.get('code')}")
for body, code in (({"seat": 3}, 409), ({"seat": 0}, 409), ({"seat": 9}, 400), ({}, 400)):
    st, r = http_json(P, "POST", f"/api/games/{gid}/invites", body, cookie=anke)
    check(st == code, f"a new link for {body}: {code}: {st} {r}")
m = join(bram, gid, new1)
check(m["type"] == "state" and m.get("seat") == 1, f"the new link seats Bram: {m.get('type')} "
      f"{m.get('code')} {m.get('message')}")
st, r = invites(anke)
check([x["seat"] for x in r.get("invites", [])] == [2], f"a claimed seat's link is gone: {r}")
st, r = http_json(P, "POST", f"/api/games/{gid}/invites", {"seat": 1}, cookie=anke)
check(st == 409, f"no new link for a taken seat: {st} {r}")

# the token is not in the database; after a restart it is "lost" and the
# creator makes a new link
srv.stop()
raw = db_dump(db)
check(shown[2].rsplit("/", 1)[1].encode() not in raw and new1.encode() not in raw,
      "no invite token is in the database in clear")
srv.start()
P = srv.port
st, r = invites(anke)
check(st == 200 and r.get("creator") is True and r.get("invites") == [
    {"seat": 2, "name": "C", "lost": True}], f"after a restart seat 2's link is lost: {st} {r}")
st, r = invites(mallory)
check(st == 200 and r.get("invites") == [], f"after a restart still nobody else: {st} {r}")
st, r = http_json(P, "POST", f"/api/games/{gid}/invites", {"seat": 2}, cookie=anke)
check(st == 200 and r.get("token"), f"the creator makes seat 2 a new link: {st} {r}")
m = join(cato, gid, r.get("token", ""))
check(m["type"] == "state" and m.get("seat") == 2, f"the new link seats Cato: {m.get('type')} "
      f"{m.get('code')}")

check(srv.alive(), "the server runs on")
srv.stop()
finish("invites: the creator has every unclaimed reserved seat's link again, a new link ends "
       "the old, no token stored")
