"""server_botfair.py: games of bots only cannot starve a person's bot (issue 28
item 5: 19 games of ISMCTS bots only from one address took another game's
greedy reply from 6 ms to a median of 18.9 s).

The server runs behind a pretend proxy (--trust-proxy, X-Forwarded-For) so
that games come from several addresses, with loopback not exempt, at most
3 running games of bots only per address and 8 in all, and two bot threads:
- address A makes 3 games of two ISMCTS bots (strength 3); its 4th is
  refused with 429, a reason and retry_after; address B makes 3, address C
  2; C's next is refused with 503 (8 in all), with its reason;
- a person plays 12 moves against a greedy bot meanwhile: the median wait
  for the bot's reply is under 0.5 s and the longest under 3 s (before,
  each reply waited behind every ISMCTS search in the one line: seconds);
- a stand-in (two people, a 1 s turn timer, nobody moves) moves within 3 s
  of the start: stand-ins are served first;
- the games of bots only move on too.

usage: python3 server_botfair.py BINARY SRCDIR WORKDIR
"""
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, http_call, http_json, pick_move, check, finish, test_args  # noqa

BIN, SRC, WORK = test_args()
os.environ.update(CHARTERED_LIMIT_LOOPBACK="1", CHARTERED_BOTGAMES_PER_ADDRESS="3",
                  CHARTERED_BOTGAMES_MAX="8")
srv = Server(BIN, os.path.join(WORK, "botfair.db"),
             extra=["--trust-proxy", "--bot-threads", "2"]).start()
rng = random.Random(28)
BOTS = {"players": 2, "seats": [{"kind": "bot", "bot": "ismcts", "strength": 3},
                                {"kind": "bot", "bot": "ismcts", "strength": 3}]}


def create(addr, body):
    st, j, _ = http_call(srv.port, "POST", "/api/games", body,
                         headers={"X-Forwarded-For": addr})
    return st, j


try:
    bot_games = []
    for addr, n in (("10.0.0.1", 3), ("10.0.0.2", 3), ("10.0.0.3", 2)):
        for _ in range(n):
            st, g = create(addr, BOTS)
            check(st == 201, f"{addr}: a game of bots only is made: {st} {g}")
            if st == 201:
                bot_games.append(g["id"])
    st, j = create("10.0.0.1", BOTS)
    check(st == 429 and "bots only" in j.get("error", "") and j.get("retry_after", 0) > 0,
          f"a 4th game of bots only from one address: 429 with the reason: {st} {j}")
    st, j = create("10.0.0.3", BOTS)
    check(st == 503 and "bots only" in j.get("error", "") and "8" in j.get("error", ""),
          f"a 9th game of bots only in all: 503 with the reason: {st} {j}")
    st, j = create("10.0.0.1", {"players": 2, "seats": [
        {"kind": "human", "name": "P"}, {"kind": "bot", "bot": "greedy"}]})
    check(st == 201, f"a game with a person is not capped: {st} {j}")
    st, o = http_json(srv.port, "GET", "/api/options")
    check(o.get("limits", {}).get("botgames_per_address") == 3 and
          o["limits"].get("botgames_max") == 8, f"/api/options shows the caps: {o.get('limits')}")
    gid, tok = j["id"], j["seats"][0]["token"]
    dec0 = {b: http_json(srv.port, "GET", f"/api/games/{b}")[1].get("decision", 0)
            for b in bot_games}

    w = srv.ws()
    w.send({"type": "join", "game": gid, "token": tok})
    m = w.recv_until(lambda m: m["type"] == "state" and (m["legal"] or m["status"] == "over"),
                     timeout=60)
    waits = []
    while len(waits) < 12 and m["status"] != "over":
        d = m["decision"]
        t0 = time.time()
        w.send({"type": "move", "move": pick_move(m["legal"], rng), "decision": d})
        m = w.recv_until(lambda x: x["type"] == "error" or (
            x["type"] == "state" and x["decision"] > d and (x["legal"] or x["status"] == "over")),
            timeout=120)
        check(m["type"] == "state", f"the move is accepted: {m}")
        if m["type"] != "state":
            break
        waits.append(time.time() - t0)
    w.close()
    check(len(waits) >= 8, f"replies measured: {len(waits)}")
    if waits:
        med = statistics.median(waits)
        print(f"greedy replies with 8 games of ISMCTS bots only running: median "
              f"{med * 1000:.0f} ms, max {max(waits) * 1000:.0f} ms over {len(waits)}",
              flush=True)
        check(med < 0.5, f"the median wait for the greedy bot is {med:.2f} s")
        check(max(waits) < 3, f"the longest wait for the greedy bot is {max(waits):.2f} s")
    # a stand-in: two people seated, neither moves; the turn timer (1 s) runs
    # out and a greedy stand-in moves for the one deciding, first in line
    st, j = create("10.0.0.4", {"players": 2, "turn_timer": 1, "seats": [
        {"kind": "human", "name": "Q"}, {"kind": "human", "name": "R"}]})
    check(st == 201, f"a game with a turn timer: {st} {j}")
    people = []
    for i in range(2):
        x = srv.ws()
        x.send({"type": "join", "game": j["id"], "token": j["seats"][i]["token"]})
        people.append(x)
    m = people[0].recv_until(lambda m: m["type"] == "state" and m["status"] == "playing",
                             timeout=30)
    t0 = time.time()
    m = people[0].recv_until(lambda m: m["type"] == "state" and m["decision"] > 0, timeout=120)
    waited = time.time() - t0
    print(f"the stand-in moved {waited:.2f} s after the game started (turn timer 1 s)",
          flush=True)
    check(waited < 3, f"the stand-in moved {waited:.2f} s after the start (timer 1 s): "
          "it waited behind the games of bots only")
    for x in people:
        x.close()
    moved, end = 0, time.time() + 30
    while not moved and time.time() < end:
        moved = sum(1 for b in bot_games if http_json(srv.port, "GET", f"/api/games/{b}")[1]
                    .get("decision", 0) > dec0[b])
        time.sleep(0.5)
    check(moved >= 1, f"the games of bots only move on ({moved} of {len(bot_games)})")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code}): {srv.log_text()[-2000:]}")

finish("server_botfair: games of bots only capped, and they do not starve a person's bot")
