"""server_logs.py: the server's one log (issue 35, item 3; net/log.c,
docs/deploy.md "Logs"), in each format of --log-format, with --access-log:

- a sign-up, logins with a wrong password (and with a password typed into
  the name field), attempts past the limit, a password reset with a made-up
  token, an unsubscribe link with a token in its path, a request with a
  token in its query, a WebSocket game of two guests, a game of bots played
  to its end, every session of the account ended;
- then the whole log (standard error) holds none of the secrets: the
  passwords, the session tokens (the cookies' values, the cookie's name),
  the seats' tokens, the made-up tokens;
- every line is one record: json parses, with time, level and event; logfmt
  has time=, level=, event=; text starts with the time, the level and the
  event; the time is RFC 3339 in UTC with milliseconds;
- the events are there: server.listening, login.failed (the account's name,
  never a name that is none), login.locked, game.created, game.ended (with
  its result), session.revoked, http.request lines (the path without its
  query, the token segment as ***, the status, bytes, ms, addr), also for
  the 414, 431 and 408 the raw guard writes itself (no header value);
- the start line is on standard output too;
- kill -9 right after a game is created (the 201 read): its game.created
  line is in the file, and the file ends with a whole line;
- libpq's connection error (its lines) is one record.

Under CHARTERED_TEST_PG=1 (pg_server_logs) the database is PostgreSQL.

usage: python3 server_logs.py BINARY SRCDIR WORKDIR
"""
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from seats import Table  # noqa: E402
from wsclient import (Server, http_call, http_json, session_cookie, raw_status, check,  # noqa: E402
                      finish, test_args)

BIN, SRC, WORK = test_args()
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
LEVELS = {"debug", "info", "warn", "error"}


def logfmt(line):
    """A logfmt line as a dict (bare values, and quoted ones with \\ escapes)."""
    out, i, n = {}, 0, len(line)
    while i < n:
        while i < n and line[i] == " ":
            i += 1
        m = re.match(r"([a-z_][a-z0-9_.]*)=", line[i:])
        if not m:
            raise ValueError(f"no key at {i}: {line[i:i + 20]!r}")
        key = m.group(1)
        i += m.end()
        if i < n and line[i] == '"':
            i += 1
            val = []
            while i < n and line[i] != '"':
                if line[i] == "\\":
                    i += 1
                    c = line[i]
                    if c == "u":
                        val.append(chr(int(line[i + 1:i + 5], 16)))
                        i += 4
                    else:
                        val.append({"n": "\n", "r": "\r", "t": "\t"}.get(c, c))
                else:
                    val.append(line[i])
                i += 1
            if i >= n:
                raise ValueError("an unclosed quote")
            i += 1
            out[key] = "".join(val)
        else:
            j = line.find(" ", i)
            j = n if j < 0 else j
            out[key] = line[i:j]
            i = j
    return out


TEXT = re.compile(r"^(\S+) (debug|info|warn|error) ([a-z_][a-z0-9_.]*)(?:: (.*?))?"
                  r"((?: [a-z_][a-z0-9_.]*=(?:\"(?:[^\"\\]|\\.)*\"|\S+))*)$")


def records(fmt, text):
    """Every line of the log as (event, level, fields, raw line); a line that
    is not a record of the format fails the test."""
    out = []
    for raw in text.splitlines():
        if fmt == "json":
            try:
                r = json.loads(raw)
            except ValueError as e:
                check(False, f"json: a line does not parse ({e}): {raw[:200]!r}")
                continue
        elif fmt == "logfmt":
            try:
                r = logfmt(raw)
            except ValueError as e:
                check(False, f"logfmt: a line does not parse ({e}): {raw[:200]!r}")
                continue
        else:
            m = TEXT.match(raw)
            if not m:
                check(False, f"text: a line is not TIME LEVEL EVENT[: MESSAGE] FIELDS: "
                      f"{raw[:200]!r}")
                continue
            r = {"time": m.group(1), "level": m.group(2), "event": m.group(3),
                 "msg": m.group(4) or ""}
            r.update(logfmt(m.group(5).strip()) if m.group(5).strip() else {})
        ok = TIME.match(str(r.get("time", ""))) and r.get("level") in LEVELS and r.get("event")
        check(bool(ok), f"{fmt}: time (RFC 3339, UTC, ms), level and event: {raw[:200]!r}")
        out.append((r.get("event"), r.get("level"), r, raw))
    return out


def scenario(fmt):
    tag = f"[{fmt}]"
    db = os.path.join(WORK, f"logs-{fmt}.db")
    # --quiet=no after Server's own --quiet: the info lines too; one user
    # name: 3 attempts in 10 minutes
    srv = Server(BIN, db, extra=["--quiet=no", "--log-format", fmt, "--access-log",
                                 "--auth-limits", "3,200,200,50"])
    if fmt == "json":  # the raw guard's 408 once, soon (net/rawguard.c)
        os.environ["CHARTERED_REQUEST_SECONDS"] = "1"
    srv.start()
    os.environ.pop("CHARTERED_REQUEST_SECONDS", None)
    secrets = {}
    try:
        pw = "Correct-Horse-7731"
        secrets["password"] = pw
        st, r, h = http_call(srv.port, "POST", "/api/signup", {"name": "logtester", "password": pw})
        check(st == 201, f"{tag} sign-up: {st} {r}")
        cookie = session_cookie(h)
        secrets["session cookie (sign-up)"] = cookie.split("=", 1)[1]
        # a good login: another session
        st, r, h = http_call(srv.port, "POST", "/api/login", {"name": "LogTester", "password": pw})
        check(st == 200, f"{tag} login: {st} {r}")
        secrets["session cookie (login)"] = session_cookie(h).split("=", 1)[1]
        # a wrong password, then a password typed into the name field
        wrong = "Wrong-Battery-9920"
        secrets["wrong password"] = wrong
        st, r = http_json(srv.port, "POST", "/api/login", {"name": "logtester", "password": wrong})
        check(st == 401, f"{tag} a wrong password: {st} {r}")
        pw_as_name = "Staple-4411-pw"
        secrets["a password in the name field"] = pw_as_name
        st, r = http_json(srv.port, "POST", "/api/login", {"name": pw_as_name, "password": wrong})
        check(st == 401, f"{tag} no such name: {st} {r}")
        # past the limit of 3 attempts on the name from this address
        codes = [http_json(srv.port, "POST", "/api/login",
                           {"name": "logtester", "password": wrong + str(i)})[0] for i in range(3)]
        check(429 in codes, f"{tag} attempts past the limit are refused: {codes}")
        # a password reset with a made-up token, an unsubscribe link's token
        fake = "%032x" % random.Random(fmt).getrandbits(128)
        secrets["reset token"] = fake
        newpw = "New-Staple-5512"
        secrets["new password"] = newpw
        st, r = http_json(srv.port, "POST", "/api/password/reset",
                          {"token": fake, "password": newpw})
        check(st in (400, 404, 410), f"{tag} a made-up reset token is refused: {st} {r}")
        unsub = "%032x" % random.Random(fmt + "u").getrandbits(128)
        secrets["unsubscribe token"] = unsub
        st, r = http_json(srv.port, "POST", "/api/unsubscribe/" + unsub, raw="")
        check(st >= 400, f"{tag} a made-up unsubscribe link is refused: {st} {r}")
        qsecret = "q%030x" % random.Random(fmt + "q").getrandbits(120)
        secrets["query token"] = qsecret
        st, r = http_json(srv.port, "GET", "/api/health?token=" + qsecret)
        check(st == 200, f"{tag} health: {st}")
        # a WebSocket game of two guests
        rng = random.Random(5)
        T = Table(srv, db, rng)
        st, g = http_json(srv.port, "POST", "/api/games", {
            "edition": "amsterdam", "players": 2,
            "seats": [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]})
        check(st == 201, f"{tag} a game: {st} {g}")
        toks = [s["token"] for s in g["seats"]]
        for i, t in enumerate(toks):
            secrets[f"seat token {i}"] = t
        seats = [T.seat(g["id"], i, t) for i, t in enumerate(toks)]
        for s in seats:
            s.until(lambda m: m["type"] == "state" and m["status"] == "playing")
        T.play(seats, 6)
        check(T.acked >= 6, f"{tag} moves over the WebSocket: {T.acked}")
        for i, c in enumerate(srv.token_cookies.values()):
            secrets[f"guest cookie {i}"] = c.split("=", 1)[1]
        for s in seats:
            s.ws.close()
        # a game of bots, to its end
        st, b = http_json(srv.port, "POST", "/api/games", {
            "edition": "amsterdam", "players": 2,
            "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]})
        check(st == 201, f"{tag} a game of bots: {st} {b}")
        # every session of the account ended
        st, r = http_json(srv.port, "POST", "/api/sessions/end", {"all": True}, cookie=cookie)
        check(st == 200, f"{tag} sessions ended: {st} {r}")
        deadline = time.time() + 60
        while time.time() < deadline and f"{b['id']}" not in "".join(
                l for l in srv.log_text().splitlines() if "game.ended" in l):
            time.sleep(0.2)
        # answers the raw guard writes itself (net/rawguard.c) have their
        # access line too, without the query or any header's value
        rtok = "r%030x" % random.Random(fmt + "r").getrandbits(120)
        hval = "H%030x" % random.Random(fmt + "h").getrandbits(120)
        secrets["a raw request's query token"] = rtok
        secrets["a header's value"] = hval
        many = "&".join(f"a{i}=1" for i in range(40))
        st414 = raw_status(srv.port, f"GET /api/raw414?token={rtok}&{many} HTTP/1.1\r\n"
                           f"Host: x\r\n\r\n".encode())
        st431 = raw_status(srv.port, b"GET /api/raw431/" + unsub.encode() + b" HTTP/1.1\r\n" +
                           b"".join(b"X-Line-%d: %s\r\n" % (i, hval.encode()) for i in range(60)) +
                           b"\r\n")
        check(st414.startswith("HTTP/1.1 414") and st431.startswith("HTTP/1.1 431"),
              f"{tag} the raw guard's answers: {st414!r} {st431!r}")
        if fmt == "json":
            st408 = raw_status(srv.port, b"POST /api/raw408 HTTP/1.1\r\nHost: x\r\n"
                               b"Content-Length: 10\r\n\r\nab", wait=10)
            check(st408.startswith("HTTP/1.1 408"), f"{tag} a body that stops: {st408!r}")
        # kill -9 right after a game is created: its line is in the file
        st, k = http_json(srv.port, "POST", "/api/games", {"edition": "golden-age",
                                                            "players": 3})
        check(st == 201, f"{tag} the last game: {st} {k}")
        srv.proc.send_signal(signal.SIGKILL)
        srv.proc.wait(timeout=30)
        srv.proc = None
    finally:
        if srv.proc:
            srv.stop(kill=True)
    text = srv.log_text()
    check(text.endswith("\n"), f"{tag} the log ends with a whole line after kill -9: "
          f"{text[-120:]!r}")
    recs = records(fmt, text)
    events = {}
    for ev, level, r, raw in recs:
        events.setdefault(ev, []).append(r)
    for name, value in secrets.items():
        check(value not in text, f"{tag} the {name} is not in the log")
    check("chartered_session" not in text, f"{tag} no cookie in the log")
    check("listening" in " ".join(events), f"{tag} the start line: {sorted(events)}")
    lst = events.get("server.listening", [{}])[0]
    check(f"127.0.0.1:{srv.port}/" in lst.get("msg", ""), f"{tag} it says the address: {lst}")
    failed = events.get("login.failed", [])
    check(any(r.get("user") == "logtester" and r.get("addr") == "127.0.0.1" for r in failed),
          f"{tag} a failed login names the account and the address: {failed}")
    check(any(r.get("user") == "-" for r in failed),
          f"{tag} a login with no such name writes no name: {failed}")
    locked = events.get("login.locked", [])
    check(any(r.get("user") == "logtester" for r in locked),
          f"{tag} attempts past the limit: login.locked: {locked}")
    created = {r.get("game") for r in events.get("game.created", [])}
    check({g["id"], b["id"], k["id"]} <= created,
          f"{tag} game.created for each game, the last before its kill -9: {created}")
    ended = [r for r in events.get("game.ended", []) if r.get("game") == b["id"]]
    check(len(ended) == 1 and ended[0].get("result") == "finished" and ended[0].get("scores"),
          f"{tag} the game of bots ended once, with its result: {ended}")
    revoked = events.get("session.revoked", [])
    check(any(r.get("user") == "logtester" and str(r.get("sessions")) == "2" for r in revoked),
          f"{tag} session.revoked: the account's 2 sessions: {revoked}")
    acc = events.get("http.request", [])
    paths = {(r.get("method"), r.get("path"), str(r.get("status"))) for r in acc}
    check(("POST", "/api/login", "401") in paths and ("POST", "/api/signup", "201") in paths and
          ("GET", "/ws", "101") in paths and ("GET", "/api/health", "200") in paths,
          f"{tag} access lines: method, path, status: {sorted(paths)[:12]}")
    check(("POST", "/api/unsubscribe/***", "404") in paths or
          any(p == "/api/unsubscribe/***" for _, p, _ in paths),
          f"{tag} a token in a path is written ***: {sorted(paths)}")
    raw_lines = {(r.get("method"), r.get("path"), str(r.get("status"))) for r in acc
                 if "/raw4" in str(r.get("path"))}
    want = {("GET", "/api/raw414", "414"), ("GET", "/api/raw431/***", "431")}
    if fmt == "json":
        want.add(("POST", "/api/raw408", "408"))
    check(raw_lines == want, f"{tag} the raw guard's 414, 431 (and 408) have their access "
          f"lines: {sorted(raw_lines)}")
    check(all("?" not in str(r.get("path")) for r in acc), f"{tag} no query in an access line")
    check(all(set(r) >= {"bytes", "ms", "addr", "status"} for r in acc),
          f"{tag} every access line has bytes, ms, addr, status")
    if fmt == "json":
        check(all(isinstance(r.get("status"), int) for r in acc), "json: status is a number")
    with open(srv.log, "rb") as f:
        raw = f.read()
    check(b"\r" not in raw, f"{tag} no carriage return inside a line")
    return len(recs)


counts = {fmt: scenario(fmt) for fmt in ("json", "logfmt", "text")}

# libpq's connection error (two lines from libpq: the failure, then "Is the
# server running...?") is one record, whole
for fmt in ("json", "logfmt"):
    r = subprocess.run([BIN, "serve", "--host", "127.0.0.1", "--port", "0", "--log-format", fmt,
                        "--db", "postgresql://nobody@127.0.0.1:1/none"],
                       capture_output=True, text=True, timeout=60)
    recs = records(fmt, r.stderr)
    check(r.returncode == 1 and len(recs) == 1 and recs[0][0] == "server.failed" and
          "Connection refused" in recs[0][2].get("msg", "") and
          "Is the server running" in recs[0][2].get("msg", ""),
          f"[{fmt}] a PostgreSQL that cannot be reached: one line, libpq's lines joined: "
          f"{r.returncode} {r.stderr!r}")
finish("server_logs: one log format a run (json, logfmt, text), every line a record with "
       f"time, level, event ({counts}); no password, cookie or token written; the events "
       "and the access log there; a line survives kill -9")
