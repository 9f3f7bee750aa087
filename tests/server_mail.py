"""server_mail.py: e-mail from `chartered serve` through a real SMTP server
on loopback (issue 32, "E-mail"; Debian's aiosmtpd, tests/support/smtpsink.py):
1. Bad requests: an address that could break a header, no session, a guest.
2. An address set (Dutch) gets its confirmation link, in Dutch, pointing at
   --public-url; the link works once; the token is not stored in clear.
3. A forgotten password: the same answer for a known name, an unknown one and
   one without an address; one message, to the confirmed address only, with
   --public-url even when the request's Host is forged; the reset ends every
   session, the old password stops working, the new one works, the link
   works once.
4. "Your turn" in a turn-based game: a message when it becomes a person's
   turn, with a one-click unsubscribe (List-Unsubscribe, RFC 8058); not a
   second one for the same game the same day; after the one-click POST, no
   more.
4b. A challenge by name: a message to the challenged person, in their
   language (Dutch), with the edition, the pace, the lobby's link and a
   one-click unsubscribe; none to someone without a confirmed address.
5. The relay down: setting an address answers at once, moves are
   acknowledged at once, the message waits in the queue (nothing lost) and
   goes when the relay is back.
6. No token or password in the server's log.

usage: python3 server_mail.py BINARY SRCDIR WORKDIR (CHARTERED_TEST_PG=1: PostgreSQL)
"""
import base64
import email
import email.header
import email.policy
import os
import random
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, http_call, http_json, session_cookie, guest, sql_rows,  # noqa: E402
                      free_port, check, finish, test_args, pick_move)

BIN, SRC, WORK = test_args()
PY = "/usr/bin/python3"  # Debian's interpreter, which has python3-aiosmtpd
try:
    subprocess.run([PY, "-c", "import aiosmtpd"], check=True, capture_output=True)
except (OSError, subprocess.CalledProcessError):
    print("SKIP: Debian's python3-aiosmtpd is missing (scripts/install-deps.sh installs it)")
    sys.exit(77)

MAILDIR = os.path.join(WORK, "mail")
SMTP_PORT = free_port()
PUBLIC = "http://chartered.test:8080"


class Sink:
    def __init__(self):
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([PY, os.path.join(SRC, "tests", "support", "smtpsink.py"),
                                      str(SMTP_PORT), MAILDIR], stdout=subprocess.PIPE)
        check(self.proc.stdout.readline().strip() == b"ready", "the SMTP server starts")

    def stop(self):
        if self.proc:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


def messages():
    if not os.path.isdir(MAILDIR):
        return []
    out = []
    for f in sorted((f for f in os.listdir(MAILDIR) if f.endswith(".eml")),
                    key=lambda f: int(f.split(".")[0])):
        out.append(email.message_from_bytes(open(os.path.join(MAILDIR, f), "rb").read(),
                                            policy=email.policy.default))
    return out


def to(addr):
    return [m for m in messages() if addr in m["X-Rcpt"]]


def wait_mail(addr, n, what, secs=30):
    end = time.time() + secs
    while time.time() < end:
        got = to(addr)
        if len(got) >= n:
            return got[n - 1]
        time.sleep(0.1)
    check(False, f"{what}: no message {n} to {addr} within {secs} s")
    return None


def body(m):
    return m.get_content() if m else ""


def link_token(m, route):
    g = re.search(re.escape(PUBLIC) + r"/#/" + route + r"/([0-9a-f]{64})", body(m))
    return g.group(1) if g else None


db = os.path.join(WORK, "mail.db")
for f in (db, db + "-wal", db + "-shm"):
    if os.path.exists(f):
        os.remove(f)
os.environ["CHARTERED_TURN_MAIL_DELAY_SECONDS"] = "0"
os.environ["CHARTERED_MAIL_SCAN_SECONDS"] = "0.3"
os.environ["CHARTERED_MAIL_RETRY_SECONDS"] = "0.3"
sink = Sink()
sink.start()
srv = Server(BIN, db, extra=["--smtp", f"smtp://127.0.0.1:{SMTP_PORT}", "--public-url", PUBLIC,
                             "--mail-from", "game@chartered.test"]).start()
P = srv.port
rng = random.Random(32)
secrets = []
try:
    def signup(name):
        pw = f"{name} secret pw"
        st, r, h = http_call(P, "POST", "/api/signup", {"name": name, "password": pw})
        check(st == 201, f"{name} signs up: {st} {r}")
        secrets.append(pw)
        return session_cookie(h)

    anke, bram = signup("anke"), signup("bram")

    # 1. bad requests
    st, r = http_json(P, "GET", "/api/email", cookie=anke)
    check(st == 200 and r == {"enabled": True, "address": None}, f"no address yet: {st} {r}")
    for addr in ["anke@example.org\r\nBcc: all@example.org", "no at sign", "a@b", "<a@b.org>",
                 "x" * 250 + "@example.org", 42]:
        st, r = http_json(P, "POST", "/api/email", {"address": addr}, cookie=anke)
        check(st == 400 and "address" in r.get("error", ""), f"address {addr!r} refused: {st} {r}")
    st, r = http_json(P, "POST", "/api/email", {"address": "x@example.org"})
    check(st == 401, f"no session: {st} {r}")
    st, r = http_json(P, "POST", "/api/email", {"address": "x@example.org"}, cookie=guest(P, "Gast"))
    check(st == 401, f"a guest has no address: {st} {r}")
    st, r = http_json(P, "POST", "/api/email/prefs", {"turn_mail": True}, cookie=anke)
    check(st == 404, f"switches without an address: {st} {r}")

    # 2. an address, confirmed by its link (in Dutch)
    st, r = http_json(P, "POST", "/api/email", {"address": "anke@example.org", "lang": "nl"},
                      cookie=anke)
    check(st == 202 and r == {"address": "anke@example.org", "confirmed": False}, f"set: {st} {r}")
    m = wait_mail("anke@example.org", 1, "the confirmation")
    check(m is not None and m["Subject"] == "Bevestig je e-mailadres voor Chartered"
          and "Hallo anke" in body(m), f"in Dutch: {m and m['Subject']}")
    check(m is not None and m["From"].addresses[0].addr_spec == "game@chartered.test",
          f"from --mail-from: {m and m['From']}")
    tok = link_token(m, "email/confirm")
    check(tok is not None, f"a link to --public-url: {body(m)}")
    secrets.append(tok or "no token")
    # the link's token is kept only as its hash; the message's text (with the
    # link) is erased from the queue once the relay has it
    rows = sql_rows(db, "SELECT hash FROM mail_tokens")
    check(tok is not None and rows and all(r[0] != tok and len(r[0]) == 64 for r in rows),
          f"the token is stored as its hash: {rows}")
    rows = sql_rows(db, "SELECT count(*) FROM mail_queue WHERE body <> ''")
    check(rows == [["0"]], f"the message's text is erased once sent: {rows}")
    st, r = http_json(P, "POST", "/api/email/confirm", {"token": tok})
    check(st == 200, f"the link confirms: {st} {r}")
    st, r = http_json(P, "POST", "/api/email/confirm", {"token": tok})
    check(st == 400 and "does not work" in r.get("error", ""), f"once only: {st} {r}")
    st, r = http_json(P, "POST", "/api/email/confirm", {"token": "0" * 64})
    check(st == 400, f"a made-up token: {st} {r}")
    st, r = http_json(P, "GET", "/api/email", cookie=anke)
    check(r == {"enabled": True, "address": "anke@example.org", "confirmed": True,
                "turn_mail": True}, f"confirmed: {r}")

    # 3. a forgotten password
    before = len(messages())
    answers = []
    for name in ["anke", "nobody", "bram"]:
        st, r, _ = http_call(P, "POST", "/api/password/forgot", {"name": name},
                             headers={"Host": "evil.example"})
        answers.append((st, r))
    check(all(a == (202, {"accepted": True}) for a in answers),
          f"the same answer for anke, an unknown name and bram (no address): {answers}")
    m = wait_mail("anke@example.org", 2, "the reset")
    time.sleep(1)
    check(len(messages()) == before + 1, f"one message only: {len(messages()) - before}")
    tok = link_token(m, "reset")
    check(tok is not None and "evil.example" not in body(m),
          f"the link goes to --public-url, not the request's Host: {body(m)}")
    secrets.append(tok or "no token")
    st, r, h = http_call(P, "POST", "/api/login", {"name": "anke", "password": "anke secret pw"})
    anke2 = session_cookie(h)
    st, r = http_json(P, "POST", "/api/password/reset", {"token": tok, "password": "short"})
    check(st == 400, f"a short password refused: {st} {r}")
    st, r = http_json(P, "POST", "/api/password/reset", {"token": tok, "password": "anke new pw 2"})
    secrets.append("anke new pw 2")
    check(st == 200 and r.get("reset") is True and r.get("ended") == 2,
          f"the reset ends both sessions: {st} {r}")
    for c in (anke, anke2):
        st, me = http_json(P, "GET", "/api/me", cookie=c)
        check(me == {"kind": "none"}, f"a session ended: {me}")
    st, r = http_json(P, "POST", "/api/login", {"name": "anke", "password": "anke secret pw"})
    check(st == 401, f"the old password no longer works: {st}")
    st, r, h = http_call(P, "POST", "/api/login", {"name": "anke", "password": "anke new pw 2"})
    check(st == 200, f"the new one does: {st} {r}")
    anke = session_cookie(h)
    st, r = http_json(P, "POST", "/api/password/reset", {"token": tok, "password": "anke new pw 3"})
    check(st == 400, f"the reset link works once: {st} {r}")

    # 4. your turn
    st, r = http_json(P, "POST", "/api/email", {"address": "bram@example.org"}, cookie=bram)
    m = wait_mail("bram@example.org", 1, "bram's confirmation")
    st, r = http_json(P, "POST", "/api/email/confirm", {"token": link_token(m, "email/confirm")})
    check(st == 200, f"bram confirms: {st} {r}")
    secrets.append(link_token(m, "email/confirm") or "x")
    st, g = http_json(P, "POST", "/api/games", {
        "edition": "amsterdam", "players": 2, "seed": 3, "mode": "turn-based", "days": 1,
        "seats": [{"kind": "human"}, {"kind": "human"}]}, cookie=anke)
    check(st == 201, f"a turn-based game: {st} {g}")
    gid = g["id"]
    tok = {s["seat"]: s.get("token") for s in g["seats"]}  # seat 0: the creator's
    conns, last = {}, {}
    for seat, ck in ((0, anke), (1, bram)):
        c = srv.ws(ck)
        c.send({"type": "join", "game": gid, "token": tok[seat]} if tok[seat]
               else {"type": "join", "game": gid})
        last[seat] = c.recv_until(lambda x: x["type"] in ("state", "error"), timeout=30)
        check(last[seat]["type"] == "state", f"seat {seat} joins: {last[seat]}")
        conns[seat] = c

    def frame(seat, d):
        """seat's latest state frame at decision d or later."""
        ok = lambda x: x["type"] == "state" and x["decision"] >= d and x["status"] == "playing" \
            and x["deciders"]  # noqa: E731
        if not ok(last[seat]):
            last[seat] = conns[seat].recv_until(ok, timeout=30)
        return last[seat]

    def play_until(want, max_moves=80):
        """Moves (of whoever decides) until seat `want` alone decides."""
        d = max(last[0]["decision"], last[1]["decision"])
        for _ in range(max_moves):
            m = frame(0, d)
            d = m["decision"]
            if m["deciders"] == [want]:
                return m
            s = m["deciders"][0]
            mm = frame(s, d)
            if mm["decision"] != d:
                d = mm["decision"]
                continue
            t0 = time.time()
            conns[s].send({"type": "move", "move": pick_move(mm["legal"], rng), "decision": d})
            ack = conns[s].recv_until(lambda x: x["type"] == "error" or
                                      (x["type"] == "state" and x["decision"] > d), timeout=30)
            acks.append(time.time() - t0)
            check(ack["type"] == "state", f"a move is accepted: {ack}")
            last[s] = ack
            d = ack["decision"]
        check(False, f"seat {want} never decides alone")
        return None

    acks = []
    play_until(1)
    m = wait_mail("bram@example.org", 2, "bram's turn")
    check(m is not None and m["Subject"] == "Your turn in Chartered"
          and f"{PUBLIC}/#/play/{gid}" in body(m) and "1 day" in body(m),
          f"bram is told of his turn: {m and m['Subject']} {body(m)}")
    lu, lup = (m["List-Unsubscribe"] or "") if m else "", (m["List-Unsubscribe-Post"] or "") if m else ""
    g = re.match(r"<" + re.escape(PUBLIC) + r"(/api/unsubscribe/([0-9a-f]{64}))>$", lu)
    check(g is not None and lup == "List-Unsubscribe=One-Click",
          f"with a one-click unsubscribe (RFC 8058): {lu} / {lup}")
    unsub_path = g.group(1) if g else "/api/unsubscribe/none"
    secrets.append(g.group(2) if g else "x")
    # bram plays; anke's turn (she is told too); then bram's again: no
    # second message to him for this game today
    play_until(0)
    wait_mail("anke@example.org", 3, "anke's turn")
    play_until(1)
    time.sleep(1.5)
    check(len(to("bram@example.org")) == 2, f"one 'your turn' a game a day: {len(to('bram@example.org'))}")
    st, r, _ = http_call(P, "POST", unsub_path, raw="List-Unsubscribe=One-Click",
                         headers={"Content-Type": "application/x-www-form-urlencoded"})
    check(st == 200, f"the one-click unsubscribe: {st} {r}")
    st, r = http_json(P, "GET", "/api/email", cookie=bram)
    check(r.get("turn_mail") is False, f"bram's turn mail is off: {r}")
    st, r = http_json(P, "POST", "/api/email/prefs", {"turn_mail": True}, cookie=bram)
    st, r = http_json(P, "GET", "/api/email", cookie=bram)
    check(r.get("turn_mail") is True, f"and on again from the account page: {r}")

    # 4b. a challenge by e-mail: in the challenged person's language, with
    # the lobby's link and a one-click unsubscribe; none to someone without
    # a confirmed address
    n_anke = len(to("anke@example.org"))
    st, r = http_json(P, "POST", "/api/challenges", {"name": "anke", "edition": "golden-age",
                                                      "mode": "turn-based", "days": 3}, cookie=bram)
    check(st == 201, f"bram challenges anke: {st} {r}")
    m = wait_mail("anke@example.org", n_anke + 1, "the challenge's message")
    check(m is not None and "bram daagt je uit" in (m["Subject"] or "") and
          "The Golden Age" in body(m) and "3 dagen per zet" in body(m) and
          f"{PUBLIC}/#/" in body(m) and link_token(m, "unsubscribe") and
          m["List-Unsubscribe"], f"in Dutch, what, where, and the unsubscribe link: "
          f"{m and m['Subject']} {body(m)[:300]}")
    secrets.append(link_token(m, "unsubscribe") or "x")
    cees = signup("cees")
    n_all = len(messages())
    st, r = http_json(P, "POST", "/api/challenges", {"name": "cees", "edition": "amsterdam"},
                      cookie=anke)
    check(st == 201, f"anke challenges cees: {st} {r}")
    time.sleep(1.0)
    check(len(messages()) == n_all, "no message to someone without an address")
    check(cees is not None, "cees has a session")

    # 5. the relay down: nothing waits on it, nothing is lost
    sink.stop()
    t0 = time.time()
    st, r = http_json(P, "POST", "/api/email", {"address": "anke2@example.org"}, cookie=anke)
    took = time.time() - t0
    check(st == 202 and took < 2, f"an address set with the relay down answers at once ({took:.2f} s)")
    acks.clear()
    play_until(0)
    check(acks and max(acks) < 2, f"moves acknowledged at once with the relay down "
          f"(slowest {max(acks) if acks else 0:.2f} s)")
    time.sleep(1.5)
    rows = sql_rows(db, "SELECT attempts, last_error FROM mail_queue WHERE to_addr = "
                        "'anke2@example.org' AND sent IS NULL")
    check(len(rows) == 1 and int(rows[0][0]) >= 1, f"the message waits in the queue, tried: {rows}")
    sink.start()
    m = wait_mail("anke2@example.org", 1, "the message once the relay is back", secs=40)
    check(m is not None, "the message goes once the relay is back")
    rows = sql_rows(db, "SELECT count(*) FROM mail_queue WHERE sent IS NULL")
    check(rows == [["0"]], f"nothing left in the queue: {rows}")
    rows = sql_rows(db, "SELECT count(*) FROM mail_queue WHERE body <> ''")
    check(rows == [["0"]], f"sent messages' texts (and their links) are not kept: {rows}")
finally:
    srv.stop()
    sink.stop()

log = srv.log_text()
leaked = [s for s in secrets if s and s in log]
check(not leaked, f"no token or password in the server's log ({len(log)} bytes)")
finish("server_mail: addresses confirmed, passwords reset, your-turn and challenge mail with one-click "
       "unsubscribe, and a relay that is down delays mail without losing it or a move")
