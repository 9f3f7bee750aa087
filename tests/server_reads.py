"""server_reads.py: reads a request waits for are made off the event loop
(src/server/api/reads.c): a summary, a replay or a watch of a game that is not in
memory, and the session of a request's cookie, are read on the writer thread
and answered when the read is back. The server runs with
CHARTERED_EVICT_SECONDS=1.
- a game of bots is played to the end and leaves memory;
- at once, several summaries, replays and watches of it, and requests with
  a session cookie (GET /api/me), all give the right answers (the final
  decision and result; the guest's name), and the game is loaded once;
- an unknown game is 404 / "no_game"; a WebSocket that joins with a session
  gets its seat (its session was read before its frames were handled); one
  whose session was logged out meanwhile is refused ("no_session");
- the lobby's lists (finished games, idle turn-based ones) are read there too;
- so are the players' pages (profile_api.c): a player's profile (an account
  made here; an unknown name is 404), a leaderboard, "My games" (the guest's
  game in memory is listed once, seat 0).
With CHARTERED_TEST_PG=1 (pg_server_reads) also: the PostgreSQL backend of
the writer's connection (application_name 'chartered writer') is stopped
(SIGSTOP): a summary of the evicted game, a watch of it, the list of
finished games, a profile, a leaderboard and "My games" wait, and no other
backend runs the turn clocks' once-a-second query, while the
event loop goes on answering (GET /api/health, a WebSocket ping); once the
backend is let go (SIGCONT) they are answered correctly. A read made on the
event loop would have answered at once: this is what fails without reads.c.

usage: python3 server_reads.py BINARY SRCDIR WORKDIR
"""
import os
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, WS, http_json, http_call, guest, check, finish,  # noqa: E402
                      test_args, pg_mode, sql_rows)

BIN, SRC, WORK = test_args()
db = os.path.join(WORK, "reads.db")
os.environ["CHARTERED_EVICT_SECONDS"] = "1"
srv = Server(BIN, db).start()


def health():
    st, h = http_json(srv.port, "GET", "/api/health")
    check(st == 200, f"health: {st}")
    return h


def wait_gone(left=0, secs=60):
    """Wait until `left` games are in memory (the finished one evicted)."""
    end = time.time() + secs
    while time.time() < end:
        if health()["games_in_memory"] == left:
            return True
        time.sleep(0.1)
    check(False, f"the finished game is not evicted within {secs} s")
    return False


def in_thread(fn):
    out = {}

    def run():
        try:
            out["r"] = fn()
        except Exception as e:  # noqa: BLE001 (reported by the check)
            out["r"] = e
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t, out


try:
    st, g = http_json(srv.port, "POST", "/api/games", {
        "players": 2, "seed": 12,
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
    check(st == 201, f"a game of bots: {st} {g}")
    gid = g["id"]
    w = srv.ws()
    w.send({"type": "watch", "game": gid})
    final = w.recv_until(lambda m: m["type"] == "state" and m["status"] == "over", timeout=150)
    w.close()
    decision, result = final["decision"], final["result"]
    wait_gone()
    cookie = guest(srv.port, "Wim")
    r0 = health()["games_reloaded"]

    # ---- at once: summaries, replays, watches, cookie requests ----
    jobs = []
    for _ in range(4):
        jobs.append(("summary", in_thread(lambda: http_json(srv.port, "GET", f"/api/games/{gid}"))))
        jobs.append(("replay", in_thread(
            lambda: http_json(srv.port, "GET", f"/api/games/{gid}/replay"))))
        jobs.append(("me", in_thread(
            lambda: http_json(srv.port, "GET", "/api/me", cookie=cookie))))

    def watch():
        x = srv.ws()
        x.send({"type": "watch", "game": gid})
        m = x.recv_until(lambda m: m["type"] in ("state", "error"), timeout=60)
        x.close()
        return m
    for _ in range(3):
        jobs.append(("watch", in_thread(watch)))
    for kind, (t, out) in jobs:
        t.join(90)
        r = out.get("r")
        if kind == "summary":
            check(isinstance(r, tuple) and r[0] == 200 and r[1]["decision"] == decision and
                  r[1]["status"] == "over", f"a summary: {r}")
        elif kind == "replay":
            check(isinstance(r, tuple) and r[0] == 200 and r[1]["steps"] == decision and
                  r[1]["result"] == result, f"a replay: {str(r)[:200]}")
        elif kind == "me":
            check(isinstance(r, tuple) and r[0] == 200 and r[1].get("name") == "Wim",
                  f"the session of the cookie: {r}")
        else:
            check(isinstance(r, dict) and r["type"] == "state" and r["decision"] == decision
                  and r["result"] == result, f"a watch: {str(r)[:200]}")
    h = health()
    check(h["games_reloaded"] >= r0 + 1, f"the game was read back: {h}")
    print(f"{len(jobs)} requests at once: game loaded {h['games_reloaded'] - r0} time(s)",
          flush=True)

    # ---- unknown games; a join with a session ----
    st, r = http_json(srv.port, "GET", "/api/games/0123456789abcdef")
    check(st == 404, f"an unknown game: {st}")
    x = srv.ws()
    x.send({"type": "watch", "game": "0123456789abcdef"})
    m = x.recv_until(lambda m: m["type"] == "error", timeout=30)
    check(m["code"] == "no_game", f"an unknown game over WebSocket: {m}")
    x.close()
    st, g2 = http_json(srv.port, "POST", "/api/games", {"players": 2})
    check(st == 201, f"a game for people: {st}")
    x = srv.ws(cookie=cookie)
    x.send({"type": "join", "game": g2["id"], "token": g2["seats"][0]["token"]})
    m = x.recv_until(lambda m: m["type"] in ("state", "error"), timeout=30)
    check(m["type"] == "state" and m["seat"] == 0, f"a join with a session: {m}")
    x.close()
    # a session logged out after its WebSocket opened: the join reads that
    # it is gone (off the loop) and is refused
    gone = guest(srv.port, "Gone")
    x = WS("127.0.0.1", srv.port, cookie=gone)
    x.send({"type": "ping"})
    x.recv_until(lambda m: m["type"] == "pong", timeout=30)  # its session was read
    st, _, _ = http_call(srv.port, "POST", "/api/logout", body={}, cookie=gone)
    check(st in (200, 204), f"logout: {st}")
    x.send({"type": "join", "game": g2["id"], "token": g2["seats"][1]["token"]})
    m = x.recv_until(lambda m: m["type"] in ("state", "error"), timeout=30)
    check(m["type"] == "error" and m["code"] == "no_session",
          f"a join after the session was logged out: {m}")
    x.close()

    # ---- players' pages: a profile, a leaderboard, "My games" ----
    st, _, hd = http_call(srv.port, "POST", "/api/signup",
                          {"name": "Reader", "password": "Reader secret pw"})
    check(st in (200, 201), f"an account: {st}")
    st, prof = http_json(srv.port, "GET", "/api/players/reader")
    check(st == 200 and prof["name"] == "Reader" and prof["played"] == 0 and
          prof["games"] == [] and prof["ratings"] == [], f"a profile: {st} {prof}")
    st, r = http_json(srv.port, "GET", "/api/players/nobody")
    check(st == 404 and "no player" in r.get("error", ""), f"an unknown player: {st} {r}")
    st, board = http_json(srv.port, "GET", "/api/leaderboard?edition=golden-age")
    check(st == 200 and board["edition"] == "golden-age" and board["players"] == [],
          f"a leaderboard: {st} {board}")
    st, mine = http_json(srv.port, "GET", "/api/my-games", cookie=cookie)
    check(st == 200 and [(x["id"], x["seat"]) for x in mine["games"]] == [(g2["id"], 0)],
          f"My games: {st} {mine}")
    st, r = http_json(srv.port, "GET", "/api/my-games")
    check(st == 401, f"My games without a session: {st} {r}")

    # ---- PostgreSQL: the writer stopped, the loop answers ----
    if pg_mode():
        wait_gone(1)  # the game of people stays
        pids = [int(r[0]) for r in sql_rows(db, "SELECT pid FROM pg_stat_activity WHERE "
                                                "application_name = 'chartered writer' AND "
                                                "datname = current_database()")]
        check(len(pids) == 1, f"the writer's backend: {pids}")
        stopped = []
        try:
            for p in pids:
                os.kill(p, signal.SIGSTOP)
                stopped.append(p)
            ts, outs = in_thread(lambda: http_json(srv.port, "GET", f"/api/games/{gid}"))
            tw, outw = in_thread(watch)
            tl, outl = in_thread(lambda: http_json(srv.port, "GET", "/api/games?status=over"))
            tp, outp = in_thread(lambda: http_json(srv.port, "GET", "/api/players/Reader"))
            tb, outb = in_thread(lambda: http_json(srv.port, "GET",
                                                   "/api/leaderboard?edition=golden-age"))
            # (its session is read by the writer too: it would wait anyway)
            tm, outm = in_thread(lambda: http_json(srv.port, "GET", "/api/my-games",
                                                   cookie=cookie))
            # the loop goes on: health and a ping are answered meanwhile
            st, h = http_json(srv.port, "GET", "/api/health")
            check(st == 200, f"health is answered while the writer waits: {st}")
            p = WS("127.0.0.1", srv.port)  # no session: a guest would be a write
            p.send({"type": "ping"})
            m = p.recv_until(lambda m: m["type"] == "pong", timeout=30)
            p.close()
            st2, _, _ = http_call(srv.port, "GET", "/")
            check(st2 in (200, 404), f"a static file is answered meanwhile: {st2}")
            check(ts.is_alive() and tw.is_alive() and tl.is_alive(),
                  "the summary and the watch of the evicted game, and the list of finished "
                  "games, wait for the writer (a read on the event loop would have answered "
                  "already)")
            # the turn clocks' once-a-second query is the writer's too: no
            # other backend of the server runs it (on the loop, its own
            # connection would, once a second; a check that can only pass late)
            clock_q, end = [], time.time() + 3
            while time.time() < end and not clock_q:
                clock_q = sql_rows(db, "SELECT pid FROM pg_stat_activity WHERE datname = "
                                       "current_database() AND pid <> pg_backend_pid() AND "
                                       "application_name <> 'chartered writer' AND "
                                       "query LIKE 'SELECT game FROM turn_clock%'")
                time.sleep(0.2)
            check(clock_q == [], f"the turn clocks' query runs on the writer only: {clock_q}")
            check(tp.is_alive() and tb.is_alive() and tm.is_alive(),
                  f"a profile ({outp.get('r')}), a leaderboard ({outb.get('r')}) and My games "
                  "wait for the writer (a read on the event loop would have answered already)")
        finally:
            for p in stopped:
                os.kill(p, signal.SIGCONT)
        ts.join(90)
        tw.join(90)
        r = outs.get("r")
        check(isinstance(r, tuple) and r[0] == 200 and r[1]["decision"] == decision,
              f"the summary, once the writer goes on: {r}")
        r = outw.get("r")
        check(isinstance(r, dict) and r.get("decision") == decision and r.get("result") == result,
              f"the watch, once the writer goes on: {str(r)[:200]}")
        tl.join(90)
        r = outl.get("r")
        check(isinstance(r, tuple) and r[0] == 200 and
              [x["id"] for x in r[1]["games"]] == [gid] and r[1]["games"][0]["decision"] == decision,
              f"the list of finished games, once the writer goes on: {str(r)[:300]}")
        for t, out, want, what in ((tp, outp, prof, "the profile"),
                                   (tb, outb, board, "the leaderboard"),
                                   (tm, outm, mine, "My games")):
            t.join(90)
            r = out.get("r")
            check(r == (200, want), f"{what}, once the writer goes on: {r} (before: {want})")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code}): {srv.log_text()[-2000:]}")

finish("server_reads: reads of games out of memory and of sessions are made off the loop; "
       "answers are right" + (" (PostgreSQL: the loop answered while the writer was stopped)"
                              if pg_mode() else ""))
