"""server_analysis.py: the analysis of a finished game on the server, and
hints (issue 33 items 1-4; docs/protocol.md "Analysis and hints"), against
`chartered serve` over real sockets, with small budgets (150 playouts a
decision, 60 a hint) and one bot thread:
1. Refusals: no session (401), a game in play (403), a game never analysed
   reads as "none" (404); nothing is stored for them.
2. A guest asks for the analysis of a finished game of two greedy bots
   (202, queued); asking for a second game while it runs is refused (429:
   one under way a person), also to another guest session of the same
   network; the progress rises to the total; once done the
   result has one entry per move with each player's chance (summing to 1),
   the bot's move, and the moments with their advice in en, nl and ja; the
   row is stored "done" with its result.
3. Live bots are not starved: while an analysis runs, a person plays
   against a greedy bot; every bot reply comes back while the analysis is
   still running (it waits at most for one decision's analysis, never for
   the game's), and the reply times are printed as a figure.
4. Stored once, served without computing: asked again (200, the same
   result); after a restart under another node name the new node serves it
   from the database (its own count of analyses stays 0) and a POST does not
   queue it again.
5. The daily share (2 here): a third analysis the same day is refused (429),
   also to a new guest session from the same network (the guests of a network
   share one share: schema 12's analyses.origin), not to an account.
   A row left under way by a node that stopped reads as none and is taken
   over by the next request.
6. Hints: a guest against a greedy bot asks for one on its turn (200: a
   legal move, a chance, the move in three languages; asked again, the same
   hint, counted once); another session (409),
   no session (401); the seat then shows "hints": 1 in the summary, the
   lobby's list and the stored seats, and an account's finished game in its
   profile. A rated game of two accounts refuses
   hints (403, "rated"), and a game without bots too (403).

usage: python3 server_analysis.py BINARY SRCDIR WORKDIR
"""
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, http_call, http_json, session_cookie, guest, sql_rows, sql_exec,  # noqa: E402
                      expand_legal, pick_move, check, finish, test_args)

BIN, SRC, WORK = test_args()
os.environ.update(CHARTERED_ANALYSIS_ITERATIONS="150", CHARTERED_ANALYSES_PER_DAY="2",
                  CHARTERED_HINT_ITERATIONS="60")
db = os.path.join(WORK, "analysis.db")
srv = Server(BIN, db, extra=["--bot-threads", "1", "--node", "alpha"]).start()
P = srv.port
rng = random.Random(33)
GREEDY2 = {"edition": "amsterdam", "players": 2,
           "seats": [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}]}


def finished_game():
    st, g = http_json(P, "POST", "/api/games", GREEDY2)
    check(st == 201, f"a game of two greedy bots: {st} {g}")
    end = time.time() + 60
    while time.time() < end:
        st, s = http_json(P, "GET", f"/api/games/{g['id']}")
        if s.get("status") == "over":
            return g["id"], s.get("decision", 0)
        time.sleep(0.2)
    check(False, f"game {g['id']} did not finish")
    return g["id"], 0


def analysis(gid, cookie=None):
    return http_json(P, "GET", f"/api/games/{gid}/analysis", cookie=cookie)


def wait_done(gid, timeout=90):
    seen, end = [], time.time() + timeout
    while time.time() < end:
        st, r = analysis(gid)
        if st == 200:
            return r, seen
        check(st == 202, f"under way: 202 ({st} {r})")
        seen.append(r.get("done", 0))
        time.sleep(0.1)
    check(False, f"the analysis of {gid} did not finish")
    return {}, seen


def legal_has(lines, move):
    for c in expand_legal(lines):
        if isinstance(c, tuple):
            prefix, lo, hi = c
            if move.startswith(prefix + " f") and lo <= int(move[len(prefix) + 2:]) <= hi:
                return True
        elif c == move:
            return True
    return False


def row(gid):
    r = sql_rows(db, f"SELECT status, done, total, node, CASE WHEN result IS NULL THEN 0 ELSE 1 END FROM analyses "
                     f"WHERE game = '{gid}'")
    return r[0] if r else None


try:
    g1, n1 = finished_game()
    g2, n2 = finished_game()
    g3, _ = finished_game()
    check(n1 > 20 and n2 > 20, f"finished games of {n1} and {n2} decisions")
    ann = guest(P, "Ann")
    bob = guest(P, "Bob")

    # 1. refusals
    st, r = http_json(P, "POST", f"/api/games/{g1}/analysis", {})
    check(st == 401, f"no session: 401 ({st} {r})")
    st, live = http_json(P, "POST", "/api/games", {"edition": "amsterdam", "players": 2, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}, cookie=bob)
    check(st == 201, f"a game against a bot: {st} {live}")
    st, r = http_json(P, "POST", f"/api/games/{live['id']}/analysis", {}, cookie=ann)
    check(st == 403 and "not over" in r.get("error", ""), f"a game in play: 403 ({st} {r})")
    st, r = analysis(g1)
    check(st == 404 and r.get("status") == "none", f"never analysed: 404 none ({st} {r})")
    check(row(g1) is None and row(live["id"]) is None, "nothing stored for the refusals")

    # 2. asked for, one under way a person, progress, result, stored
    t0 = time.time()
    st, r = http_json(P, "POST", f"/api/games/{g1}/analysis", {}, cookie=ann)
    check(st == 202 and r.get("status") in ("queued", "running") and r.get("total") == n1,
          f"asked: 202 queued with the total ({st} {r})")
    st, r = http_json(P, "POST", f"/api/games/{g2}/analysis", {}, cookie=ann)
    check(st == 429 and "under way" in r.get("error", ""), f"a second one meanwhile: 429 ({st} {r})")
    st, r = http_json(P, "POST", f"/api/games/{g1}/analysis", {}, cookie=bob)
    check(st == 202, f"another person asking for the same game gets its progress ({st} {r})")
    # a new guest session is no new share: the guests of one network share one
    st, r = http_json(P, "POST", f"/api/games/{g2}/analysis", {}, cookie=guest(P, "Cid"))
    check(st == 429 and "guest on your network" in r.get("error", ""),
          f"another guest from the same network meanwhile: 429 ({st} {r})")

    # 3. a person plays against a greedy bot while it runs (one bot thread)
    w = srv.ws(bob)
    w.send({"type": "join", "game": live["id"]})  # the creator's seat: its session
    m = w.recv_until(lambda m: m["type"] == "state" and (m["legal"] or m["status"] == "over"),
                     timeout=30)
    waits, during = [], 0
    while len(waits) < 6 and m["status"] != "over":
        d = m["decision"]
        t1 = time.time()
        w.send({"type": "move", "move": pick_move(m["legal"], rng), "decision": d})
        m = w.recv_until(lambda x: x["type"] == "error" or (
            x["type"] == "state" and x["decision"] > d and (x["legal"] or x["status"] == "over")),
            timeout=60)
        check(m["type"] == "state", f"the move is accepted: {m}")
        if m["type"] != "state":
            break
        waits.append(time.time() - t1)
        st, p = analysis(g1)
        if st == 202 and p.get("done", 0) < p.get("total", 0):
            during += 1
    check(len(waits) >= 3, f"bot replies measured: {len(waits)}")
    check(during == len(waits), f"every bot reply came back while the analysis still ran "
          f"({during} of {len(waits)}): the bot did not wait for the whole analysis")

    res, seen = wait_done(g1)
    took = time.time() - t0
    check(seen == sorted(seen) and seen and seen[-1] > 0, f"the progress rises: {seen[:3]}..{seen[-3:]}")
    a = res.get("analysis", {})
    decs = a.get("decisions", [])
    check(res.get("status") == "done" and len(decs) == n1, f"one entry a decision: {len(decs)} of {n1}")
    ok_sum = all(abs(sum(x["chances"]) - 1) < 0.01 and len(x["chances"]) == 2 for x in decs)
    check(ok_sum, "each decision's chances are of two players and sum to 1")
    check(all(x["player"] in (0, 1) and x["move"] and x["best"] for x in decs),
          "each decision names its player, the move and the bot's move")
    moms = a.get("moments", [])
    check(all(set(x["advice"]) == {"en", "nl", "ja"} and x["gain"] >= 0.03 and
              decs[x["n"]]["moment"] == x["rank"] for x in moms),
          f"the moments have advice in three languages and are marked: {moms[:1]}")
    if waits:
        per_dec = a.get("cpu", 0) / max(1, n1)
        print(f"analysis of {n1} decisions at 150 playouts: {a.get('cpu', 0):.2f} s CPU "
              f"({per_dec * 1000:.1f} ms a decision), {took:.1f} s from the request; greedy "
              f"replies meanwhile (one bot thread): median {statistics.median(waits) * 1000:.0f} "
              f"ms, max {max(waits) * 1000:.0f} ms over {len(waits)}", flush=True)
    rw = row(g1)
    check(rw and rw[0] == "done" and int(rw[1]) == n1 and rw[3] == "alpha" and int(rw[4]) == 1,
          f"stored done with its result by node alpha: {rw}")

    # 4. served again without computing, here and by another node
    st, again = http_json(P, "POST", f"/api/games/{g1}/analysis", {}, cookie=bob)
    check(st == 200 and again.get("analysis") == a, f"asked again: 200, the same ({st})")
    st, h = http_json(P, "GET", "/api/health")
    check(h.get("analyses", {}).get("done") == 1, f"node alpha analysed once: {h.get('analyses')}")
    code = srv.stop()
    check(code == 0, f"the server stops cleanly ({code})")
    srv = Server(BIN, db, extra=["--bot-threads", "1", "--node", "beta"]).start()
    P = srv.port
    st, r = analysis(g1)
    check(st == 200 and r.get("analysis") == a and r["analysis"].get("node") == "alpha",
          f"node beta serves alpha's analysis from the database ({st})")
    st, r = http_json(P, "POST", f"/api/games/{g1}/analysis", {}, cookie=ann)
    check(st == 200 and r.get("analysis") == a, f"and a POST there does not queue it again ({st})")
    st, h = http_json(P, "GET", "/api/health")
    check(h.get("node") == "beta" and h.get("analyses", {}).get("done") == 0 and
          h["analyses"].get("queued") == 0, f"beta computed nothing: {h.get('analyses')}")

    # 5. the daily share: ann asked for g1; g2 is her second, g3 her third
    st, r = http_json(P, "POST", f"/api/games/{g2}/analysis", {}, cookie=ann)
    check(st == 202, f"a second analysis the same day: 202 ({st} {r})")
    wait_done(g2)
    st, r = http_json(P, "POST", f"/api/games/{g3}/analysis", {}, cookie=ann)
    check(st == 429 and r.get("per_day") == 2, f"a third one the same day: 429 ({st} {r})")
    st, r = http_json(P, "POST", f"/api/games/{g3}/analysis", {}, cookie=guest(P, "Eve"))
    check(st == 429 and r.get("per_day") == 2 and "log in" in r.get("error", ""),
          f"and for a new guest session from the same network (its share is theirs): 429 ({st} {r})")
    check(row(g3) is None, "nothing stored for them")
    # a row left under way by a node that stopped (10 minutes without a
    # word): read as none, and the next request takes it over
    sql_exec(db, f"INSERT INTO analyses(game, status, requester, requested, updated, node, done, "
                 f"total, cpu_ms) VALUES ('{g3}', 'running', 'g:gone', 1, 1, 'gone', 7, {n1}, 0)")
    st, r = analysis(g3)
    check(st == 404 and "went away" in r.get("error", ""), f"a stopped node's row reads as none ({st} {r})")
    st, r, hd = http_call(P, "POST", "/api/signup", {"name": "fenna", "password": "fenna pw secret"})
    check(st == 201, f"an account signs up: {st} {r}")
    st, r = http_json(P, "POST", f"/api/games/{g3}/analysis", {}, cookie=session_cookie(hd))
    check(st == 202 and r.get("node") == "beta", f"and is taken over by this node, for an account "
          f"from the same network (a share of its own) ({st} {r})")
    r, _ = wait_done(g3)
    check(r.get("status") == "done", f"the taken-over analysis is done: {r.get('status')}")

    # 6. hints
    st, hg = http_json(P, "POST", "/api/games", {"edition": "amsterdam", "players": 2, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}, cookie=ann)
    check(st == 201, f"a practice game against a bot: {st} {hg}")
    w = srv.ws(ann)
    w.send({"type": "join", "game": hg["id"]})
    m = w.recv_until(lambda m: m["type"] == "state" and m["legal"], timeout=30)
    st, r = http_json(P, "POST", f"/api/games/{hg['id']}/hint", {})
    check(st == 401, f"a hint without a session: 401 ({st} {r})")
    st, r = http_json(P, "POST", f"/api/games/{hg['id']}/hint", {}, cookie=bob)
    check(st == 409, f"a hint for someone not deciding there: 409 ({st} {r})")
    st, r = http_json(P, "GET", f"/api/games/{hg['id']}/hint")
    check(st == 405, f"GET of a hint: 405 ({st} {r})")
    st, hint = http_json(P, "POST", f"/api/games/{hg['id']}/hint", {}, cookie=ann)
    check(st == 200 and hint.get("seat") == 0 and hint.get("decision") == m["decision"] and
          legal_has(m["legal"], hint.get("move", "")) and 0 <= hint.get("chance", -1) <= 1 and
          set(hint.get("text", {})) == {"en", "nl", "ja"},
          f"a hint: a legal move with its chance and words ({st} {hint})")
    st, again = http_json(P, "POST", f"/api/games/{hg['id']}/hint", {}, cookie=ann)
    check(st == 200 and again == hint, f"asked again at the same decision: the same hint ({st})")
    st, s = http_json(P, "GET", f"/api/games/{hg['id']}")
    check(s["seats"][0].get("hints") == 1 and "hints" not in s["seats"][1],
          f"the seat shows its hint, counted once: {s['seats']}")
    d = m["decision"]
    w.send({"type": "move", "move": hint["move"], "decision": d})
    m = w.recv_until(lambda x: x["type"] == "state" and x["decision"] > d, timeout=30)
    st, lst = http_json(P, "GET", "/api/games")
    mine = [x for x in (lst.get("games") or []) if x.get("id") == hg["id"]]
    check(mine and mine[0]["seats"][0].get("hints") == 1, f"the lobby's list shows it: {mine}")
    end = time.time() + 10
    stored = None
    while time.time() < end:
        stored = sql_rows(db, f"SELECT seats FROM games WHERE id = '{hg['id']}'")[0][0]
        if '"hints": 1' in stored or '"hints":1' in stored:
            break
        time.sleep(0.2)
    check('"hints"' in stored, f"the stored seats count it: {stored}")
    w.close()

    def signup(name):
        st, r, hd = http_call(P, "POST", "/api/signup", {"name": name, "password": name + " pw secret"})
        check(st == 201, f"sign-up {name}: {st} {r}")
        return session_cookie(hd)
    cas, dirk = signup("casper"), signup("dirk")

    # an account's finished game with a hint: marked in its profile's list
    st, pg = http_json(P, "POST", "/api/games", {"edition": "amsterdam", "players": 2, "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}, cookie=cas)
    w = srv.ws(cas)
    w.send({"type": "join", "game": pg["id"]})
    m = w.recv_until(lambda m: m["type"] == "state" and m["legal"], timeout=30)
    st, r = http_json(P, "POST", f"/api/games/{pg['id']}/hint", {}, cookie=cas)
    check(st == 200, f"casper's hint: {st} {r}")
    latest = m
    while latest["status"] != "over":
        d = latest["decision"]
        time.sleep(0.06)  # within the frame rate (20 a second)
        w.send({"type": "move", "move": pick_move(latest["legal"], rng), "decision": d})
        # the next decision of casper's, or the end; a move that the game
        # had already passed when it came (the bot decided at the same time,
        # as in sealed bids) is answered 'stale': go on from the newest state
        # seen, as the other play loops do (server_play.py)
        failed = None
        while True:
            x = w.recv_until(lambda x: x["type"] in ("state", "error"), timeout=60)
            if x["type"] == "state":
                latest = x
                if x["status"] == "over" or (x["decision"] > d and x["legal"]):
                    break
            elif x.get("code") == "stale" or (x.get("code") == "not_your_turn" and
                                               "over" in x.get("message", "")):
                if latest["decision"] > d and (latest["legal"] or latest["status"] == "over"):
                    break
            else:
                failed = x
                break
        if failed:
            check(False, f"casper's move: {failed}")
            break
    w.close()
    end = time.time() + 10
    mine = []
    while time.time() < end and not mine:
        st, prof = http_json(P, "GET", "/api/players/casper")
        mine = [x for x in prof.get("games", []) if x.get("id") == pg["id"]]
        time.sleep(0.2)
    check(mine and mine[0].get("hints") == 1, f"casper's profile marks the game: {mine}")

    # rated: two accounts, no bot
    st, rg = http_json(P, "POST", "/api/games", {"edition": "amsterdam", "players": 2, "seats": [
        {"kind": "human"}, {"kind": "human", "access": "reserved"}]}, cookie=cas)
    check(st == 201, f"a game of two accounts: {st} {rg}")
    x = srv.ws(dirk)
    x.send({"type": "join", "game": rg["id"], "token": rg["seats"][1]["token"]})
    x.recv_until(lambda m: m["type"] == "state" and m["status"] == "playing", timeout=30)
    for ck in (cas, dirk):
        st, r = http_json(P, "POST", f"/api/games/{rg['id']}/hint", {}, cookie=ck)
        check(st == 403 and "rated" in r.get("error", ""), f"no hint in a rated game: 403 ({st} {r})")
    x.close()
    st, pg = http_json(P, "POST", "/api/games", {"edition": "amsterdam", "players": 2, "seats": [
        {"kind": "human"}, {"kind": "human"}]}, cookie=bob)
    st, r = http_json(P, "POST", f"/api/games/{pg['id']}/hint", {}, cookie=bob)
    check(st == 403 and "bots" in r.get("error", ""), f"no hint in a game without bots: 403 ({st} {r})")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code}): {srv.log_text()[-2000:]}")

finish("server_analysis: analyses queued, shared, stored once and served; hints only where allowed")
