"""server_analysis.py: the figures of the server's analyses (issue 33;
docs/analysis.md "Figures"). Starts `chartered serve` with the default
budgets (60 s of CPU a game, at most 0.2 s a decision) and BOT_THREADS bot
threads (default 2), plays one 4-player game of four greedy bots of each
edition to its end, then:
- a person plays MOVES moves against a greedy bot with no analysis running
  (the baseline of the bot's reply time);
- both games' analyses are asked for (two guests: one under way a person)
  and run one after the other (one analysis at a time a node); meanwhile the
  person plays MOVES more moves: the bot's reply times again;
- for each game: decisions, the CPU the analysis used, the time from the
  request to the stored result.
Prints figures; judges nothing.

usage: python3 bench/server_analysis.py PATH/TO/chartered [MOVES] (env BOT_THREADS)
"""
import os
import random
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "support"))
from wsclient import Server, http_json, guest, pick_move  # noqa: E402

BIN = sys.argv[1]
MOVES = int(sys.argv[2]) if len(sys.argv) > 2 else 20
work = tempfile.mkdtemp()
srv = Server(BIN, os.path.join(work, "bench.db"),
             extra=["--bot-threads", os.environ.get("BOT_THREADS", "2")]).start()
P = srv.port
rng = random.Random(5)


def finished(edition):
    st, g = http_json(P, "POST", "/api/games", {"edition": edition, "players": 4, "seats": [
        {"kind": "bot", "bot": "greedy"}] * 4})
    assert st == 201, (st, g)
    while True:
        st, s = http_json(P, "GET", f"/api/games/{g['id']}")
        if s.get("status") == "over":
            return g["id"], s["decision"]
        time.sleep(0.3)


def play(ws, m, n):
    waits = []
    while len(waits) < n and m["status"] != "over":
        d = m["decision"]
        t0 = time.time()
        ws.send({"type": "move", "move": pick_move(m["legal"], rng), "decision": d})
        m = ws.recv_until(lambda x: x["type"] == "state" and x["decision"] > d and (
            x["legal"] or x["status"] == "over"), timeout=120)
        waits.append(time.time() - t0)
        time.sleep(0.5)  # a person's pace: the replies spread over the analysis
    return m, waits


def fig(w):
    return f"median {statistics.median(w) * 1000:.0f} ms, max {max(w) * 1000:.0f} ms over {len(w)}"


try:
    games = [finished("amsterdam"), finished("golden-age")]
    me = guest(P, "Person")
    st, live = http_json(P, "POST", "/api/games", {"edition": "amsterdam", "players": 2, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}, cookie=me)
    ws = srv.ws(me)
    ws.send({"type": "join", "game": live["id"]})
    m = ws.recv_until(lambda x: x["type"] == "state" and x["legal"], timeout=30)
    m, base = play(ws, m, MOVES)
    print(f"greedy replies, no analysis running: {fig(base)}", flush=True)
    asked = {}
    for k, (gid, n) in enumerate(games):
        st, r = http_json(P, "POST", f"/api/games/{gid}/analysis", {}, cookie=guest(P, f"A{k}"))
        assert st == 202, (st, r)
        asked[gid] = time.time()
    m, during = play(ws, m, MOVES)
    print(f"greedy replies while analyses run: {fig(during)}", flush=True)
    for (gid, n), ed in zip(games, ("Building Amsterdam", "The Golden Age")):
        while True:
            st, r = http_json(P, "GET", f"/api/games/{gid}/analysis")
            if st == 200:
                break
            time.sleep(0.5)
        a = r["analysis"]
        print(f"{ed}, 4 greedy players: {n} decisions, {a['cpu']:.1f} s of CPU "
              f"({a['cpu_per_decision']:.3f} s a decision budget), {a['playouts']} playouts, "
              f"{time.time() - asked[gid]:.1f} s from the request to the stored result, "
              f"{len(a['moments'])} moments", flush=True)
finally:
    srv.stop()
