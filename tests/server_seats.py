"""server_seats.py: seats that cannot be taken (issue 19 defect 2, issue 14
item 2), over real sockets against `chartered serve`.

Anke (an account) creates a game and is seated at once; Bram (a guest) takes
his reserved seat through its invite link; an open seat is taken from the
lobby. Then Mallory, a stranger who reads the game's id from the lobby and
even gets hold of Bram's invite link, tries every way to act for, or see the
hand of, a seat that is not hers: the lobby and summaries (no token, no
owner), POST /api/games/ID/join (a reserved seat, a taken seat, any seat,
without a session), the WebSocket (the leaked invite token, no token, a
forged cookie, no cookie, Anke's cookie from another site's page), moves for
another seat, and the replay of a running game. Each is refused and no frame
she gets carries another seat's view. A player who logs out and back in gets
the seat back; a guest's seat outlives a reconnect.

usage: python3 server_seats.py BINARY SRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, WS, http_call, http_json, session_cookie, guest,  # noqa: E402
                      check, finish, test_args)

BIN, SRC, WORK = test_args()


def no_secret_anywhere(obj, what):
    text = repr(obj)
    check("token" not in text and "owner" not in text and "/#/play/" not in text,
          f"{what} carries no token, owner or seat link: {text[:300]}")


def first(ws, types=("state", "error")):
    return ws.recv_until(lambda m: m["type"] in types, timeout=20)


def refused(ws, code, what, own=None):
    """The answer to a join that must be refused. A connection that already
    plays seat `own` may get state frames of that seat at any time (the game
    changed: a commit came back, a player (dis)connected), before or after
    the refusal; those are kept for the final check, and only a frame of
    another seat, or the error, answers. Nothing here depends on timing."""
    while True:
        m = first(ws)
        if own is None or m["type"] != "state" or m["seat"] != own:
            break
        mallory_frames.append(m)
    check(m["type"] == "error" and m["code"] == code, f"{what}: expected {code}, got "
          f"{m.get('type')} {m.get('code')} seat {m.get('seat')}")
    return m


def signup(port, name):
    st, r, h = http_call(port, "POST", "/api/signup", {"name": name, "password": "pass " + name})
    check(st == 201, f"sign-up {name}: {st} {r}")
    return session_cookie(h)


db = os.path.join(WORK, "seats.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
srv = Server(BIN, db).start()
mallory_frames = []
try:
    P = srv.port
    anke = signup(P, "anke")
    bram = guest(P, "Bram")
    mallory = guest(P, "Mallory")
    eve = signup(P, "eve")

    # ---- the creator is seated at once ----
    st, g = http_json(P, "POST", "/api/games",
                      {"players": 4, "seat": 0,
                       "seats": [{"kind": "human"}, {"kind": "human", "name": "Bram"},
                                 {"kind": "human", "access": "open"},
                                 {"kind": "bot", "bot": "random"}]}, cookie=anke)
    check(st == 201, f"create: {st} {g}")
    gid = g["id"]
    s0, s1, s2 = g["seats"][0], g["seats"][1], g["seats"][2]
    check(s0.get("you") is True and "token" not in s0 and s0["name"] == "anke",
          f"the creator sits in seat 0 at once, no token needed: {s0}")
    check(s1.get("access") == "reserved" and len(s1.get("token", "")) == 32,
          f"the reserved seat has an invite token: {s1}")
    check(s2.get("access") == "open" and "token" not in s2, f"the open seat has none: {s2}")
    T1 = s1["token"]
    st, one = http_json(P, "GET", f"/api/games/{gid}")
    check(one["seats"][0]["claimed"] and not one["seats"][1]["claimed"],
          f"seat 0 is taken before Anke opens anything: {one['seats']}")
    # the creator chooses another seat
    st, g2 = http_json(P, "POST", "/api/games", {"players": 2, "seat": 1}, cookie=eve)
    check(st == 201 and g2["seats"][1].get("you") and "token" in g2["seats"][0],
          f"the creator's chosen seat: {g2}")
    st, r = http_json(P, "POST", "/api/games", {"players": 2, "seat": 1,
                                                "seats": [{}, {"kind": "bot", "bot": "random"}]},
                      cookie=eve)
    check(st == 400, f"a creator seat that is a bot's: {st} {r}")

    # ---- the lobby, the summary: nothing to steal ----
    st, lst = http_json(P, "GET", "/api/games")
    check(any(x["id"] == gid for x in lst["games"]), "the game is listed")
    no_secret_anywhere(lst, "the lobby list")
    st, one = http_json(P, "GET", f"/api/games/{gid}")
    no_secret_anywhere(one, "the game summary")

    # ---- the API ----
    for body, what in [({"seat": 0}, "Anke's seat"), ({"seat": 1}, "reserved seat 1"),
                       ({"seat": 3}, "the bot's seat")]:
        st, r = http_json(P, "POST", f"/api/games/{gid}/join", body, cookie=mallory)
        check(st == 409, f"Mallory's join of {what} is refused: {st} {r}")
        no_secret_anywhere(r, "the refusal")
    st, r = http_json(P, "POST", f"/api/games/{gid}/join", {"seat": 2})
    check(st == 401, f"a join without a session: {st} {r}")

    # ---- Bram takes his reserved seat by its invite link ----
    b = WS("127.0.0.1", P, cookie=bram)
    b.send({"type": "join", "game": gid, "token": T1})
    m = first(b)
    check(m["type"] == "state" and m["seat"] == 1 and m["view"]["viewer"] == 1,
          f"the invite link gives Bram seat 1: {m.get('type')} {m.get('code')} {m.get('message')}")
    check([s["name"] for s in m["seats"]][:2] == ["anke", "Bram"], "the seats show the names")

    # ---- Mallory with the leaked invite link, over the WebSocket ----
    w = WS("127.0.0.1", P, cookie=mallory)
    w.send({"type": "join", "game": gid, "token": T1})
    mallory_frames.append(refused(w, "seat_taken", "the leaked link on another session"))
    w.send({"type": "join", "game": gid})
    mallory_frames.append(refused(w, "bad_token", "a join without a token and no seat"))
    w.send({"type": "join", "game": gid, "token": T1[:-1] + ("0" if T1[-1] != "0" else "1")})
    mallory_frames.append(refused(w, "bad_token", "a guessed token"))
    w.send({"type": "move", "move": "draw", "decision": 0})
    mallory_frames.append(refused(w, "no_game", "a move without a seat"))
    w.close()
    for cookie, what in [(None, "no cookie"), ("chartered_session=" + "ab" * 32, "a forged cookie")]:
        x = WS("127.0.0.1", P, cookie=cookie)
        x.send({"type": "join", "game": gid, "token": T1})
        mallory_frames.append(refused(x, "no_session", f"the leaked link with {what}"))
        x.close()
    # Anke's own cookie, sent by another site's page (cross-site WebSocket)
    x = WS("127.0.0.1", P, cookie=anke, origin="http://evil.example")
    x.send({"type": "join", "game": gid})
    mallory_frames.append(refused(x, "no_session", "Anke's cookie from another site"))
    x.close()

    # ---- the open seat: Mallory may sit there, and only there ----
    st, r = http_json(P, "POST", f"/api/games/{gid}/join", {}, cookie=mallory)
    check(st == 200 and r["seat"] == 2 and "token" not in r, f"Mallory takes the open seat: {r}")
    st, r = http_json(P, "POST", f"/api/games/{gid}/join", {"seat": 2}, cookie=eve)
    check(st == 409, f"a taken open seat is refused: {st} {r}")
    st, r = http_json(P, "POST", f"/api/games/{gid}/join", {}, cookie=mallory)
    check(st == 409, f"one seat per person and game: {st} {r}")
    w = WS("127.0.0.1", P, cookie=mallory)
    w.send({"type": "join", "game": gid})
    m = first(w)
    check(m["type"] == "state" and m["seat"] == 2 and m["view"]["viewer"] == 2,
          f"Mallory's own seat, her own view: {m.get('seat')}")
    mallory_frames.append(m)
    w.send({"type": "join", "game": gid, "token": T1})
    mallory_frames.append(refused(w, "seat_taken", "the leaked link from a seated player", own=2))

    # ---- Anke plays her seat from any of her sessions ----
    a = WS("127.0.0.1", P, cookie=anke)
    a.send({"type": "join", "game": gid})
    m = first(a)
    check(m["type"] == "state" and m["seat"] == 0 and m["status"] == "playing",
          f"Anke joins her seat with her session; everyone is seated: {m.get('status')}")
    # moves: Mallory cannot move for another seat. She plays her own turns
    # until a person who is not her must decide (nobody moves for them here)
    def mine(lines):
        x = lines[0]
        if x.startswith("range "):
            prefix, lo, _hi = x[len("range "):].rsplit(" ", 2)
            return f"{prefix} {lo}"
        return x
    sent = set()  # one move per decision: a state frame can come again for one
    while True:
        m = w.recv_until(lambda x: x["type"] == "state" and x["deciders"], timeout=30)
        if set(m["deciders"]) <= {0, 1}:
            break
        if 2 in m["deciders"] and m["legal"] and m["decision"] not in sent:
            sent.add(m["decision"])
            w.send({"type": "move", "move": mine(m["legal"]), "decision": m["decision"]})
    dec = m["decision"]
    # answers to her earlier moves (a "stale" one for a frame already old)
    # are queued before this pong: the next error answers the move below
    w.send({"type": "ping"})
    w.recv_until(lambda x: x["type"] == "pong")
    w.send({"type": "move", "move": "draw", "decision": dec})
    e = w.recv_until(lambda x: x["type"] == "error")
    check(e["code"] in ("not_your_turn", "illegal_move"), f"Mallory cannot move for seat "
          f"{m['deciders']}: {e}")
    st, one = http_json(P, "GET", f"/api/games/{gid}")
    check(one["decision"] == dec, f"the game did not move: {one['decision']} {dec}")
    mallory_frames.extend(f for f in w.frames if f.get("type") == "state")
    # the replay of a running game shows nothing
    st, r = http_json(P, "GET", f"/api/games/{gid}/replay", cookie=mallory)
    check(st == 403, f"no replay while the game runs: {st}")

    # ---- logout and back: the account keeps its seat; the stranger does not get it ----
    st, _, _ = http_call(P, "POST", "/api/logout", cookie=anke)
    m = a.recv_until(lambda m: m["type"] == "error")
    check(m["code"] == "no_session", f"Anke's open connection hears of the logout: {m}")
    a.send({"type": "move", "move": "draw", "decision": dec})
    m = a.recv_until(lambda m: m["type"] == "error")
    check(m["code"] == "no_game", f"and plays no more: {m}")
    st, r, h = http_call(P, "POST", "/api/login", {"name": "anke", "password": "pass anke"})
    anke_again = session_cookie(h)
    a2 = WS("127.0.0.1", P, cookie=anke_again)
    a2.send({"type": "join", "game": gid})
    m = first(a2)
    check(m["type"] == "state" and m["seat"] == 0, f"logged in again, Anke has her seat: {m}")
    # Bram reconnects with his guest cookie: same seat
    b2 = WS("127.0.0.1", P, cookie=bram)
    b2.send({"type": "join", "game": gid})
    m = first(b2)
    check(m["type"] == "state" and m["seat"] == 1, f"the guest's seat outlives a reconnect: {m}")

    # ---- after a restart the bindings hold (stored with the seats) ----
    for c in (a2, b, b2, w):
        c.close()
    srv.stop()
    srv.start()
    x = WS("127.0.0.1", srv.port, cookie=mallory)
    x.send({"type": "join", "game": gid, "token": T1})
    mallory_frames.append(refused(x, "seat_taken", "the leaked link after a restart"))
    x.send({"type": "join", "game": gid})
    m = first(x)
    check(m["type"] == "state" and m["seat"] == 2, f"Mallory still has only seat 2: {m.get('seat')}")
    mallory_frames.append(m)
    y = WS("127.0.0.1", srv.port, cookie=bram)
    y.send({"type": "join", "game": gid})
    m = first(y)
    check(m["type"] == "state" and m["seat"] == 1, "Bram has seat 1 after the restart")
    x.close()
    y.close()

    # nothing Mallory was sent shows another seat's view
    for f in mallory_frames:
        if f.get("type") == "state":
            check(f["seat"] == 2 and f["view"]["viewer"] == 2,
                  f"Mallory's frames show only her seat: seat {f['seat']}")
    check(srv.alive(), "the server is still running")
finally:
    srv.stop()
finish("server_seats: no seat can be taken or watched from another session")
