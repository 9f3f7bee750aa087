"""server_tutorial.py: an account's tutorial progress (issue 31 item 2;
docs/protocol.md "Tutorial progress") against `chartered serve` over real
sockets:
1. No session or a guest: 401 (a guest's progress stays in the browser).
2. Bad input: an unknown edition, a step id that is not one (empty, too
   long, other characters), an unknown field, not JSON (400); nothing is
   stored for any of them.
3. Steps done are listed by edition, sorted by id; a step done again
   changes nothing; each account sees its own only.
4. Reset forgets one edition's steps and leaves the other's.
5. The progress survives a restart (a row of tutorial_progress).

usage: python3 server_tutorial.py BINARY SRCDIR WORKDIR (CHARTERED_TEST_PG=1: PostgreSQL)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import (Server, signup, http_call, http_json, session_cookie, guest, sql_rows,  # noqa: E402
                      check, finish, test_args)

BIN, SRC, WORK = test_args()
db = os.path.join(WORK, "tutorial.db")
srv = Server(BIN, db).start()
P = srv.port


def rows():
    return int(sql_rows(db, "SELECT COUNT(*) FROM tutorial_progress")[0][0])


def done(cookie):
    st, r = http_json(P, "GET", "/api/tutorial", cookie=cookie)
    check(st == 200, f"the progress: {st} {r}")
    return r.get("done")


try:
    ann = signup(P, "ann")
    bob = signup(P, "bob")
    g = guest(P, "Visitor")
    for who, cookie in (("no session", None), ("a guest", g)):
        st, r = http_json(P, "GET", "/api/tutorial", cookie=cookie)
        check(st == 401 and "browser" in r.get("error", ""), f"{who} reads: {st} {r}")
        st, r = http_json(P, "POST", "/api/tutorial", {"edition": "amsterdam", "step": "found"},
                          cookie=cookie)
        check(st == 401, f"{who} writes: {st} {r}")
    check(done(ann) == {"amsterdam": [], "golden-age": []}, "nothing done yet")

    bad = [({"edition": "chess", "step": "found"}, "edition must be"),
           ({"edition": "amsterdam"}, "the step's id"),
           ({"edition": "amsterdam", "step": ""}, "the step's id"),
           ({"edition": "amsterdam", "step": "x" * 41}, "the step's id"),
           ({"edition": "amsterdam", "step": "Found"}, "the step's id"),
           ({"edition": "amsterdam", "step": "a'; DROP TABLE games;--"}, "the step's id"),
           ({"edition": "amsterdam", "step": 3}, "the step's id"),
           ({"edition": "amsterdam", "step": "found", "extra": 1}, "the step's id"),
           ([1, 2], "JSON object")]
    for body, want in bad:
        st, r = http_json(P, "POST", "/api/tutorial", body, cookie=ann)
        check(st == 400 and want in r.get("error", ""), f"refused {body!r:.60}: {st} {r}")
    st, r, _ = http_call(P, "POST", "/api/tutorial", raw="not json", cookie=ann)
    check(st == 400, f"not JSON: {st} {r}")
    st, r = http_json(P, "POST", "/api/tutorial/reset", {"edition": "amsterdam", "step": "x"}, cookie=ann)
    check(st == 400, f"a reset with a step: {st} {r}")
    st, r = http_json(P, "GET", "/api/tutorial/reset", cookie=ann)
    check(st == 405, f"a reset read: {st} {r}")
    check(rows() == 0, "nothing stored by the refusals")

    for ed, step in (("amsterdam", "found"), ("amsterdam", "expand"), ("golden-age", "found-shape"),
                     ("amsterdam", "found")):
        st, r = http_json(P, "POST", "/api/tutorial", {"edition": ed, "step": step}, cookie=ann)
        check(st == 200, f"ann did {ed} {step}: {st} {r}")
    check(r["done"] == {"amsterdam": ["expand", "found"], "golden-age": ["found-shape"]},
          f"listed by id, a step again changes nothing: {r}")
    check(rows() == 3, f"three rows: {rows()}")
    check(done(bob) == {"amsterdam": [], "golden-age": []}, "bob sees none of ann's")

    st, r = http_json(P, "POST", "/api/tutorial/reset", {"edition": "amsterdam"}, cookie=ann)
    check(st == 200 and r["done"] == {"amsterdam": [], "golden-age": ["found-shape"]},
          f"a reset forgets one edition: {st} {r}")
    st, r = http_json(P, "POST", "/api/tutorial", {"edition": "amsterdam", "step": "merger"}, cookie=ann)
    check(st == 200, f"ann did the merger step: {st} {r}")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code})")

srv = Server(BIN, db).start()
P = srv.port
try:
    st, r, h = http_call(P, "POST", "/api/login", {"name": "ann", "password": "ann secret pw"})
    check(st == 200, f"ann logs in after a restart: {st} {r}")
    check(done(session_cookie(h)) == {"amsterdam": ["merger"], "golden-age": ["found-shape"]},
          "the progress survives a restart")
finally:
    code = srv.stop()
    check(code == 0, f"the server exits cleanly (status {code})")

finish("server_tutorial: an account's tutorial progress: refusals, order, reset, restart")
