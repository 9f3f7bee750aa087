"""server_limits.py: the limits of `chartered serve` (docs/protocol.md,
"Limits"; issue 19 "limits everywhere", issue 16's abandoned games), each
met over real sockets with small values set through the environment, and
each refusal checked to come with a clear error, never a silent drop:
- games created per address per minute (429 with retry_after);
- games waiting for players per address (429) and in all (503);
- waiting games expire: gone from the lobby, the database and memory;
- WebSocket connections per address: the next one is told
  "too_many_connections" and closed with code 1008; another address (the
  client bound to 127.0.0.2) is not affected; a freed slot can be used again;
- the message rate: a burst of 100 pings is answered in full: every ping
  gets a pong or is counted in a "rate_limited" error's "refused";
- a game with no person connected for the abandon delay ends "abandoned"
  (listed with the finished games, stored: still so after a restart), while
  a game whose player stays connected plays on;
- a client that reads none of its answers is closed with code 1008 and the
  reason once its queue (64 answers, behind the kernel's buffers) is full.
Loopback is exempt from the per-address limits by default (a local proxy,
the load generator); CHARTERED_LIMIT_LOOPBACK=1 makes it count here.

usage: python3 server_limits.py BINARY SRCDIR WORKDIR
"""
import http.client as httpc
import json
import os
import socket
import sqlite3
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import wsclient  # noqa: E402
from wsclient import Server, WSClosed, http_json, check, finish, test_args  # noqa: E402
from websockets.exceptions import InvalidState  # noqa: E402  (after wsclient: it finds Debian's package)

BIN, SRC, WORK = test_args()
os.environ.update({
    "CHARTERED_LIMIT_LOOPBACK": "1",
    "CHARTERED_CREATES_PER_MINUTE": "6",
    "CHARTERED_WAITING_PER_ADDRESS": "4",
    "CHARTERED_WAITING_GAMES_MAX": "6",
    # no game expires while the creation limits are met (however slow this
    # machine is); the server is restarted with 4 s for the expiry below
    "CHARTERED_WAITING_EXPIRE_SECONDS": "3600",
    "CHARTERED_CONNECTIONS_PER_ADDRESS": "5",
    "CHARTERED_ABANDON_SECONDS": "2",
})
db = os.path.join(WORK, "limits.db")
srv = Server(BIN, db).start()
HUMANS = {"edition": "amsterdam", "players": 2,
          "seats": [{"kind": "human"}, {"kind": "human"}]}
BOTS = {"edition": "amsterdam", "players": 2,
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}


def post_from(src, path, body):
    """POST from the source address src (127.0.0.1 or 127.0.0.2)."""
    c = httpc.HTTPConnection("127.0.0.1", srv.port, timeout=20, source_address=(src, 0))
    c.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    r = c.getresponse()
    data = json.loads(r.read().decode())
    c.close()
    return r.status, data


def ws_from(src, cookie=None):
    """A WebSocket connection from the source address src (with a session
    cookie for a join)."""
    real = socket.create_connection
    wsclient.socket.create_connection = lambda a, timeout=None: real(a, timeout,
                                                                      source_address=(src, 0))
    try:
        return wsclient.WS("127.0.0.1", srv.port, cookie=cookie)
    finally:
        wsclient.socket.create_connection = real


def wait_for(pred, timeout, what):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.1)
    check(False, what)


# ---- creations: waiting games per address, then the rate, then the total ----
waiting = []
for i in range(4):
    st, g = post_from("127.0.0.1", "/api/games", HUMANS)
    check(st == 201, f"waiting game {i} is created: {st} {g}")
    waiting.append(g.get("id"))
st, e = post_from("127.0.0.1", "/api/games", HUMANS)
check(st == 429 and "waiting" in e.get("error", "") and e.get("retry_after", 0) > 0,
      f"a fifth waiting game from one address is refused: {st} {e}")
# bot games do not wait: the waiting limit lets them through; the refused
# fifth creation above still took its share of the rate (6 a minute)
st, g = post_from("127.0.0.1", "/api/games", BOTS)
check(st == 201, f"a bot game from the same address: {st} {g}")
st, e = post_from("127.0.0.1", "/api/games", BOTS)
check(st == 429 and "a minute" in e.get("error", "") and e.get("retry_after", 0) > 0,
      f"a seventh creation within the minute is refused: {st} {e}")
for i in range(2):
    st, g = post_from("127.0.0.2", "/api/games", HUMANS)
    check(st == 201, f"another address creates waiting game {i}: {st} {g}")
    waiting.append(g.get("id"))
st, e = post_from("127.0.0.2", "/api/games", HUMANS)
check(st == 503 and "waiting" in e.get("error", ""),
      f"past the server's total of waiting games: {st} {e}")
st, opts = http_json(srv.port, "GET", "/api/options")
check(opts["limits"].get("creates_per_minute") == 6 and
      opts["limits"].get("connections_per_address") == 5, f"/api/options shows the limits: {opts}")

# ---- waiting games expire: lobby, database, memory ----
srv.stop()
os.environ["CHARTERED_WAITING_EXPIRE_SECONDS"] = "4"
srv.start()
wait_for(lambda: http_json(srv.port, "GET", "/api/health")[1].get("games_expired", 0) >= 6, 30,
         "the six waiting games expire")
for gid in waiting:
    st, _ = http_json(srv.port, "GET", f"/api/games/{gid}")
    check(st == 404, f"expired game {gid} is gone: {st}")
c = sqlite3.connect(db, timeout=10)
left = c.execute("SELECT count(*) FROM games WHERE status='waiting'").fetchone()[0]
c.close()
check(left == 0, f"expired games are deleted from the database ({left} left)")
st, g = post_from("127.0.0.2", "/api/games", HUMANS)
check(st == 201, f"once expired, waiting games can be created again: {st} {g}")

# ---- the message rate: nothing dropped without a word ----
w = ws_from("127.0.0.1")
for _ in range(100):
    w.send({"type": "ping"})
pongs = refused = 0
while pongs + refused < 100:
    try:
        m = w.recv(timeout=20)
    except (TimeoutError, OSError, WSClosed) as ex:
        check(False, f"burst: {pongs} pongs and {refused} refused, then {ex!r}")
        break
    if m["type"] == "pong":
        pongs += 1
    elif m.get("code") == "rate_limited":
        refused += m.get("refused", 1)
check(pongs + refused == 100 and pongs >= 40, f"100 pings: {pongs} pongs, {refused} refused")
print(f"100 pings in a burst: {pongs} pongs, {refused} refused in rate_limited errors", flush=True)
w.close()

# ---- connections per address ----


def clients():
    return http_json(srv.port, "GET", "/api/health")[1].get("clients")


# the server has seen every connection above closed (it counts per address
# what it has not seen closed)
wait_for(lambda: clients() == 0, 20, "the burst's connection is closed")
conns = []
for i in range(5):
    try:
        conns.append(ws_from("127.0.0.1"))
    except (OSError, WSClosed) as ex:
        check(False, f"connection {i} of 5 is accepted: {ex!r}")
extra = ws_from("127.0.0.1")
try:
    m = extra.recv(timeout=20)
    check(m.get("code") == "too_many_connections" and "5" in m.get("message", ""),
          f"the sixth connection is told why: {m}")
    extra.recv(timeout=20)
    check(False, "the sixth connection is closed")
except WSClosed:
    pass
other = ws_from("127.0.0.2")
other.send({"type": "ping"})
check(other.recv(timeout=20).get("type") == "pong", "another address connects")
other.close()
conns.pop().close()


# once the server has seen the freed connection (and the refused ones)
# closed, the next connection from the address is accepted
wait_for(lambda: clients() == len(conns), 20, "the server sees the freed connection closed")
try:
    x = ws_from("127.0.0.1")
    x.send({"type": "ping"})
    check(x.recv(timeout=20).get("type") == "pong", "a freed connection slot can be used again")
    x.close()
except (OSError, WSClosed, InvalidState) as ex:
    check(False, f"a freed connection slot can be used again: {ex!r}")
for x in conns:
    x.close()

# ---- abandoned games ----
wait_for(lambda: clients() == 0, 20, "every connection above is closed")
st, a = post_from("127.0.0.2", "/api/games", {
    "edition": "amsterdam", "players": 2,
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
st2, b = post_from("127.0.0.2", "/api/games", {
    "edition": "amsterdam", "players": 2,
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
check(st == 201 and st2 == 201, f"two games to abandon and to keep: {st} {st2}")
player = wsclient.guest(srv.port)
wa = ws_from("127.0.0.2", player)
wa.send({"type": "join", "game": a["id"], "token": a["seats"][0]["token"]})
wa.recv_until(lambda m: m["type"] == "state")
wa.close()
wb = ws_from("127.0.0.2", player)  # stays connected (never reads: the kernel buffers)
wb.send({"type": "join", "game": b["id"], "token": b["seats"][0]["token"]})
wb.recv_until(lambda m: m["type"] == "state")
wait_for(lambda: http_json(srv.port, "GET", f"/api/games/{a['id']}")[1].get("status") ==
         "abandoned", 30, "a game with nobody connected ends abandoned")
time.sleep(2.5)
st, sb = http_json(srv.port, "GET", f"/api/games/{b['id']}")
check(sb.get("status") == "playing", f"the game with its player connected plays on: {sb}")
st, over = http_json(srv.port, "GET", "/api/games?status=over")
check(any(g["id"] == a["id"] and g["status"] == "abandoned" for g in over["games"]),
      "the abandoned game is listed with the finished ones")
h = http_json(srv.port, "GET", "/api/health")[1]
check(h.get("games_abandoned", 0) >= 1, f"health counts it: {h}")
wb.close()
srv.stop()
srv.start()
st, sa = http_json(srv.port, "GET", f"/api/games/{a['id']}")
check(sa.get("status") == "abandoned", f"still abandoned after a restart: {sa}")

# ---- a client that reads nothing: its queue of answers overflows ----
# Answers (errors, pongs, chat history) queue per client up to 64 behind
# what the kernel buffers; past that the connection is closed with the
# reason (docs/protocol.md, "Limits"), never an answer dropped silently.
# Large answers fill the kernel's buffers soon: each "watch" of a game
# with 50 spectator messages of 500 bytes queues a chat history of ~28 KB.
srv.stop()
os.environ["CHARTERED_LIMIT_LOOPBACK"] = "0"  # many connections from here
srv.start()
st, q = http_json(srv.port, "POST", "/api/games", HUMANS)
check(st == 201, f"a game to watch: {st} {q}")
# 5 messages per connection, each its own session and address: chat is
# limited per session and per address (f2c7210), not per connection
for k in range(10):
    x = ws_from(f"127.0.1.{k + 1}", wsclient.guest(srv.port))
    x.send({"type": "watch", "game": q["id"]})
    for i in range(5):
        x.send({"type": "chat", "text": f"{k}.{i} " + "x" * 490})
        x.recv_until(lambda m: m["type"] in ("chat", "error") and
                     (m["type"] == "error" or m["messages"][-1]["text"].startswith(f"{k}.{i} ")))
    x.close()
    check(not x.frames or all(f["type"] != "error" for f in x.frames), "the spectators' chat")
slow = ws_from("127.0.0.1")  # no session: a spectator reads the spectators' chat
sent, t0 = 0, time.time()
# 250 watches (at most 20 frames a second, bursts of 40: none is refused)
# queue about 7 MB: more than the kernel holds for one connection here
# (4 MB) plus 64 answers; the server keeps reading while it cannot write
try:
    for i in range(250):
        slow.send({"type": "watch", "game": q["id"]})
        sent += 1
        if i >= 39:
            time.sleep(0.055)
except OSError as ex:
    check(False, f"the server closed before the client read anything ({sent} sent): {ex!r}")
got = []
try:
    while True:
        got.append(slow.recv(timeout=30))
except WSClosed:
    pass
except (TimeoutError, OSError) as ex:
    check(False, f"the connection that reads nothing: {len(got)} answers, then {ex!r}")
close = slow.proto.close_rcvd
check(close is not None and close.code == 1008 and "queue full" in close.reason,
      f"it is closed with code 1008 and the reason: {close!r} after {len(got)} frames")
histories = sum(1 for m in got if m["type"] == "chat")
check(0 < histories < sent and all(m["type"] in ("chat", "state") for m in got),
      f"every answer before the close came whole and in order ({histories} of {sent})")
print(f"a client reading nothing: closed after {histories} of {sent} answers "
      f"({time.time() - t0:.1f} s)", flush=True)
x = ws_from("127.0.0.1")
x.send({"type": "ping"})
check(x.recv(timeout=20).get("type") == "pong", "the server serves on")
x.close()
srv.stop()
finish("limits: creations, waiting games, expiry, connections, rate, abandoned games, "
       "output queue")
