"""server_errors.py: every kind of bad input to `chartered serve`, over real
sockets: malformed JSON, an unknown type, a missing field, an oversized
frame, a binary frame, a wrong or missing token, an unknown game, a move out
of turn, an illegal move, a stale decision number, a spectator's move, a
move before the game started, a client that sends too fast, bad HTTP
requests, unmasked client frames (closed with 1002, also one sent with the
upgrade request), and request headers past the limits (431, 414: a status
line, never a bare close). Each must get an error with its code and reason, leave the game
exactly as it was (same decision, same view), and leave the server running.
Also: tokens are 128-bit hex, distinct, and give exactly their own seat;
the bots offered (the rollout bot among them) can be seated, and an unknown
bot is refused with the list.

usage: python3 server_errors.py BINARY SRCDIR WORKDIR
"""
import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, WS, WSClosed, http_json, guest, check, finish, raw_status,  # noqa: E402
                      test_args)
import http.client as httpc  # noqa: E402

BIN, SRC, WORK = test_args()


def expect_error(c, code, what):
    m = c.recv_until(lambda m: m["type"] == "error", timeout=10)
    check(m["code"] == code, f"{what}: expected {code}, got {m}")
    check(isinstance(m.get("message"), str) and len(m["message"]) > 5,
          f"{what}: the error says why ({m})")
    return m


db = os.path.join(WORK, "errors.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
srv = Server(BIN, db).start()
try:
    # ---- HTTP ----
    for body, what in [
        ('{"edition":"chess"}', "unknown edition"),
        ('{"players":9}', "too many players"),
        ('{"players":1}', "too few players"),
        ('{"edition":"amsterdam","preset":"golden-age"}', "preset on the wrong edition"),
        ('{"arrangement":"nowhere"}', "unknown arrangement"),
        ('{"seats":[{"kind":"alien"}]}', "bad seat kind"),
        ('{"seats":[{"kind":"bot","bot":"deep-blue"}]}', "unknown bot"),
        ('{"seats":[{"kind":"bot","bot":"ismcts","strength":7}]}', "bad strength"),
        ('{"turn_timer":-3}', "bad turn timer"),
        ('{"colour":"red"}', "unknown field"),
        ('{"players":', "malformed JSON"),
        ('[1,2]', "not an object"),
    ]:
        st, r = http_json(srv.port, "POST", "/api/games", raw=body)
        check(st == 400 and isinstance(r, dict) and r.get("error"), f"POST {what}: {st} {r}")
    st, r = http_json(srv.port, "POST", "/api/games", raw="x" * 20000)
    check(st == 413, f"oversized body: {st}")
    st, r = http_json(srv.port, "GET", "/api/games/0123456789abcdef")
    check(st == 404, "unknown game: 404")
    st, r = http_json(srv.port, "GET", "/api/nothing")
    check(st == 404, "unknown API call: 404")
    st, r = http_json(srv.port, "GET", "/../../etc/passwd")
    check(st == 404, "path outside the web directory: 404")
    st, r = http_json(srv.port, "GET", "/i18n/xx.json")
    check(st == 404, "missing catalogue: 404")
    st, r = http_json(srv.port, "GET", "/api/options")
    check(st == 200 and len(r["editions"]) == 2, "options")

    # a 2-player game of two humans
    st, g = http_json(srv.port, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2, "seed": 5,
        "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]})
    check(st == 201, f"create: {st} {g}")
    gid = g["id"]
    toks = [s["token"] for s in g["seats"]]
    check(all(len(t) == 32 and all(ch in "0123456789abcdef" for ch in t) for t in toks),
          "tokens are 32 hex digits")
    check(len(set(toks)) == 2 and len(gid) == 16, "distinct tokens, 16-hex game id")
    st, r = http_json(srv.port, "GET", f"/api/games/{gid}/replay")
    check(st == 403, "no replay while the game runs")

    a = srv.ws()
    # moves before joining, unknown game, bad token
    a.send({"type": "move", "move": "draw", "decision": 0})
    expect_error(a, "no_game", "move before join")
    a.send({"type": "join", "game": "ffffffffffffffff", "token": toks[0]})
    expect_error(a, "no_game", "unknown game")
    a.send({"type": "join", "game": gid, "token": "0" * 32})
    expect_error(a, "bad_token", "wrong token")
    a.send({"type": "join", "game": gid})
    expect_error(a, "bad_token", "missing token")
    a.send({"type": "join", "game": gid, "token": toks[0][:-1] + "x"})
    expect_error(a, "bad_token", "almost right token")
    a.send({"type": "join", "game": gid, "token": toks[0]})
    s0 = a.recv_until(lambda m: m["type"] == "state")
    check(s0["seat"] == 0 and s0["status"] == "waiting", f"seat 0 waiting: {s0['status']}")
    a.send({"type": "move", "move": "draw", "decision": s0["decision"]})
    expect_error(a, "not_started", "move before the game starts")

    b = srv.ws()
    b.send({"type": "join", "game": gid, "token": toks[1]})
    s1 = b.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    check(s1["seat"] == 1, "the second token gives seat 1")
    sa = a.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing")
    decider = sa["deciders"][0]
    mover, other = (a, b) if decider == 0 else (b, a)
    st_mover = sa if decider == 0 else s1
    # the other seat's token gives that seat only: its view has its own hand
    check(s1["view"]["viewer"] == 1 and sa["view"]["viewer"] == 0, "views are per seat")
    dec = st_mover["decision"]
    legal = st_mover["legal"]
    check(len(legal) > 0, "the decider has legal moves")

    def unchanged(what):
        """The game is where it was: a ping round trip, then a fresh watch."""
        w = srv.ws()
        w.send({"type": "watch", "game": gid})
        m = w.recv_until(lambda m: m["type"] == "state")
        check(m["decision"] == dec, f"{what}: the game did not move ({m['decision']} != {dec})")
        w.close()
        return m

    before = unchanged("baseline")
    # malformed JSON, unknown type, missing fields, binary, too big
    mover.send_frame('{"type": "move", "move": ')
    expect_error(mover, "bad_json", "malformed JSON")
    mover.send_frame('"just a string"')
    expect_error(mover, "bad_json", "JSON that is not an object")
    mover.send({"type": "teleport"})
    expect_error(mover, "unknown_type", "unknown type")
    mover.send({"move": legal[0]})
    expect_error(mover, "unknown_type", "no type")
    mover.send({"type": "move", "move": legal[0]})
    expect_error(mover, "bad_request", "move without decision")
    mover.send({"type": "move", "move": 17, "decision": dec})
    expect_error(mover, "bad_request", "move that is not text")
    mover.send_frame(b"\x00\x01binary", opcode=2)
    expect_error(mover, "bad_json", "binary frame")
    mover.send_frame(json.dumps({"type": "ping", "pad": "x" * 17000}))
    expect_error(mover, "too_big", "oversized frame")
    # the same oversized frame in fragments
    big = json.dumps({"type": "ping", "pad": "y" * 20000})
    mover.send_frame(big[:8000], opcode=1, fin=False)
    mover.send_frame(big[8000:16000], opcode=0, fin=False)
    mover.send_frame(big[16000:], opcode=0, fin=True)
    expect_error(mover, "too_big", "oversized fragmented frame")
    # a fragmented frame within the limit works
    p = json.dumps({"type": "ping", "pad": "z" * 3000})
    mover.send_frame(p[:1000], opcode=1, fin=False)
    mover.send_frame(p[1000:], opcode=0, fin=True)
    m = mover.recv_until(lambda m: m["type"] in ("pong", "error"))
    check(m["type"] == "pong", f"fragmented ping answered: {m}")
    # out of turn, illegal, stale, spectator
    other.send({"type": "move", "move": legal[0], "decision": dec})
    expect_error(other, "not_your_turn", "move out of turn")
    mover.send({"type": "move", "move": "fly to the moon", "decision": dec})
    expect_error(mover, "illegal_move", "unreadable move")
    mover.send({"type": "move", "move": "play Harbour Z9", "decision": dec})
    expect_error(mover, "illegal_move", "illegal move")
    mover.send({"type": "move", "move": legal[0], "decision": dec - 1})
    expect_error(mover, "stale", "stale decision")
    mover.send({"type": "move", "move": legal[0], "decision": dec + 5})
    expect_error(mover, "stale", "future decision")
    mover.send({"type": "move", "move": legal[0], "decision": -4})
    expect_error(mover, "stale", "negative decision")
    w = srv.ws()
    w.send({"type": "watch", "game": gid})
    w.recv_until(lambda m: m["type"] == "state")
    w.send({"type": "move", "move": legal[0], "decision": dec})
    expect_error(w, "not_your_turn", "spectator move")
    w.close()
    after = unchanged("after every bad input")
    check(after["view"] == before["view"], "the view is the same after the bad input")

    # too fast: 200 pings at once are throttled. The bucket starts full, so
    # its 40 are answered whatever the machine's speed; the rest are answered
    # or refused with rate_limited (an error counts the frames it stands for
    # in "refused"), and every one of the 200 is accounted for: the test
    # waits for that (no window of silence ends it). The connection stays
    # usable.
    flood = srv.ws()
    for _ in range(200):
        flood.send({"type": "ping"})
    got = {"pong": 0, "rate_limited": 0}
    try:
        while got["pong"] + got["rate_limited"] < 200:
            m = flood.recv(timeout=60)
            if m["type"] == "pong":
                got["pong"] += 1
            elif m.get("code") == "rate_limited":  # one error may stand for several
                got["rate_limited"] += m.get("refused", 1)
            else:
                check(False, f"throttling: unexpected answer {m}")
    except TimeoutError:
        check(False, f"throttling: answers stopped before all 200 pings were accounted for: {got}")
    check(got["pong"] + got["rate_limited"] == 200 and got["rate_limited"] >= 1
          and got["pong"] >= 40, f"throttling: {got}")
    # served again once the bucket refills (20 a second): one ping at a
    # time until a pong, each answered (pong or rate_limited); bounded
    served = None
    for _ in range(200):
        flood.send({"type": "ping"})
        m = flood.recv(timeout=60)
        if m["type"] == "pong":
            served = m
            break
        check(m.get("code") == "rate_limited", f"a throttled ping is refused in words: {m}")
        time.sleep(0.05)  # one token's time: not a window the test depends on
    check(served is not None, "the throttled client is served again")
    flood.close()

    # a good move still works afterwards
    # (state pushes about presence, from the spectators and the flood client
    # coming and going, may still be in flight: skip those of the old decision)
    mover.send({"type": "move", "move": legal[0], "decision": dec})
    m = mover.recv_until(lambda m: m["type"] == "error"
                         or (m["type"] == "state" and m["decision"] != dec))
    check(m["type"] == "state" and m["decision"] == dec + 1,
          f"good move accepted: {m.get('type')} {m.get('code')} decision {m.get('decision')}")
    mover.send({"type": "move", "move": legal[0], "decision": dec})
    expect_error(mover, "stale", "double click")

    # a raw garbage connection and a half-open handshake do not hurt
    s = socket.create_connection(("127.0.0.1", srv.port))
    s.sendall(b"\x16\x03\x01garbage\r\n\r\n")
    s.close()
    s = socket.create_connection(("127.0.0.1", srv.port))
    s.sendall(b"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\n")
    s.close()
    # ---- what libwebsockets 4.1 lets through, checked on the raw bytes
    # (src/server/net/rawguard.c) ----
    # an unmasked client frame: RFC 6455 5.1, the server must close (1002)
    for opcode, payload, what in [(1, '{"type":"ping"}', "an unmasked text frame"),
                                  (9, "", "an unmasked ping (control) frame")]:
        x = WS("127.0.0.1", srv.port)
        x.send({"type": "ping"})
        check(x.recv(timeout=20).get("type") == "pong", f"{what}: a masked frame is answered")
        x.send_raw_frame(payload, opcode=opcode, mask=False)
        try:
            m = x.recv(timeout=20)
            check(False, f"{what} is answered instead of closed: {m}")
        except WSClosed:
            c = x.proto.close_rcvd
            check(c is not None and c.code == 1002 and "unmasked" in c.reason,
                  f"{what}: closed with 1002 and the reason: {c!r}")
        except (TimeoutError, OSError) as ex:
            check(False, f"{what}: not closed with a close frame: {ex!r}")
        x.close()
    # one sent with the upgrade request, before the server's answer
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=20)
    s.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
              b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
              b"Sec-WebSocket-Version: 13\r\n\r\n\x81\x0f{\"type\":\"ping\"}")
    got = b""
    try:
        while True:
            d = s.recv(65536)
            if not d:
                break
            got += d
    except OSError:
        pass
    s.close()
    check(got.startswith(b"HTTP/1.1 101") and b"\x88" in got and b"\x03\xea" in got
          and b"pong" not in got, f"an unmasked frame right after the upgrade: closed with "
          f"1002, no answer: {got[-80:]!r}")
    # headers past 16 KiB (or 50 lines, 32 query arguments) get a status
    # line, not a bare close (libwebsockets 4.1 closed all three bare)
    for req, status, what in [
            (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100000 + b"\r\n\r\n", b"431",
             "a 100 KB header"),
            (b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + b"Cookie: a=b\r\n" * 100 + b"\r\n",
             b"431", "100 header lines"),
            (b"GET /api/games?" + b"&".join(b"a=%d" % i for i in range(200)) +
             b" HTTP/1.1\r\nHost: x\r\n\r\n", b"414", "200 query arguments"),
            (b"GET /api/health HTTP/1.1\r\nHost: x\r\n" + b"a:\r\n" * 3000 + b"\r\n",
             b"431", "3,000 tiny header lines"),
            # at the limits: served
            (b"GET /api/games?" + b"&".join(b"a=%d" % i for i in range(33)) +
             b" HTTP/1.1\r\nHost: x\r\n" + b"Cookie: a=b\r\n" * 48 + b"\r\n", b"200",
             "48 header lines and 32 query arguments")]:
        head = raw_status(srv.port, req).encode("latin-1")
        check(head.startswith(b"HTTP/1.1 " + status), f"{what}: {status.decode()} expected, "
              f"got {head[:120]!r}")
    # just under the limits: served, and a kept-alive connection with a
    # body goes on (the raw parser skips bodies by their length)
    c = httpc.HTTPConnection("127.0.0.1", srv.port, timeout=20)
    c.request("GET", "/api/health", headers={"X-Big": "a" * 15000})
    r = c.getresponse()
    r.read()
    check(r.status == 200, f"a 15 KB header is served: {r.status}")
    c.request("POST", "/api/guest", body=json.dumps({"name": "K" * 20}),
              headers={"Content-Type": "application/json"})
    r = c.getresponse()
    r.read()
    c.request("GET", "/api/health")
    r2 = c.getresponse()
    r2.read()
    check(r.status == 201 and r2.status == 200, f"a request after a body on one connection: "
          f"{r.status} {r2.status}")
    c.close()
    check(srv.alive(), "the server runs on after the raw-byte refusals")

    # joining an HTTP-claimed seat: 409 for claimed seats
    zed = guest(srv.port, "Zed")
    st, r = http_json(srv.port, "POST", f"/api/games/{gid}/join", {"seat": 0}, cookie=zed)
    check(st == 409, f"join of a claimed seat: {st} {r}")
    st, r = http_json(srv.port, "POST", f"/api/games/{gid}/join", {"seat": 0})
    check(st == 401, f"join without a session: {st} {r}")
    # (reserved seats are refused, open ones are bound to the joiner's
    # session: tests/server_seats.py)
    st, g2 = http_json(srv.port, "POST", "/api/games",
                       {"players": 2, "seats": [{"kind": "human", "access": "open"}]})
    st, r = http_json(srv.port, "POST", f"/api/games/{g2['id']}/join", {"name": "Zed"},
                      cookie=zed)
    check(st == 200 and r["seat"] == 0 and "token" not in g2["seats"][0]
          and "token" not in r, f"join gives the first free open seat: {r}")
    st, r = http_json(srv.port, "POST", f"/api/games/{g2['id']}/join", {"seat": 7},
                      cookie=guest(srv.port))
    check(st == 400, "join of a seat that does not exist")
    # the bots offered, the rollout bot among them (issue 36), and a bot
    # that does not exist refused with the list
    st, r = http_json(srv.port, "GET", "/api/options")
    check([b["id"] for b in r["bots"]] == ["random", "greedy", "rollout", "ismcts"],
          f"the bots offered: {r['bots']}")
    st, g3 = http_json(srv.port, "POST", "/api/games", {
        "players": 2, "seats": [{"kind": "human", "name": "Ro"}, {"kind": "bot", "bot": "rollout"}]})
    check(st == 201 and g3["seats"][1].get("bot") == "rollout" and g3["seats"][1]["name"] == "Rollout 2",
          f"a rollout bot's seat: {st} {g3}")
    st, r = http_json(srv.port, "POST", "/api/games", {
        "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "alphago"}]})
    check(st == 400 and "random, greedy, rollout or ismcts" in r.get("error", ""),
          f"an unknown bot: {st} {r}")
    check(srv.alive(), "the server is still running")
    st, r = http_json(srv.port, "GET", "/api/games")
    check(st == 200 and any(x["id"] == gid for x in r["games"]), "the game is listed")
    a.close()
    b.close()
finally:
    code = srv.stop()
    check(code == 0, f"the server stops cleanly on SIGTERM (status {code})")

finish("server_errors: every bad input refused with its reason; nothing changed")
