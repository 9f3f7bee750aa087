"""server_ratings.py: ratings, profiles, leaderboards, "My games", rematches
and the limit of turn-based games of `chartered serve`, over real sockets
(docs/protocol.md "Players", docs/ratings.md).

1. Three accounts sign up. anke and bram play a game of two to the end
   (random legal moves). Both ratings change, and equal what Glicko-2
   computed here, independently of the server, gives from the final places
   (lichess's settings: 1500/500/0.09, tau 0.75); both profiles list the
   game with its replay link, places and rating change; the leaderboard
   lists both by rating, provisional; the lobby's finished list carries the
   game's date, scores and winners.
2. Unrated games: anke against a bot, and anke and bram in a practice game
   (chosen seed), both played to the end: no rating moves, the profiles list
   them as unrated. A game in play is not listed as finished.
3. Rematch: bram proposes one (201, pending: anke is asked), anke's own
   proposal is her yes and it starts; bram asking again gets it (200);
   cato (not a player) 403, nobody 401, a game in play 409. The new game
   has anke and bram in their seats and is in play; the old game's frames
   and summary name it; "My games" lists it for both, with whose turn it is.
4. cato creates 50 turn-based games; the 51st, and taking a seat of another
   one, are refused (409); live games are not limited.
5. A person who leaves ranks last: in a turn-based game (a "day" is 5 s
   here: CHARTERED_DAY_SECONDS) bram takes his seat and leaves; his clock
   runs out, the stand-in plays for him to the end while anke plays; bram is
   placed last whatever the scores, and anke's rating rises, bram's falls.

usage: python3 server_ratings.py BINARY SRCDIR WORKDIR
"""
import math
import os
import random
import selectors
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, signup, http_json, pick_move, check, finish, test_args)  # noqa: E402

BIN, SRC, WORK = test_args()
db = os.path.join(WORK, "ratings.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
os.environ["CHARTERED_DAY_SECONDS"] = "5"
srv = Server(BIN, db).start()
P = srv.port
rng = random.Random(14)

# ---- Glicko-2 (Glickman 2013), written here apart from the server's C ------
SCALE = 173.7178


def glicko(me, opps, scores, tau=0.75):
    r, rd, sig = me
    mu, phi = (r - 1500) / SCALE, rd / SCALE
    gs, es = [], []
    for (rj, rdj, _) in opps:
        g = 1 / math.sqrt(1 + 3 * (rdj / SCALE) ** 2 / math.pi ** 2)
        gs.append(g)
        es.append(1 / (1 + math.exp(-g * (mu - (rj - 1500) / SCALE))))
    v = 1 / sum(g * g * e * (1 - e) for g, e in zip(gs, es))
    sm = sum(g * (s - e) for g, e, s in zip(gs, es, scores))
    delta = v * sm
    a = math.log(sig ** 2)

    def f(x):
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau ** 2
    A = a
    if delta ** 2 > phi ** 2 + v:
        B = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        B = a - k * tau
    fa, fb = f(A), f(B)
    while abs(B - A) > 1e-6:
        C = A + (A - B) * fa / (fb - fa)
        fc = f(C)
        if fc * fb <= 0:
            A, fa = B, fb
        else:
            fa /= 2
        B, fb = C, fc
    sig2 = math.exp(A / 2)
    phis = math.sqrt(phi ** 2 + sig2 ** 2)
    phi2 = 1 / math.sqrt(1 / phis ** 2 + 1 / v)
    mu2 = mu + phi2 ** 2 * sm
    return (mu2 * SCALE + 1500, min(max(phi2 * SCALE, 45), 500), min(sig2, 0.1))


def places(scores, winners):
    """0-based places: by score, a winner ahead of a non-winner with the same
    score, the same score and mark shared (nobody left in these games)."""
    key = [(scores[i], 1 if i in winners else 0) for i in range(len(scores))]
    return [sum(1 for j in range(len(scores)) if key[j] > key[i]) for i in range(len(scores))]


# ---- helpers ---------------------------------------------------------------
def create(cookie, body):
    st, g = http_json(P, "POST", "/api/games", body, cookie=cookie)
    check(st == 201, f"create {body}: {st} {g}")
    return g


def play_to_end(gid, seats):
    """seats: {seat: (cookie, token or None)}; random legal moves until the
    game is over. Returns the last state frame."""
    conns = {}
    sel = selectors.DefaultSelector()
    for seat, (cookie, tok) in seats.items():
        c = srv.ws(cookie)
        msg = {"type": "join", "game": gid}
        if tok:
            msg["token"] = tok
        c.send(msg)
        conns[seat] = c
        sel.register(c.sock, selectors.EVENT_READ, seat)
    latest, done, last_move = {}, set(), {}
    end = time.time() + 300
    while len(done) < len(conns) and time.time() < end:
        ready = sel.select(timeout=60)
        check(ready, f"game {gid}: no frame for 60 s")
        if not ready:
            break
        for key, _ in ready:
            seat = key.data
            c = conns[seat]
            while True:
                m = c.recv(timeout=30)
                if m["type"] == "error":
                    check(m["code"] in ("stale", "rate_limited"), f"seat {seat}: error {m}")
                    if m["code"] == "rate_limited" and seat in last_move:
                        time.sleep(0.1)
                        c.send(last_move[seat])
                elif m["type"] == "state":
                    latest[seat] = m
                    if m["status"] == "over":
                        done.add(seat)
                    elif m["legal"]:
                        last_move[seat] = {"type": "move", "move": pick_move(m["legal"], rng),
                                           "decision": m["decision"]}
                        c.send(last_move[seat])
                if not c.buf:
                    break
    check(len(done) == len(conns), f"game {gid} played to the end")
    for c in conns.values():
        c.close()
    return latest[next(iter(conns))]


def profile(name):
    st, p = http_json(P, "GET", f"/api/players/{name}")
    check(st == 200, f"profile {name}: {st} {p}")
    return p


def amsterdam(p):
    r = [x for x in p["ratings"] if x["edition"] == "amsterdam"]
    return r[0] if r else None


try:
    anke, bram, cato = signup(P, "anke"), signup(P, "bram"), signup(P, "cato")
    st, r = http_json(P, "GET", "/api/players/nobody")
    check(st == 404, f"an unknown player: {st} {r}")
    st, r = http_json(P, "GET", "/api/leaderboard?edition=chess")
    check(st == 400, f"an unknown edition: {st} {r}")
    st, r = http_json(P, "GET", "/api/leaderboard")
    check(st == 200 and r == {"edition": "amsterdam", "players": []}, f"empty board: {r}")
    check(amsterdam(profile("anke")) is None, "no rating before a game")

    # 1. a rated game of two people
    g = create(anke, {"edition": "amsterdam", "players": 2,
                      "seats": [{"kind": "human"}, {"kind": "human", "access": "reserved"}]})
    g1 = g["id"]
    tok = g["seats"][1]["token"]
    final = play_to_end(g1, {0: (anke, None), 1: (bram, tok)})
    scores, winners = final["result"]["scores"], final["result"]["winners"]
    pl = places(scores, set(winners))
    want = [glicko((1500, 500, 0.09), [(1500, 500, 0.09)],
                   [1.0 if pl[i] < pl[1 - i] else 0.5 if pl[i] == pl[1 - i] else 0.0])
            for i in range(2)]
    pa, pb = profile("anke"), profile("Bram")  # any case
    ra, rb = amsterdam(pa), amsterdam(pb)
    check(ra and rb and ra["games"] == 1 and rb["games"] == 1, f"one rated game each: {ra} {rb}")
    if ra and rb:
        check(ra["rating"] == round(want[0][0]) and rb["rating"] == round(want[1][0]),
              f"ratings as Glicko-2 gives: {ra['rating']} {rb['rating']} want "
              f"{want[0][0]:.2f} {want[1][0]:.2f} (places {pl})")
        check(ra["deviation"] == round(want[0][1]) and ra["provisional"] and rb["provisional"],
              f"deviation {ra['deviation']} want {want[0][1]:.2f}, provisional")
        if pl[0] != pl[1]:
            check(ra["rating"] != 1500 and rb["rating"] != 1500, "both ratings changed")
        print(f"game {g1}: scores {scores}, places {pl}: anke {ra['rating']}?, "
              f"bram {rb['rating']}?", flush=True)
    for p, seat in ((pa, 0), (pb, 1)):
        games = [x for x in p["games"] if x["id"] == g1]
        check(len(games) == 1, f"{p['name']}'s profile lists the game: {p['games']}")
        if games:
            x = games[0]
            check(x["replay"] == f"/#/replay/{g1}" and x["seat"] == seat and x["rated"]
                  and x["scores"] == scores and x["place"] == pl[seat]
                  and x["rating_before"] == 1500 and x["names"] == ["anke", "bram"],
                  f"the game on {p['name']}'s profile: {x}")
        check(p["played"] == 1, f"played: {p['played']}")
    st, board = http_json(P, "GET", "/api/leaderboard?edition=amsterdam")
    names = [x["name"] for x in board.get("players", [])]
    check(sorted(names) == ["anke", "bram"] and
          board["players"][0]["rating"] >= board["players"][1]["rating"] and
          all(x["provisional"] for x in board["players"]), f"leaderboard: {board}")
    st, over = http_json(P, "GET", "/api/games?status=over")
    row = [x for x in over.get("games", []) if x["id"] == g1]
    check(row and row[0]["scores"] == scores and row[0]["winners"] == winners
          and abs(row[0]["finished"] - time.time()) < 600,
          f"the lobby's finished list has date, winner and scores: {row}")

    # 2. unrated: with a bot; a practice game; a game in play
    before_a, before_b = amsterdam(profile("anke")), amsterdam(profile("bram"))
    g = create(anke, {"edition": "amsterdam", "players": 2,
                      "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    gbot = g["id"]
    play_to_end(gbot, {0: (anke, None)})
    g = create(anke, {"edition": "amsterdam", "players": 2, "seed": 99,
                      "seats": [{"kind": "human"}, {"kind": "human", "access": "reserved"}]})
    gpractice = g["id"]
    play_to_end(gpractice, {0: (anke, None), 1: (bram, g["seats"][1]["token"])})
    g = create(anke, {"edition": "amsterdam", "players": 2,
                      "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
    gplaying = g["id"]
    pa = profile("anke")
    check(amsterdam(pa) == before_a and amsterdam(profile("bram")) == before_b,
          f"unrated games move no rating: {amsterdam(pa)} {before_a}")
    listed = {x["id"]: x for x in pa["games"]}
    check(gbot in listed and not listed[gbot]["rated"] and "rating_after" not in listed[gbot],
          f"the bot game is listed, unrated: {listed.get(gbot)}")
    check(gpractice in listed and not listed[gpractice]["rated"], "the practice game: unrated")
    check(gplaying not in listed and pa["played"] == 3 and pa["playing"] >= 1,
          f"a game in play is not among the finished: played {pa['played']}")

    # 3. rematch
    st, r = http_json(P, "POST", f"/api/games/{g1}/rematch", {}, cookie=bram)
    check(st == 201 and r.get("status") == "pending", f"bram proposes a rematch: {st} {r}")
    st, r2 = http_json(P, "POST", f"/api/games/{g1}/rematch", {}, cookie=anke)
    check(st == 200 and r2.get("status") == "started" and r2.get("id") == r.get("id"),
          f"anke proposing it too accepts it: it starts: {st} {r2}")
    g2 = r2.get("rematch")
    st, r3 = http_json(P, "POST", f"/api/games/{g1}/rematch", {}, cookie=bram)
    check(st == 200 and r3.get("rematch") == g2 and r3.get("created") is False,
          f"bram then gets the same rematch: {st} {r3}")
    st, r = http_json(P, "POST", f"/api/games/{g1}/rematch", {}, cookie=cato)
    check(st == 403, f"cato did not play: {st} {r}")
    st, r = http_json(P, "POST", f"/api/games/{g1}/rematch", {})
    check(st == 401, f"no session: {st} {r}")
    st, r = http_json(P, "POST", f"/api/games/{gplaying}/rematch", {}, cookie=anke)
    check(st == 409, f"a game in play: {st} {r}")
    st, s2 = http_json(P, "GET", f"/api/games/{g2}")
    check(st == 200 and s2["status"] == "playing" and [x["name"] for x in s2["seats"]] ==
          ["anke", "bram"] and s2["edition"] == "amsterdam" and not s2["practice"],
          f"the rematch: same table, in play: {s2}")
    st, s1 = http_json(P, "GET", f"/api/games/{g1}")
    check(s1.get("rematch") == g2, f"the old game names its rematch: {s1.get('rematch')}")
    w = srv.ws()
    w.send({"type": "watch", "game": g1})
    m = w.recv_until(lambda x: x["type"] == "state", timeout=30)
    check(m.get("rematch") == g2, f"and so do its frames: {m.get('rematch')}")
    w.close()
    for who, cookie in (("anke", anke), ("bram", bram)):
        st, mg = http_json(P, "GET", "/api/my-games", cookie=cookie)
        row = [x for x in mg.get("games", []) if x["id"] == g2]
        check(st == 200 and len(row) == 1 and row[0]["link"] == f"/#/play/{g2}",
              f"{who}'s games list the rematch: {mg}")
        if row:
            c = srv.ws(cookie)
            c.send({"type": "join", "game": g2})
            f = c.recv_until(lambda x: x["type"] in ("state", "error"), timeout=30)
            c.close()
            check(f["type"] == "state" and row[0]["your_turn"] == (f["seat"] in f["deciders"]),
                  f"{who}: your_turn {row[0]['your_turn']} matches the game: {f.get('deciders')}")
            turns = [x["your_turn"] for x in mg["games"]]
            check(turns == sorted(turns, reverse=True), "your turn first")
    st, r = http_json(P, "GET", "/api/my-games")
    check(st == 401, f"My games without a session: {st}")

    # 4. at most 50 turn-based games in play
    ids = []
    for i in range(50):
        g = create(cato, {"edition": "golden-age", "players": 2, "mode": "turn-based", "days": 7,
                          "seats": [{"kind": "human"}, {"kind": "human", "access": "open"}]})
        ids.append(g.get("id"))
    st, r = http_json(P, "POST", "/api/games", {"players": 2, "mode": "turn-based", "days": 1,
                                                "seats": [{"kind": "human"}, {"kind": "human"}]},
                      cookie=cato)
    check(st == 409 and "50 turn-based games" in r.get("error", ""), f"the 51st: {st} {r}")
    g = create(anke, {"players": 2, "mode": "turn-based", "days": 2,
                      "seats": [{"kind": "human"}, {"kind": "human", "access": "open"}]})
    st, r = http_json(P, "POST", f"/api/games/{g['id']}/join", {}, cookie=cato)
    check(st == 409 and "50 turn-based games" in r.get("error", ""), f"joining one more: {st} {r}")
    create(cato, {"players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    st, mg = http_json(P, "GET", "/api/my-games", cookie=cato)
    check(len([x for x in mg["games"] if x.get("mode") == "turn-based"]) == 50,
          f"cato's 50 turn-based games are listed: {len(mg.get('games', []))}")

    # 5. who leaves ranks last
    ra0, rb0 = amsterdam(profile("anke")), amsterdam(profile("bram"))
    g = create(anke, {"edition": "amsterdam", "players": 2, "mode": "turn-based", "days": 1,
                      "seats": [{"kind": "human"}, {"kind": "human", "access": "reserved"}]})
    gleft = g["id"]
    b = srv.ws(bram)
    b.send({"type": "join", "game": gleft, "token": g["seats"][1]["token"]})
    m = b.recv_until(lambda x: x["type"] in ("state", "error"), timeout=30)
    check(m["type"] == "state" and m["seat"] == 1, f"bram takes his seat: {m}")
    b.close()
    final = play_to_end(gleft, {0: (anke, None)})
    # the greedy stand-in outscores anke's random moves (by thousands: in
    # practice always), so only the rule, not the scores, puts bram last
    sc = final["result"]["scores"]
    check(sc[1] > sc[0], f"the stand-in outscored anke: {sc}")
    away = [x["away"] for x in final["seats"]]
    check(away == [False, True], f"the stand-in played for bram at the end, not for anke: {away}")
    pa, pb = profile("anke"), profile("bram")
    xa = [x for x in pa["games"] if x["id"] == gleft]
    xb = [x for x in pb["games"] if x["id"] == gleft]
    check(xa and xb and xa[0]["rated"] and xa[0]["place"] == 0 and xb[0]["place"] == 1,
          f"bram left: last, whatever the scores {final['result']}: {xa} {xb}")
    check(amsterdam(pa)["rating"] > ra0["rating"] and amsterdam(pb)["rating"] < rb0["rating"],
          f"anke's rating rises, bram's falls: {ra0['rating']} -> {amsterdam(pa)['rating']}, "
          f"{rb0['rating']} -> {amsterdam(pb)['rating']}")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code}): {srv.log_text()[-2000:]}")

finish("server_ratings: rated and unrated games, profiles, leaderboard, rematch, My games, "
       "the turn-based limit, who leaves ranks last")
