"""server_chatlimits.py: the chat's rate limit holds per session and per
address, not per connection (issue 28, low: a client opened more connections
to say more). Over real sockets, loopback counted (CHARTERED_LIMIT_LOOPBACK=1):
- one session with two connections to the same game (two tabs) says 5
  messages in 10 seconds in all, not 5 on each;
- three more sessions from the same address, each within its own 5, are
  refused once the address has said 15 (the two tabs' 5 included);
- the refusal says which limit, and nothing refused is shown to anyone.

usage: python3 server_chatlimits.py BINARY SRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, WS, http_json, guest, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
os.environ["CHARTERED_LIMIT_LOOPBACK"] = "1"
srv = Server(BIN, os.path.join(WORK, "chatlim.db")).start()
P = srv.port


def say(ws, text):
    ws.send({"type": "chat", "text": text})
    m = ws.recv_until(lambda m: (m["type"] == "chat" and text in [x["text"] for x in m["messages"]])
                      or m["type"] == "error", timeout=10)
    return "ok" if m["type"] == "chat" else m.get("code") + ": " + m.get("message", "")


anke = guest(P, "Anke")
st, g = http_json(P, "POST", "/api/games", {"players": 2}, cookie=anke)
check(st == 201, f"a game: {st} {g}")
gid = g["id"]
tabs = [WS("127.0.0.1", P, cookie=anke) for _ in range(2)]
for w in tabs:
    w.send({"type": "join", "game": gid})
    w.recv_until(lambda m: m["type"] == "state")
got = [say(tabs[i % 2], f"tab {i % 2} says {i}") for i in range(6)]
oks = sum(1 for x in got if x == "ok")
check(oks == 5 and got[5].startswith("rate_limited"),
      f"one session's two connections say 5 in all: {got}")

others = []
for name in ("Bram", "Cato", "Dirk"):
    c = guest(P, name)
    w = WS("127.0.0.1", P, cookie=c)
    w.send({"type": "watch", "game": gid})
    w.recv_until(lambda m: m["type"] == "state")
    others.append(w)
got = [say(w, f"{i} from spectator {k}") for k, w in enumerate(others) for i in range(5)]
oks = sum(1 for x in got if x == "ok")
by_addr = [x for x in got if "address" in x]
# 15 for the address, 5 of them said by the tabs; refills at 1.5 a second
# add at most one or two while this runs
check(10 <= oks <= 12 and by_addr and all(x.startswith("rate_limited") for x in by_addr),
      f"three more sessions from the address say about 10 more, not 15: {oks} ok, {got}")

for w in tabs + others:
    w.close()
check(srv.alive(), "the server runs on")
srv.stop()
finish("chat limits: 5 in 10 s per session over its connections, 15 per address")
