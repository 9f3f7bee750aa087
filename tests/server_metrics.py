"""server_metrics.py: GET /metrics in the Prometheus text format (issue 35
item 2; docs/deploy.md "Metrics") against `chartered serve` over real sockets:

1. A server with --metrics-listen and --metrics-token-file: on both the main
   port and the separate address, no token and a wrong token are 401 (with
   WWW-Authenticate: Bearer), the right token 200 in the exposition format
   (text/plain; version=0.0.4); the separate address answers only /metrics
   (404 elsewhere, 405 for a POST). `promtool check metrics` (Debian's
   prometheus package: without it this test fails, it does not skip) passes
   on the live text before and after a game.
2. A short game through the real WebSocket (a person against a greedy bot,
   random legal moves to the end; one move before joining and one illegal
   move on purpose): between a scrape before and one after, the counters
   moved by exactly what happened: the person's moves received = frames
   sent, refusals by reason = the error frames the client got, moves
   acknowledged = the game's decisions = received - refused, the commit
   latency histogram counted each acknowledged move once, commits at least
   one and at most one per move, the bot-wait histogram at least one per bot
   move; the WebSocket gauge 1 while connected, then 0; one more finished
   game in memory; no database error. On PostgreSQL (pg_server_metrics), the
   server's connections are then cut: the lost link and the reconnection
   are counted, and a game is made again; a cluster node (--cluster on)
   puts node="NAME" on every series.
3. A server with --metrics-listen and no token: the separate address answers
   without one, and the main port's /metrics is 404 (not served there).

usage: python3 server_metrics.py BINARY SRCDIR WORKDIR
"""
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (WS, Server, http_call, guest, pick_move, free_port, check,  # noqa: E402
                      finish, test_args, pg_mode, sql_exec)

BIN, SRC, WORK = test_args()
PROMTOOL = shutil.which("promtool")
if not PROMTOOL:
    # CI installs it (scripts/install-deps.sh): a missing promtool is a failure
    print("FAIL: promtool not found: install Debian's prometheus package "
          "(scripts/install-deps.sh)")
    sys.exit(1)

TOKEN = secrets.token_hex(24)
tokfile = os.path.join(WORK, "metrics.token")
with open(tokfile, "w") as f:
    f.write(TOKEN + "\n")
os.chmod(tokfile, 0o600)
MPORT = free_port()
db = os.path.join(WORK, "metrics.db")
srv = Server(BIN, db, extra=["--metrics-listen", f"127.0.0.1:{MPORT}",
                             "--metrics-token-file", tokfile, "--bot-threads", "1"]).start()
P = srv.port
LINE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$')


def scrape(port, token=TOKEN, method="GET"):
    hdrs = {"Authorization": f"Bearer {token}"} if token is not None else {}
    st, body, h = http_call(port, method, "/metrics", headers=hdrs)
    return st, body if isinstance(body, str) else str(body), h


def parse(text):
    """{(name, labels text): value} of every sample."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = LINE.match(line)
        check(m is not None, f"a sample line of the exposition format: {line!r}")
        if m:
            out[(m.group(1), m.group(2) or "")] = float(m.group(3))
    return out


def promtool(text, what):
    r = subprocess.run([PROMTOOL, "check", "metrics"], input=text, capture_output=True,
                       text=True, timeout=60)
    check(r.returncode == 0, f"promtool check metrics passes on {what}: {r.returncode} "
          f"{r.stdout} {r.stderr}")


def good(port, what):
    st, text, h = scrape(port)
    check(st == 200, f"{what}: the right token: 200 ({st} {text[:200]})")
    check(h.get("content-type", "").startswith("text/plain; version=0.0.4"),
          f"{what}: the exposition format's content type: {h.get('content-type')}")
    return text


def v(s, name, labels=""):
    return s.get((name, labels), 0.0)


def hist(s, name):
    """(buckets [(le, cumulative count)], sum, count) of a histogram."""
    b = sorted(((float(re.search(r'le="([^"]+)"', k[1]).group(1)), val)
                for k, val in s.items() if k[0] == name + "_bucket"))
    return b, v(s, name + "_sum"), v(s, name + "_count")


last_send = [0.0]


def paced_send(ws, frame):
    """At most 16 frames a second: the server takes 20 (rate_limited beyond,
    and a refused frame is not a move received)."""
    wait = last_send[0] + 0.0625 - time.time()
    if wait > 0:
        time.sleep(wait)
    ws.send(frame)
    last_send[0] = time.time()


try:
    # ---- 1. the token, on both addresses ------------------------------------
    for port, what in ((P, "the main port"), (MPORT, "the separate address")):
        st, text, h = scrape(port, token=None)
        check(st == 401 and h.get("www-authenticate", "").startswith("Bearer"),
              f"{what}: no token: 401 with WWW-Authenticate: Bearer ({st} {h})")
        st, text, h = scrape(port, token=TOKEN[:-1] + ("0" if TOKEN[-1] != "0" else "1"))
        check(st == 401, f"{what}: a wrong token: 401 ({st})")
        st, text, h = scrape(port, token=TOKEN + "x")
        check(st == 401, f"{what}: the token with more after it: 401 ({st})")
        good(port, what)
    st, _, _ = http_call(MPORT, "GET", "/api/health")
    check(st == 404, f"the separate address serves only /metrics: /api/health {st}")
    st, _, _ = http_call(MPORT, "POST", "/metrics", body={})
    check(st == 405, f"the separate address: a POST is 405 ({st})")
    check(TOKEN not in srv.log_text(), "the token is never in the server's log")

    # ---- 2. a game between two scrapes ----------------------------------------
    before_text = good(P, "the main port")
    promtool(before_text, "the live text before the game")
    b = parse(before_text)
    check(v(b, "chartered_build_info", "") == 0 and
          any(k[0] == "chartered_build_info" and 'version="' in k[1] and val == 1
              for k, val in b.items()), "chartered_build_info{version=...} 1")
    started = v(b, "chartered_start_time_seconds")
    check(time.time() - 120 < started <= time.time() + 1,
          f"chartered_start_time_seconds is the server's start: {started}")

    cookie = guest(P)
    st, created, _ = http_call(P, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2, "seed": 7,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}, cookie=cookie)
    check(st == 201, f"a game of a person and a bot: {st} {created}")
    gid = created["id"]
    seat = next(s for s in created["seats"] if s["kind"] == "human")
    ws = WS("127.0.0.1", P, cookie=cookie)
    ws.delta_checks = False  # one connection: the count of connections is exact
    ws.send({"type": "move", "move": "pass", "decision": 0})  # before any join: no_game
    sent = 1
    errors = {}
    m = ws.recv(timeout=20)
    check(m.get("type") == "error" and m.get("code") == "no_game", f"a move before a join: {m}")
    errors["no_game"] = 1
    join = {"type": "join", "game": gid, "lang": "en"}
    if seat.get("token"):  # the creator's own seat needs none (its session)
        join["token"] = seat["token"]
    ws.send(join)
    rng = random.Random(5)
    illegal_sent = False
    final = None
    mid = None  # a scrape while connected
    deadline = time.time() + 60
    while time.time() < deadline:
        m = ws.recv(timeout=30)
        if m["type"] == "error":
            errors[m["code"]] = errors.get(m["code"], 0) + 1
            check(m["code"] in ("illegal_move", "stale") or
                  (m["code"] == "not_your_turn" and "over" in m.get("message", "")),
                  f"an expected refusal: {m}")
            continue
        if m["type"] != "state":
            continue
        if m["status"] == "over":
            final = m
            break
        if not m.get("legal"):
            continue
        if not illegal_sent:
            paced_send(ws, {"type": "move", "move": "frobnicate the canal",
                            "decision": m["decision"]})
            sent += 1
            illegal_sent = True
            if mid is None:
                mid = parse(good(P, "the main port, while connected"))
        paced_send(ws, {"type": "move", "move": pick_move(m["legal"], rng),
                        "decision": m["decision"]})
        sent += 1
    check(final is not None, "the game ended within 60 s")
    # the last error frames, if any, come before the frame of the end
    ws.close()
    time.sleep(0.4)  # the separate address reads the loop's gauges of its tick (250 ms)
    after_text = good(MPORT, "the separate address")
    promtool(after_text, "the live text after the game (separate address)")
    main_after = good(P, "the main port")
    promtool(main_after, "the live text after the game (main port)")
    a = parse(after_text)

    def d(name, labels=""):
        return v(a, name, labels) - v(b, name, labels)

    decisions = final["decision"] if final else -1
    refused = {r: d("chartered_moves_refused_total", f'{{reason="{r}"}}')
               for r in ("illegal", "stale", "not_your_turn", "not_started", "no_game",
                         "unavailable")}
    want_refused = {"illegal": errors.get("illegal_move", 0), "stale": errors.get("stale", 0),
                    "not_your_turn": errors.get("not_your_turn", 0), "not_started": 0,
                    "no_game": errors.get("no_game", 0), "unavailable": 0}
    check(refused == want_refused, f"refusals by reason as the client was told: {refused} "
          f"(errors {errors})")
    check(errors.get("illegal_move", 0) >= 1, "the illegal move was refused")
    rp = d("chartered_moves_received_total", '{source="player"}')
    rb = d("chartered_moves_received_total", '{source="bot"}')
    ack = d("chartered_moves_acknowledged_total")
    check(rp == sent, f"the person's moves received = frames sent: {rp} {sent}")
    check(ack == decisions, f"moves acknowledged = the game's decisions: {ack} {decisions}")
    check(rp + rb - sum(refused.values()) == ack,
          f"received - refused = acknowledged: {rp} + {rb} - {sum(refused.values())} = {ack}")
    check(rb >= 1, f"the bot's moves are counted: {rb}")
    buckets, hsum, hcount = hist(a, "chartered_commit_latency_seconds")
    bb, bsum, bcount = hist(b, "chartered_commit_latency_seconds")
    check(hcount - bcount == ack, f"the commit latency counted each acknowledged move once: "
          f"{hcount - bcount} {ack}")
    check(hsum > bsum, f"the commit latency's sum grew: {bsum} -> {hsum}")
    check(buckets and buckets[-1][0] == float("inf") and buckets[-1][1] == hcount and
          all(x[1] <= y[1] for x, y in zip(buckets, buckets[1:])),
          f"the buckets are cumulative and end at +Inf = _count: {buckets}")
    commits = d("chartered_commits_total")
    check(1 <= commits <= ack, f"commits: at least one, at most one per move: {commits} ({ack})")
    check(d("chartered_commit_failures_total") == 0 and
          d("chartered_moves_rolled_back_total") == 0, "no failed commit")
    for c in ("error", "conflict", "lost"):
        check(d("chartered_database_errors_total", f'{{class="{c}"}}') == 0,
              f"no database error of class {c}")
    _, _, wcount = hist(a, "chartered_bot_wait_seconds")
    _, _, wcount0 = hist(b, "chartered_bot_wait_seconds")
    check(wcount - wcount0 >= rb, f"a bot wait for each bot move at least: {wcount - wcount0} {rb}")
    check(v(a, "chartered_bot_queue_depth") >= 0, "the bot queue's depth is not negative")
    check(d("chartered_websocket_connections_opened_total") == 1,
          f"one WebSocket connection opened: {d('chartered_websocket_connections_opened_total')}")
    check(mid is not None and v(mid, "chartered_websocket_connections") == 1,
          f"the WebSocket gauge while connected: {mid and v(mid, 'chartered_websocket_connections')}")
    check(v(a, "chartered_websocket_connections") == 0, "and 0 after it closed")
    over = d("chartered_games_in_memory", '{state="over"}')
    check(over == 1, f"one more finished game in memory: {over}")
    check(v(a, "chartered_moves_pending") == 0, "no move pending after the game")
    check(d("chartered_http_requests_total", '{code="2xx"}') >= 3,
          "HTTP answers counted by class (guest 201, game 201, scrapes 200)")
    check(d("chartered_http_requests_total", '{code="4xx"}') >= 0, "4xx not negative")
    check(d("chartered_event_loop_lag_seconds_count") >= 1, "the loop's lag is measured")
    check("chartered_mail_queue_depth" not in after_text, "no mail queue without --smtp")
    check(not any("node=" in k[1] for k in a if k[0] != "chartered_build_info"),
          "a single server puts no node label on its series")

    # ---- on PostgreSQL: a lost link is counted, and so is the reconnection ----
    if pg_mode():
        sql_exec(db, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                 "datname = current_database() AND pid <> pg_backend_pid()")
        lost = rec = 0
        made = 0
        deadline = time.time() + 30
        while time.time() < deadline and not (lost >= 1 and rec >= 1 and made):
            st, _, _ = http_call(P, "POST", "/api/games", {
                "edition": "amsterdam", "players": 2,
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}, cookie=cookie)
            made += st == 201
            s2 = parse(good(P, "the main port after the link was cut"))
            lost = v(s2, "chartered_database_errors_total", '{class="lost"}') - \
                v(a, "chartered_database_errors_total", '{class="lost"}')
            rec = v(s2, "chartered_database_reconnects_total") - \
                v(a, "chartered_database_reconnects_total")
            time.sleep(0.3)
        check(lost >= 1 and rec >= 1 and made,
              f"PostgreSQL's connections cut: lost links counted ({lost}), reconnections "
              f"({rec}), a game made again ({made})")
finally:
    srv.stop()

# ---- 3. no token: the separate address only ------------------------------------
MPORT2 = free_port()
srv2 = Server(BIN, os.path.join(WORK, "metrics2.db"),
              extra=["--metrics-listen", f"127.0.0.1:{MPORT2}"]).start()
try:
    st, text, h = scrape(MPORT2, token=None)
    check(st == 200 and "chartered_moves_acknowledged_total" in text,
          f"without a token file the separate address answers without one: {st}")
    promtool(text, "the separate address without a token")
    st, _, _ = scrape(srv2.port, token=None)
    check(st == 404, f"without a token file the main port's /metrics is 404: {st}")
    st, _, _ = scrape(srv2.port, token="anything-at-all-123")
    check(st == 404, f"whatever the token: {st}")
finally:
    srv2.stop()

# ---- a cluster node (PostgreSQL): its name on every series --------------------
if pg_mode():
    MPORT3 = free_port()
    srv3 = Server(BIN, db, extra=["--cluster", "on", "--node", "metrics-a",
                                  "--metrics-listen", f"127.0.0.1:{MPORT3}"]).start()
    try:
        st, text, _ = scrape(MPORT3, token=None)
        s3 = parse(text)
        check(st == 200 and s3 and all('node="metrics-a"' in k[1] for k in s3),
              f"a cluster node puts node=\"metrics-a\" on every series: {st} "
              f"{[k for k in s3 if 'node=' not in k[1]][:3]}")
        promtool(text, "a cluster node's text")
    finally:
        srv3.stop()

# a bad address or token file stops the start
bad = subprocess.run([BIN, "serve", "--port", "0", "--db", os.path.join(WORK, "b.db"),
                      "--metrics-listen", "nohostport"], capture_output=True, text=True,
                     timeout=30)
check(bad.returncode == 2 and "metrics-listen must be HOST:PORT" in bad.stderr,
      f"a bad --metrics-listen: {bad.returncode} {bad.stderr}")
short = os.path.join(WORK, "short.token")
with open(short, "w") as f:
    f.write("tooshort\n")
bad = subprocess.run([BIN, "serve", "--port", "0", "--db", os.path.join(WORK, "b.db"),
                      "--metrics-token-file", short], capture_output=True, text=True, timeout=30)
check(bad.returncode != 0 and "must hold one token" in bad.stderr and "tooshort" not in bad.stderr,
      f"a short token is refused without being shown: {bad.returncode} {bad.stderr}")

finish(f"server_metrics: token refused on both addresses, promtool passes, a game of "
       f"{decisions} moves counted exactly ({int(rp)} from the person, {int(rb)} from the bot, "
       f"{int(commits)} commits)")
