"""server_moderation.py: roles and moderation (issue 35 item 1;
docs/moderation.md, docs/protocol.md "Moderation") against `chartered serve`
over real sockets, with `chartered admin` on the same database while the
server runs:
1. The first admin is made by `chartered admin grant` on the live server's
   database; /api/me then says so. /api/mod/... is 401 without a session and
   403 for a player, whatever the request says.
2. Reports: a chat message reported with the lines around it; bad input
   (reason, no target, both targets, oneself, an unknown message or name, a
   guest) refused and nothing stored; the same message twice 409; at most 5
   reports in 10 minutes (429).
3. A mute: the muted player's chat is refused ("muted"), the others' is not;
   unmuted, it is accepted again.
4. A ban answering the report: the banned player's WebSocket is closed at
   once, the login is refused with the ban's end, the report is resolved with
   every other open report about the player (one about someone else stays
   open), and the audit log has the report and the ban.
5. A moderator may not act on an admin nor give roles (403).
6. From the command line on the live server: unban (the login works again),
   revoke (the new WebSocket is closed within the poll), abort (the game is
   "aborted" in memory and stored, with no result and no rating change).
7. `chartered admin audit` and `reports --status all` list it all.

usage: python3 server_moderation.py BINARY SRCDIR WORKDIR (CHARTERED_TEST_PG=1: PostgreSQL)
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, signup, WS, WSClosed, http_call, http_json, session_cookie, guest,  # noqa: E402
                      sql_rows, db_target, check, finish, test_args)

BIN, SRC, WORK = test_args()
db = os.path.join(WORK, "moderation.db")
srv = Server(BIN, db).start()
P = srv.port
PW = " long secret"


def admin(*args, ok=True):
    r = subprocess.run([BIN, "admin", "--db", db_target(db)] + list(args), capture_output=True,
                       text=True, timeout=30)
    if ok:
        check(r.returncode == 0, f"chartered admin {' '.join(args)}: {r.returncode} {r.stderr}")
    return r


def login(name):
    st, r, h = http_call(P, "POST", "/api/login", {"name": name, "password": name + PW})
    return st, r, (session_cookie(h) if st == 200 else None)


def act(cookie, **body):
    return http_json(P, "POST", "/api/mod/actions", body, cookie=cookie)


def count(table):
    return int(sql_rows(db, f"SELECT COUNT(*) FROM {table}")[0][0])


def joined(cookie, gid):
    ws = WS("127.0.0.1", P, cookie=cookie)
    ws.send({"type": "join", "game": gid})
    m = ws.recv_until(lambda m: m["type"] in ("state", "error"))
    check(m["type"] == "state", f"joined {gid}: {m}")
    return ws


def say(ws, text):
    ws.send({"type": "chat", "text": text})
    return ws.recv_until(lambda m: m["type"] == "error" or (
        m["type"] == "chat" and any(x["text"] == text for x in m["messages"])), timeout=10)


def closed(ws, secs):
    """True when the server closes ws within secs (an error frame may come first)."""
    end = time.time() + secs
    try:
        while time.time() < end:
            ws.recv(timeout=end - time.time())
    except WSClosed:
        return True
    except (TimeoutError, OSError):
        return False
    return False


try:
    mara, anna, bart = (signup(P, n, n + PW) for n in ("Mara", "anna", "bart"))

    # 1. roles: the first admin from the command line, on the live database
    st, r = http_json(P, "GET", "/api/mod/reports")
    check(st == 401, f"no session: 401 ({st} {r})")
    st, r = http_json(P, "GET", "/api/mod/reports", cookie=mara)
    check(st == 403, f"a player: 403 ({st} {r})")
    st, r = act(mara, action="ban", name="anna", reason="x")
    check(st == 403 and count("mod_audit") == 0, f"a player cannot ban: 403 ({st} {r})")
    out = admin("grant", "mara", "admin")
    check("grant Mara: admin" in out.stdout, f"the grant says so: {out.stdout}")
    r = admin("grant", "nobody", "admin", ok=False)
    check(r.returncode != 0 and "no account" in r.stderr, f"an unknown name: {r.stderr}")
    r = admin("grant", "anna", "emperor", ok=False)
    check(r.returncode != 0 and "role" in r.stderr, f"an unknown role: {r.stderr}")
    st, me = http_json(P, "GET", "/api/me", cookie=mara)
    check(me.get("role") == "admin", f"/api/me says admin at once: {me}")
    st, me = http_json(P, "GET", "/api/me", cookie=anna)
    check("role" not in me, f"a player's /api/me has no role: {me}")
    st, r = http_json(P, "GET", "/api/mod/reports", cookie=mara)
    check(st == 200 and r["reports"] == [], f"the admin reads the empty queue: {st} {r}")

    # a game of anna and bart (a challenge accepted), both at the table
    st, r = http_json(P, "POST", "/api/challenges", {"name": "bart", "edition": "amsterdam"},
                      cookie=anna)
    check(st == 201, f"anna challenges bart: {st} {r}")
    st, r = http_json(P, "POST", f"/api/challenges/{r['id']}/accept", {}, cookie=bart)
    check(st == 201, f"bart accepts: {st} {r}")
    gid = r["game"]
    wa, wb = joined(anna, gid), joined(bart, gid)
    lines = ["hello", "good luck", "you are a worthless idiot", "sorry?", "gg"]
    for i, text in enumerate(lines):
        m = say(wa if i % 2 == 0 else wb, text)
        check(m["type"] == "chat", f"chat {text!r}: {m}")
    ((bad_n,),) = sql_rows(db, f"SELECT n FROM chat WHERE game='{gid}' AND text LIKE '%idiot%'")
    bad_n = int(bad_n)

    # 2. reports
    for body, word in [({"game": gid, "n": bad_n, "reason": "rude"}, "reason"),
                       ({"reason": "abuse"}, "one of them"),
                       ({"game": gid, "n": bad_n, "name": "anna", "reason": "abuse"}, "one of them"),
                       ({"game": gid, "reason": "abuse"}, "number"),
                       ({"name": "bart", "reason": "abuse"}, "yourself"),
                       ({"name": "anna", "reason": "abuse", "details": "x" * 1200}, "too long")]:
        st, r = http_json(P, "POST", "/api/reports", body, cookie=bart)
        check(st == 400 and word in r.get("error", ""), f"{str(body)[:60]}: 400 {word} ({st} {r})")
    st, r = http_json(P, "POST", "/api/reports", {"game": gid, "n": 999, "reason": "abuse"},
                      cookie=bart)
    check(st == 404, f"an unknown message: 404 ({st} {r})")
    st, r = http_json(P, "POST", "/api/reports", {"name": "nobody", "reason": "abuse"}, cookie=bart)
    check(st == 404, f"an unknown name: 404 ({st} {r})")
    st, r = http_json(P, "POST", "/api/reports", {"name": "anna", "reason": "abuse"},
                      cookie=guest(P, "Gast"))
    check(st == 401, f"a guest cannot report: 401 ({st} {r})")
    check(count("mod_reports") == 0, "nothing stored by the refusals")
    st, r = http_json(P, "POST", "/api/reports", {"game": gid, "n": bad_n, "reason": "abuse",
                                                  "details": "insult in the table chat"},
                      cookie=bart)
    check(st == 201 and r.get("target") == "anna", f"bart reports the message: {st} {r}")
    rep = r["id"]
    st, r = http_json(P, "POST", "/api/reports", {"game": gid, "n": bad_n, "reason": "abuse"},
                      cookie=bart)
    check(st == 409, f"the same message twice: 409 ({st} {r})")
    for i in range(4):
        st, r = http_json(P, "POST", "/api/reports", {"name": "anna", "reason": "spam"}, cookie=bart)
        check(st == 201, f"report {i + 2} of 5: {st} {r}")
    st, r = http_json(P, "POST", "/api/reports", {"name": "anna", "reason": "spam"}, cookie=bart)
    check(st == 429, f"a sixth report in 10 minutes: 429 ({st} {r})")
    st, r = http_json(P, "GET", "/api/mod/reports", cookie=mara)
    q = {x["id"]: x for x in r.get("reports", [])}
    check(st == 200 and len(q) == 5, f"5 open reports in the queue: {st} {len(q)}")
    one = q.get(rep, {})
    ctx = [x["text"] for x in one.get("context", [])]
    check(one.get("message") == lines[2] and one.get("reporter") == "bart" and
          one.get("reason") == "abuse" and ctx == lines,
          f"the report with its message and the lines around it: {one}")

    # 3. a mute
    until = int(time.time() * 1000) + 3600 * 1000
    st, r = act(mara, action="mute", name="anna", reason="insults", until=until)
    check(st == 200 and r.get("target") == "anna", f"mara mutes anna: {st} {r}")
    m = say(wa, "can I still talk")
    check(m["type"] == "error" and m.get("code") == "muted" and "UTC" in m.get("message", ""),
          f"anna's chat is refused, with the end: {m}")
    m = say(wb, "quiet now")
    check(m["type"] == "chat", f"bart still chats: {m}")
    st, r = act(mara, action="unmute", name="anna", reason="one more chance")
    check(st == 200, f"unmuted: {st} {r}")
    m = say(wa, "thanks")
    check(m["type"] == "chat", f"anna chats again: {m}")
    st, r = act(mara, action="unmute", name="anna", reason="again")
    check(st == 409, f"unmute of an account not muted: 409 ({st} {r})")

    # 4. a ban answering the report (and the other open ones about anna, not
    # one about someone else)
    st, r = http_json(P, "POST", "/api/reports", {"name": "bart", "reason": "other",
                                                  "details": "not about anna"}, cookie=mara)
    check(st == 201, f"mara reports bart: {st} {r}")
    other = r.get("id")
    st, r = act(mara, action="ban", name="anna", reason="", until=until)
    check(st == 400 and "reason" in r.get("error", ""), f"a ban needs a reason: {st} {r}")
    st, r = act(mara, action="ban", name="anna", reason="insults", until=until - 5000000)
    check(st == 400 and "future" in r.get("error", ""), f"an end in the past: {st} {r}")
    st, r = act(mara, action="ban", name="anna", reason="insults after a warning", until=until,
                report=rep)
    check(st == 200 and r.get("sessions_ended") == 1 and r.get("reports_closed") == 4,
          f"mara bans anna, which closes the 4 other open reports about her: {st} {r}")
    check(closed(wa, 5), "anna's WebSocket is closed at once")
    st, r, _ = login("anna")
    check(st == 403 and r.get("code") == "banned" and "UTC" in r.get("error", "") and
          r.get("until") == until, f"anna's login is refused with the end: {st} {r}")
    st, r = http_json(P, "GET", "/api/me", cookie=anna)
    check(r.get("kind") == "none", f"anna's old session is gone: {r}")
    st, r = http_json(P, "GET", "/api/mod/reports/resolved", cookie=mara)
    res = {x["id"]: x.get("resolution") for x in r.get("reports", [])}
    check(set(res) == set(q) and rep in res and res[rep] == "ban" and
          all(v == f"ban (report {rep})" for k, v in res.items() if k != rep) and
          all(x.get("handled_by") == "Mara" for x in r["reports"]),
          f"every report about anna is resolved by Mara, naming the ban: {res}")
    st, r = http_json(P, "GET", "/api/mod/reports", cookie=mara)
    check([x["id"] for x in r.get("reports", [])] == [other],
          f"the report about bart stays open: {[x['id'] for x in r.get('reports', [])]}")
    st, r = http_json(P, "GET", "/api/mod/audit", cookie=mara)
    acts = [(x["action"], x.get("target"), x["actor"]) for x in r.get("audit", [])]
    check(("report", "anna", "bart") in acts and ("ban", "anna", "Mara") in acts,
          f"the audit log has the report and the ban: {acts}")
    st, r = http_json(P, "GET", "/api/mod/sanctions", cookie=mara)
    check([(x["name"], x["kind"], x["until"]) for x in r.get("sanctions", [])] ==
          [("anna", "ban", until)], f"the ban is in force: {r}")

    # 5. a moderator's limits
    st, r = act(mara, action="grant", name="bart", role="moderator", reason="helps out")
    check(st == 200, f"mara makes bart a moderator: {st} {r}")
    st, r = act(bart, action="ban", name="Mara", reason="coup")
    check(st == 403, f"a moderator cannot ban an admin: {st} {r}")
    st, r = act(bart, action="grant", name="bart", role="admin", reason="more")
    check(st == 403, f"a moderator gives no role: {st} {r}")
    st, r = http_json(P, "GET", "/api/mod/audit", cookie=bart)
    check(st == 200, f"a moderator reads the audit log: {st}")

    # 6. the command line on the live server
    out = admin("unban", "anna", "--reason", "appeal accepted")
    st, r, anna = login("anna")
    check(st == 200, f"unbanned from the command line: anna logs in ({st} {r})")
    wa = joined(anna, gid)
    admin("revoke", "anna", "--reason", "session stolen")
    t0 = time.time()
    check(closed(wa, 5), f"the server closes the revoked session's WebSocket "
          f"({time.time() - t0:.1f} s)")
    st, r = http_json(P, "GET", "/api/me", cookie=anna)
    check(r.get("kind") == "none", f"the revoked session is gone: {r}")
    before = sql_rows(db, "SELECT COUNT(*) FROM ratings")[0][0]
    r = admin("abort", "0000000000000000", "--reason", "x", ok=False)
    check(r.returncode != 0 and "no such game" in r.stderr, f"an unknown game: {r.stderr}")
    admin("abort", gid, "--reason", "stuck game")
    status = None
    for _ in range(50):
        st, s = http_json(P, "GET", f"/api/games/{gid}")
        status = s.get("status")
        if status == "aborted":
            break
        time.sleep(0.1)
    check(status == "aborted", f"the server ends the game it holds: {status}")
    m = wb.recv_until(lambda m: m["type"] == "state" and m.get("status") == "aborted", timeout=5)
    check(m.get("status") == "aborted", "bart's table says aborted")
    time.sleep(0.5)
    ((stored,),) = sql_rows(db, f"SELECT status FROM games WHERE id='{gid}'")
    check(stored == "aborted", f"stored as aborted: {stored}")
    check(sql_rows(db, f"SELECT COUNT(*) FROM results WHERE game='{gid}'")[0][0] in (0, "0") and
          sql_rows(db, "SELECT COUNT(*) FROM ratings")[0][0] == before,
          "no result and no rating change")
    r = admin("abort", gid, "--reason", "again", ok=False)
    check(r.returncode != 0 and "not in play" in r.stderr, f"aborted twice: {r.stderr}")

    # 7. the lists from the command line
    out = json.loads(admin("audit", "--json").stdout)
    acts = [x["action"] for x in reversed(out)]
    check(acts == ["grant", "report", "report", "report", "report", "report", "mute", "unmute",
                   "report", "ban", "grant", "unban", "revoke", "abort"],
          f"the audit log in order: {acts}")
    check(all(x.get("reason") for x in out), "every row has its reason")
    out = admin("reports", "--status", "all").stdout
    check(out.count("\n") == 6 and "resolved" in out and "idiot" in out,
          f"reports --status all: {out}")
    wb.close()
finally:
    srv.stop()

finish("server_moderation")
