"""server_seats.py: seats that cannot be taken (issue 19 defect 2, issue 14
item 2), over real sockets against `chartered serve`.

A stranger who reads a game's id from the lobby tries every way to get a seat
that is not its own: POST /api/games/ID/join of a reserved seat (whose invite
token the creator holds), of the first free seat, of an open seat someone
already took; the listings and summaries are checked never to carry a token;
an open seat's token goes to the one who takes it alone.

usage: python3 server_seats.py BINARY SRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()


def no_token_anywhere(obj, what):
    """No member called token (nor a play link) anywhere in obj."""
    text = repr(obj)
    check("token" not in text and "/#/play/" not in text, f"{what} carries no token: {text[:300]}")


db = os.path.join(WORK, "seats.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
srv = Server(BIN, db).start()
try:
    # ---- reserved seats (the default): only through their invite link ----
    st, g = http_json(srv.port, "POST", "/api/games",
                      {"players": 2, "seats": [{"kind": "human", "name": "Anke"},
                                               {"kind": "human", "name": "Bram"}]})
    check(st == 201, f"create: {st} {g}")
    gid = g["id"]
    toks = [s["token"] for s in g["seats"]]
    check(all(s.get("access") == "reserved" for s in g["seats"]), f"seats reserved by default: {g}")
    # the stranger finds the game in the lobby
    st, lst = http_json(srv.port, "GET", "/api/games")
    check(st == 200 and any(x["id"] == gid for x in lst["games"]), "the game is listed")
    no_token_anywhere(lst, "the lobby list")
    st, one = http_json(srv.port, "GET", f"/api/games/{gid}")
    no_token_anywhere(one, "the game summary")
    # ... and asks for Bram's seat, and for any free seat
    st, r = http_json(srv.port, "POST", f"/api/games/{gid}/join", {"seat": 1, "name": "Mallory"})
    check(st == 409, f"a stranger's join of reserved seat 1 is refused: {st} {r}")
    no_token_anywhere(r, "the refused join")
    check(toks[1] not in repr(r), "the refused join does not carry T1")
    st, r = http_json(srv.port, "POST", f"/api/games/{gid}/join", {})
    check(st == 409, f"a join of 'any free seat' finds none: {st} {r}")
    check(toks[0] not in repr(r) and toks[1] not in repr(r), "no token in that answer")
    st, one = http_json(srv.port, "GET", f"/api/games/{gid}")
    check([s["name"] for s in one["seats"]] == ["Anke", "Bram"], f"names unchanged: {one}")
    check(not any(s["claimed"] for s in one["seats"]), "no seat claimed by the attempts")

    # Bram uses his invite link: he gets his own seat and hand
    b = srv.ws()
    b.send({"type": "join", "game": gid, "token": toks[1]})
    m = b.recv_until(lambda m: m["type"] in ("state", "error"))
    check(m["type"] == "state" and m["seat"] == 1, f"the invite link gives seat 1: {m}")

    # ---- open seats: the token goes to the one who takes the seat ----
    st, g2 = http_json(srv.port, "POST", "/api/games",
                       {"players": 3, "seats": [{"kind": "human", "name": "Anke"},
                                                {"kind": "human", "access": "open"},
                                                {"kind": "human", "access": "open"}]})
    check(st == 201, f"create with open seats: {st} {g2}")
    check("token" in g2["seats"][0] and "token" not in g2["seats"][1]
          and "token" not in g2["seats"][2], f"open seats have no token in the create answer: {g2}")
    known = {g2["seats"][0]["token"]}
    st, r1 = http_json(srv.port, "POST", f"/api/games/{g2['id']}/join", {"name": "Zed"})
    check(st == 200 and r1["seat"] == 1, f"join takes the first free open seat: {st} {r1}")
    check(r1.get("token") not in known and len(r1.get("token", "")) == 32,
          "the joiner's token is new")
    known.add(r1.get("token"))
    st, r = http_json(srv.port, "POST", f"/api/games/{g2['id']}/join", {"seat": 1})
    check(st == 409 and "token" not in r, f"a taken open seat is refused: {st} {r}")
    st, r = http_json(srv.port, "POST", f"/api/games/{g2['id']}/join", {"seat": 0})
    check(st == 409 and "token" not in r, f"the creator's reserved seat is refused: {st} {r}")
    st, r2 = http_json(srv.port, "POST", f"/api/games/{g2['id']}/join", {})
    check(st == 200 and r2["seat"] == 2 and r2["token"] not in known,
          f"the next open seat, with a token of its own: {st} {r2}")
    st, r = http_json(srv.port, "POST", f"/api/games/{g2['id']}/join", {})
    check(st == 409, f"no open seat left: {st} {r}")
    st, r = http_json(srv.port, "POST", "/api/games",
                      {"players": 2, "seats": [{"kind": "human", "access": "public"}]})
    check(st == 400 and "access" in r.get("error", ""), f"a bad access value: {st} {r}")
    b.close()
    check(srv.alive(), "the server is still running")
finally:
    srv.stop()
finish("server_seats: reserved and open seats hold")
