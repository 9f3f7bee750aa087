"""server_chat.py: the chat of a table (issue 14 item 5) over real sockets:
the players' chat reaches the table and its spectators; the spectators' chat
reaches spectators only while the game runs; text arrives exactly as sent
(the server interprets nothing: "<b>" stays "<b>"); the length limit, blank
and control characters refused; the rate limit (5 in 10 s); a chat without a
session refused; a player mutes and unmutes another, and the mute outlives a
restart; the history a (re)joining client gets; and, once the game is over,
its replay carries the whole chat, each message with its decision.

usage: python3 server_chat.py BINARY SRCDIR WORKDIR
"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, WS, sql_rows, http_call, http_json, session_cookie, guest,  # noqa: E402
                      pick_move, check, finish, test_args)

BIN, SRC, WORK = test_args()
rng = random.Random(3)


def chat_frame(ws, timeout=10):
    return ws.recv_until(lambda m: m["type"] in ("chat", "error"), timeout=timeout)


def texts(frame):
    return [m["text"] for m in frame.get("messages", [])]


def join(ws, gid, token=None):
    msg = {"type": "join", "game": gid}
    if token:
        msg["token"] = token
    ws.send(msg)
    return ws.recv_until(lambda m: m["type"] in ("state", "error"))


db = os.path.join(WORK, "chat.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
srv = Server(BIN, db).start()
try:
    P = srv.port
    st, r, h = http_call(P, "POST", "/api/signup", {"name": "anke", "password": "pass anke"})
    anke = session_cookie(h)
    bram = guest(P, "Bram")
    sam = guest(P, "Sam")
    st, g = http_json(P, "POST", "/api/games", {"players": 2}, cookie=anke)
    gid, tok = g["id"], g["seats"][1]["token"]
    a = WS("127.0.0.1", P, cookie=anke)
    b = WS("127.0.0.1", P, cookie=bram)
    s = WS("127.0.0.1", P, cookie=sam)
    anon = WS("127.0.0.1", P)
    check(join(a, gid)["type"] == "state", "Anke joins")
    check(join(b, gid, tok)["type"] == "state", "Bram joins by invite")
    for w in (s, anon):
        w.send({"type": "watch", "game": gid})
        w.recv_until(lambda m: m["type"] == "state")

    # ---- the table's chat: players and spectators read it, verbatim ----
    raw = "hello <b>table</b> & <script>alert('x')</script> \u00e9\u6f22"
    a.send({"type": "chat", "text": raw})
    for w, who in ((a, "Anke"), (b, "Bram"), (s, "a spectator"), (anon, "an anonymous spectator")):
        m = chat_frame(w)
        check(m["type"] == "chat" and texts(m) == [raw], f"{who} gets the message verbatim: {m}")
    msg = m["messages"][0]
    check(msg["channel"] == "table" and msg["seat"] == 0 and msg["name"] == "anke"
          and msg["decision"] >= 0, f"the message says who, where and when: {msg}")

    # ---- the spectators' chat: not for the players while the game runs ----
    s.send({"type": "chat", "text": "spectators only"})
    m = chat_frame(s)
    check(texts(m) == ["spectators only"] and m["messages"][0]["channel"] == "spectators",
          f"the spectator reads its own channel: {m}")
    m = chat_frame(anon)
    check(texts(m) == ["spectators only"], "another spectator reads it")
    b.send({"type": "chat", "text": "bram here"})
    for w, who in ((a, "Anke"), (b, "Bram")):
        m = chat_frame(w)
        check(texts(m) == ["bram here"], f"{who}'s next chat is the table's, not the "
              f"spectators': {texts(m)}")
    for w in (s, anon):
        check(texts(chat_frame(w)) == ["bram here"], "spectators read the table's chat")

    # ---- refusals ----
    anon.send({"type": "chat", "text": "no session"})
    m = chat_frame(anon)
    check(m["type"] == "error" and m["code"] == "no_session", f"a chat without a session: {m}")
    for text, what in [("x" * 501, "501 bytes"), ("", "empty"), ("   ", "blank"),
                       ("a\nb", "a newline"), (12, "not text")]:
        a.send({"type": "chat", "text": text})
        m = chat_frame(a)
        check(m["type"] == "error" and m["code"] == "bad_request", f"{what} refused: {m}")
    c = WS("127.0.0.1", P)
    c.send({"type": "chat", "text": "hi"})
    m = chat_frame(c)
    check(m["type"] == "error" and m["code"] == "no_game", f"a chat before join: {m}")
    c.close()
    # the rate limit: Bram (one message so far) may send 4 more now, not 5
    codes = []
    for i in range(5):
        b.send({"type": "chat", "text": f"burst {i}"})
        m = chat_frame(b)
        codes.append(m.get("code", "ok"))
    check(codes == ["ok"] * 4 + ["rate_limited"], f"5 messages in 10 seconds: {codes}")
    for _ in range(4):
        chat_frame(a)  # Anke got Bram's four
    a.send({"type": "chat", "text": "y" * 500})
    check(texts(chat_frame(a)) == ["y" * 500], "500 bytes are allowed")

    # ---- mute ----
    a.send({"type": "mute", "seat": 1})
    m = a.recv_until(lambda m: m["type"] in ("muted", "error"))
    check(m == {"type": "muted", "seat": 1, "on": True}, f"Anke mutes Bram: {m}")
    for bad in ({"type": "mute", "seat": 0}, {"type": "mute", "seat": 5}, {"type": "mute"}):
        a.send(bad)
        m = a.recv_until(lambda m: m["type"] in ("muted", "error"))
        check(m["type"] == "error" and m["code"] == "bad_request", f"a bad mute {bad}: {m}")
    s.send({"type": "mute", "seat": 0})
    m = s.recv_until(lambda m: m["type"] in ("muted", "error"))
    check(m["type"] == "error", f"a spectator mutes nobody: {m}")
    srv_wait = __import__("time").sleep
    srv_wait(2.2)  # one more chat token for Bram (the limit refills 1 per 2 s)
    b.send({"type": "chat", "text": "muted words"})
    m = s.recv_until(lambda m: m["type"] == "chat" and "muted words" in texts(m))
    check(texts(m) == ["muted words"], "the spectator still reads Bram")
    a.send({"type": "chat", "text": "anke again"})
    m = chat_frame(a)
    check(texts(m) == ["anke again"], f"Anke does not get Bram's message: {texts(m)}")

    # ---- the history, and the mute after a restart ----
    for w in (a, b, s, anon):
        w.close()
    srv.stop()
    srv.start()
    P = srv.port
    a = WS("127.0.0.1", P, cookie=anke)
    a.send({"type": "join", "game": gid})
    m = chat_frame(a)
    hist = texts(m)
    check(raw in hist and "anke again" in hist and "spectators only" not in hist
          and "muted words" not in hist and "bram here" not in hist,
          f"a player's history after a restart: no spectators', nothing muted: {hist}")
    # a page loaded again is told whom its player muted (it shows them)
    m = a.recv_until(lambda m: m["type"] == "muted")
    check(m == {"type": "muted", "seat": 1, "on": True}, f"the join says who is muted: {m}")
    s = WS("127.0.0.1", P, cookie=sam)
    s.send({"type": "watch", "game": gid})
    hist = texts(chat_frame(s))
    check("spectators only" in hist and "muted words" in hist and raw in hist,
          f"a spectator's history has both channels: {hist}")

    # ---- the game to its end: the replay shows the whole chat ----
    b = WS("127.0.0.1", P, cookie=bram)
    b.send({"type": "join", "game": gid})
    players = {0: a, 1: b}
    # every state frame with legal moves is answered at once (as
    # server_play.py does); a throttled move is sent again
    import selectors
    import time
    sel = selectors.DefaultSelector()
    for seat, w in players.items():
        sel.register(w.sock, selectors.EVENT_READ, seat)
    done, last_move, over = set(), {}, False
    while len(done) < 2:
        ready = sel.select(timeout=60)
        if not ready:
            break
        for key, _ in ready:
            seat = key.data
            w = players[seat]
            while True:
                m = w.recv(timeout=30)
                if m["type"] == "error" and m["code"] == "rate_limited" and seat in last_move:
                    time.sleep(0.1)
                    w.send(last_move[seat])
                elif m["type"] == "state":
                    if m["status"] == "over":
                        done.add(seat)
                    elif m["legal"]:
                        last_move[seat] = {"type": "move", "move": pick_move(m["legal"], rng),
                                           "decision": m["decision"]}
                        w.send(last_move[seat])
                if not w.buf:
                    break
    over = len(done) == 2
    check(over, "the game ends")
    st, rep = http_json(P, "GET", f"/api/games/{gid}/replay")
    rt = [x["text"] for x in rep.get("chat", [])]
    check(st == 200 and raw in rt and "spectators only" in rt and "muted words" in rt,
          f"the replay has the whole chat: {rt}")
    check(all(isinstance(x["decision"], int) for x in rep.get("chat", [])),
          "each message with its decision")
    for w in (a, b, s):
        w.close()
finally:
    srv.stop()
((n,),) = sql_rows(db, "SELECT count(*) FROM chat WHERE game='%s'" % gid)
check(int(n) >= 10, f"the chat is stored with the game: {n} messages")
finish("server_chat: channels, limits, mute, history and replay hold")
