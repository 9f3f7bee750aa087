"""server_seed.py: who knows a game's seed (issue 19, defect 3). A seed the
creator chose would let the creator replay the deal locally and read every
hand. So:
- a game created without "seed" gets one from the server's OS generator, is
  not a practice game, and no summary or state frame shows its seed;
- a game created with a seed is a practice game (unrated): its summary and
  every seat's and spectator's state frames show "practice" with the seed,
  also after a restart (it is stored);
- a seed with "practice": false is refused (400), as is a practice that is
  not true or false.

usage: python3 server_seed.py BINARY SRCDIR WORKDIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_json, check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
db = os.path.join(WORK, "seed.db")
srv = Server(BIN, db).start()
HUMANS = [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]


def create(body):
    return http_json(srv.port, "POST", "/api/games", body)


def frames(gid, tokens):
    """The first state frame of each seat and of a spectator."""
    out = []
    for tok in tokens + [None]:
        ws = srv.ws()
        if tok:
            ws.send({"type": "join", "game": gid, "token": tok})
        else:
            ws.send({"type": "watch", "game": gid})
        out.append(ws.recv_until(lambda m: m["type"] == "state"))
        ws.close()
    return out


def tokens_of(g):
    return [s["token"] for s in g["seats"] if s.get("token")]


# a chosen seed: a practice game, shown to everyone
st, g = create({"edition": "amsterdam", "players": 2, "seed": 4242, "seats": HUMANS})
check(st == 201, f"create with a seed: {st} {g}")
gid = g["id"]
st, summ = http_json(srv.port, "GET", f"/api/games/{gid}")
check(summ.get("practice") is True and summ.get("seed") == 4242,
      f"a chosen seed is not shown in the summary: {summ}")
listed = [x for x in http_json(srv.port, "GET", "/api/games")[1]["games"] if x["id"] == gid]
check(listed and listed[0].get("seed") == 4242, f"the listing does not show the seed: {listed}")
for f in frames(gid, tokens_of(g)):
    check(f.get("practice") == {"seed": 4242},
          f"seat {f['seat']}'s state frame does not show the seed: {f.get('practice')}")

# no seed: drawn by the server, shown to nobody
st, h = create({"edition": "amsterdam", "players": 2, "seats": HUMANS})
check(st == 201, f"create without a seed: {st} {h}")
st, summ2 = http_json(srv.port, "GET", f"/api/games/{h['id']}")
check(summ2.get("practice") is False and "seed" not in summ2,
      f"a server-drawn seed is shown or the game is practice: {summ2}")
for f in frames(h["id"], tokens_of(h)):
    check("practice" not in f and "seed" not in f, f"a state frame shows the seed: {sorted(f)}")
# two server-drawn seeds give two different deals (seat 0's hand)
st, h2 = create({"edition": "amsterdam", "players": 2, "seats": HUMANS})
hand = lambda g: frames(g["id"], tokens_of(g)[:1])[0]["view"]["players"][0]["hand"]  # noqa: E731
check(hand(h) != hand(h2), "two games without a seed dealt the same hand")

# refusals
st, e = create({"edition": "amsterdam", "players": 2, "seed": 7, "practice": False})
check(st == 400 and "practice" in e.get("error", ""), f"seed with practice false: {st} {e}")
st, e = create({"edition": "amsterdam", "players": 2, "practice": "yes"})
check(st == 400, f"practice \"yes\": {st} {e}")
st, p = create({"edition": "amsterdam", "players": 2, "practice": True})
check(st == 201, f"practice without a seed: {st} {p}")
st, psum = http_json(srv.port, "GET", f"/api/games/{p['id']}")
check(psum.get("practice") is True and isinstance(psum.get("seed"), int),
      f"a practice game shows its seed: {psum}")

# stored: after a restart the practice game still shows its seed
srv.stop()
srv.start()
st, summ = http_json(srv.port, "GET", f"/api/games/{gid}")
check(summ.get("practice") is True and summ.get("seed") == 4242, f"after a restart: {summ}")
st, summ2 = http_json(srv.port, "GET", f"/api/games/{h['id']}")
check(summ2.get("practice") is False and "seed" not in summ2, f"after a restart: {summ2}")
srv.stop()
finish("seed: drawn by the server; a chosen seed makes a practice game shown to every seat")
