"""wsclient.py: the server tests' WebSocket client and HTTP helpers: WebSocket
connections spoken by python3-websockets (Debian's package; a raw-frame
helper remains for the malformed-frame tests only), plus JSON-over-HTTP calls (with session cookies: guest(), session_cookie()) and
starting/stopping `chartered serve` on a free port,
and the bookkeeping every server test shares (arguments, checks, the verdict).

With CHARTERED_TEST_PG=1 in the environment (the pg_* CTest variants) every
server started here stores its games in PostgreSQL instead (docs/storage.md):
a private server (pgtmp.py) is started once per test process, each database
path the test names becomes a PostgreSQL database of its own (the same path,
the same database: restarts see their data), and sql_rows()/db_dump() read it
as they would read the SQLite file. Without PostgreSQL's binaries the test
exits 77 (skipped) with the reason.
"""
import atexit
import collections
import hashlib
import signal
import http.client as httpc
import json
import os
import random
import socket
import struct
import subprocess
import sys
import time

# python3-websockets (Debian): the WebSocket protocol itself. A python3 that
# is not Debian's (pyenv, say) does not see Debian's packages: look there.
try:
    import websockets  # noqa: F401
except ImportError:
    sys.path.append("/usr/lib/python3/dist-packages")
from websockets import client as ws_client
from websockets import connection as ws_connection
from websockets import frames as ws_frames
from websockets import typing as ws_typing
from websockets import uri as ws_uri

failures = []

_pg = None      # the private PostgreSQL (pgtmp.PgTmp) of a CHARTERED_TEST_PG run
_pg_dbs = set()


def pg_mode():
    return os.environ.get("CHARTERED_TEST_PG") == "1"


def _pg_server():
    global _pg
    if _pg is None:
        import pgtmp
        pgtmp.require()
        _pg = pgtmp.PgTmp()
        atexit.register(_pg.close)
        # a test stopped by CTest's timeout (SIGTERM) still stops its server
        signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
        _pg.start()
    return _pg


def _pg_name(db):
    return "t_" + hashlib.sha1(os.path.abspath(db).encode()).hexdigest()[:16]


def db_target(db):
    """What `--db` gets for the test database path db: the path, or (under
    CHARTERED_TEST_PG=1) a libpq connection string of a database of its own."""
    if not pg_mode() or "=" in db or db.startswith("postgres"):
        return db
    pg = _pg_server()
    name = _pg_name(db)
    if name not in _pg_dbs:
        pg.psql("CREATE DATABASE %s" % name, db="postgres")
        _pg_dbs.add(name)
    return "host=%s port=%d dbname=%s user=%s" % (pg.dir, 5432, name, "chartered")


def pg_drop(db):
    """Forget the PostgreSQL database of path db (a test's fresh start)."""
    if pg_mode() and _pg is not None and _pg_name(db) in _pg_dbs:
        _pg.psql("DROP DATABASE %s" % _pg_name(db), db="postgres")
        _pg_dbs.discard(_pg_name(db))


def db_copy(src, dst):
    """A copy of the test database of path src as path dst (the server that
    used src is stopped): the SQLite file (its WAL folded in first), or a
    PostgreSQL database made from src's as a template."""
    if pg_mode():
        pg = _pg_server()
        db_target(src)
        pg_drop(dst)
        pg.psql("CREATE DATABASE %s TEMPLATE %s" % (_pg_name(dst), _pg_name(src)), db="postgres")
        _pg_dbs.add(_pg_name(dst))
        return dst
    import shutil
    import sqlite3
    con = sqlite3.connect(src)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    shutil.copy(src, dst)
    return dst


def sql_rows(db, sql):
    """The rows of a query on the test database of path db (SQLite file, or its
    PostgreSQL database), as lists of text."""
    if pg_mode():
        out = _pg_server().psql(sql, db=_pg_name(db), sep="\x1f")
        return [line.split("\x1f") for line in out.splitlines()]
    import sqlite3
    con = sqlite3.connect(db)
    try:
        return [[None if v is None else str(v) for v in r] for r in con.execute(sql).fetchall()]
    finally:
        con.close()


def sql_exec(db, sql):
    """Run a statement on the test database of path db, as another process
    writing to it would."""
    if pg_mode():
        _pg_server().psql(sql, db=_pg_name(db))
        return
    import sqlite3
    con = sqlite3.connect(db, timeout=10)
    try:
        con.execute(sql)
        con.commit()
    finally:
        con.close()


def db_dump(db):
    """Every byte the database holds, as the test may search it for secrets:
    the SQLite file and its WAL, or pg_dump of the PostgreSQL database."""
    if pg_mode():
        pg = _pg_server()
        r = subprocess.run([os.path.join(pg.bindir, "pg_dump"), "-h", pg.dir, "-U", "chartered",
                            _pg_name(db)], capture_output=True, timeout=60)
        return r.stdout
    raw = b""
    for f in (db, db + "-wal"):
        if os.path.exists(f):
            raw += open(f, "rb").read()
    return raw


def test_args():
    """BINARY SRCDIR WORKDIR from the command line; WORKDIR is created."""
    binary, src, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    return binary, src, work


def check(cond, what):
    """Record a failure (and say it at once) when cond is false."""
    if not cond:
        failures.append(what)
        print("FAIL:", what, flush=True)


def finish(summary):
    """Exit 1 when any check failed, else print the test's summary line."""
    if failures:
        print(f"{len(failures)} failures")
        sys.exit(1)
    if delta_stats["patches"]:
        summary += (f" ({delta_stats['patches']} delta frames applied, "
                    f"{delta_stats['checked']} patched views checked against full views)")
    print(summary)


# ---- frames as deltas (docs/protocol.md, "Frames as deltas") -------------------
# After its first whole view a connection gets each view as a JSON Patch
# (RFC 6902) from the one before. The test client applies them, and at random
# points (a fixed seed: the same points in every run) checks the patched view
# against a whole one: it opens a second connection of the same session, joins
# the same seat (or watches) with "frames":"full", and compares that
# connection's first view with its own when both are of the same decision. A
# second connection of a seat changes nothing the game shows; the check is
# left out in games with a clock, where a join would take a seat back from its
# stand-in bot.
delta_rng = random.Random(int(os.environ.get("CHARTERED_DELTA_SEED", "18")))
delta_stats = {"patches": 0, "checked": 0}
DELTA_CHECK_P = 0.1     # chance of a check after a delta frame
B_MEMBERS = ("seats", "timer", "practice")  # left out of a delta frame when unchanged


class DeltaError(AssertionError):
    pass


def _pointer(path):
    if path == "":
        return []
    if not path.startswith("/"):
        raise DeltaError(f"bad JSON Pointer {path!r}")
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


def json_patch(doc, ops):
    """doc with the RFC 6902 operations applied (add, remove, replace); doc
    itself is not changed: each container on an operation's path is copied
    once, so views returned before stay as they were."""
    root = [doc]
    copied = set()
    for op in ops:
        toks = _pointer(op["path"])
        parent, key = root, 0
        for t in toks:
            node = parent[key]
            if id(node) not in copied:
                node = list(node) if isinstance(node, list) else dict(node)
                parent[key] = node
                copied.add(id(node))
            if isinstance(node, list):
                t = len(node) if t == "-" else int(t)
            parent, key = node, t
        kind = op["op"]
        if kind == "replace":
            if isinstance(parent, dict) and key not in parent and parent is not root:
                raise DeltaError(f"replace of a missing member {op['path']}")
            parent[key] = op["value"]
        elif kind == "add":
            if isinstance(parent, list) and parent is not root:
                parent.insert(key, op["value"])
            else:
                parent[key] = op["value"]
        elif kind == "remove":
            del parent[key]
        else:
            raise DeltaError(f"unexpected operation {kind}")
    return root[0]


class WSClosed(Exception):
    pass


class WS:
    """One WebSocket connection, spoken by python3-websockets (Debian's
    `websockets`, its Sans-I/O protocol layer: the opening handshake and its
    checks, masking, framing, fragments, ping/pong and the closing
    handshake are the library's). This class only moves bytes between the
    socket and the library, so tests can keep a plain blocking socket
    (`sock`, for selectors) with timeouts. recv() returns a decoded JSON
    message. send_raw_frame() writes a frame by hand, for the tests of
    malformed frames only (unmasked, fragments split at chosen places)."""

    def __init__(self, host, port, path="/ws", timeout=20.0, cookie=None, origin=None):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.proto = ws_client.ClientConnection(
            ws_uri.parse_uri(f"ws://{host}:{port}{path}"),
            origin=ws_typing.Origin(origin) if origin else None, max_size=None)
        request = self.proto.connect()
        if cookie:
            request.headers["Cookie"] = cookie
        self.proto.send_request(request)
        self._flush()
        self._messages = collections.deque()  # whole messages not yet returned
        self._parts = []                       # fragments of the message being read
        # until the answer to the upgrade: websockets (10.4) leaves a refused
        # handshake (a 502 from HAProxy while a node stops) in CONNECTING and
        # waits for the peer to close, which a keep-alive proxy never does, so
        # the refusal is taken as soon as it is parsed, as a browser does
        # (cluster_stop once waited out the 10 s timeout here)
        while (self.proto.state is ws_connection.State.CONNECTING
               and self.proto.handshake_exc is None):
            self._pump()
        if self.proto.handshake_exc is not None:
            raise WSClosed(f"handshake refused: {self.proto.handshake_exc}")
        self.frames = []  # every decoded message received, in order
        self.dyn = None         # the view as the last state frame left it
        self.dyn_decision = None
        self.seq = None
        self.b_members = {}     # seats, timer, practice of the last frame with them
        self.static = None
        self.addr, self.cookie = (host, port), cookie
        self.joined = None      # the last join/watch sent (for the checks)
        self.delta_checks = True

    @property
    def buf(self):
        """Messages received and not yet returned (true when there are)."""
        return self._messages

    def _flush(self):
        for data in self.proto.data_to_send():
            if data:
                self.sock.sendall(data)

    def _pump(self):
        """Read once from the socket and hand it to the library; queue the
        whole messages it yields (the library answers pings itself)."""
        data = self.sock.recv(65536)
        if data:
            self.proto.receive_data(data)
        else:
            self.proto.receive_eof()
        for ev in self.proto.events_received():
            if isinstance(ev, ws_frames.Frame):
                if ev.opcode in (ws_frames.Opcode.TEXT, ws_frames.Opcode.BINARY,
                                 ws_frames.Opcode.CONT):
                    self._parts.append(ev.data)
                    if ev.fin:
                        self._messages.append(b"".join(self._parts).decode())
                        self._parts = []
        self._flush()
        if not data or self.proto.state is ws_connection.State.CLOSED:
            if not self._messages:
                raise WSClosed("connection closed" if not data else "close frame")
        elif self.proto.state is ws_connection.State.CLOSING and not self._messages:
            raise WSClosed("close frame")

    def send_raw_frame(self, payload, opcode=1, fin=True, mask=True):
        """A frame made by hand (malformed-frame tests only)."""
        if isinstance(payload, str):
            payload = payload.encode()
        b0 = (0x80 if fin else 0) | opcode
        n = len(payload)
        mbit = 0x80 if mask else 0
        if n < 126:
            hdr = struct.pack("!BB", b0, mbit | n)
        elif n < 65536:
            hdr = struct.pack("!BBH", b0, mbit | 126, n)
        else:
            hdr = struct.pack("!BBQ", b0, mbit | 127, n)
        if mask:
            key = os.urandom(4)
            body = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
            self.sock.sendall(hdr + key + body)
        else:
            self.sock.sendall(hdr + payload)

    send_frame = send_raw_frame

    def send(self, obj):
        self.proto.send_text(json.dumps(obj).encode())
        self._flush()
        if isinstance(obj, dict) and obj.get("type") in ("join", "watch"):
            self.joined = dict(obj)

    def recv_raw(self):
        """One whole message (text)."""
        while not self._messages:
            self._pump()
        return self._messages.popleft()

    def recv(self, timeout=None):
        if timeout is not None:
            self.sock.settimeout(timeout)
        msg = json.loads(self.recv_raw())
        if isinstance(msg, dict) and msg.get("type") == "state":
            self._state(msg)
        self.frames.append(msg)
        return msg

    def _state(self, msg):
        """Complete a state frame as the browser client does: its view from
        the patch (or whole), the members a delta frame leaves out, and the
        board and card table (which come once, in "static")."""
        seq = msg.get("seq")
        if seq is not None:
            if seq != 1 and self.seq is not None and seq != self.seq + 1:
                raise DeltaError(f"state frame {seq} after {self.seq}: a gap")
            if seq == 1:  # a new join/watch
                self.b_members, self.dyn = {}, None
            self.seq = seq
        if "static" in msg:
            self.static = msg["static"]
        if "seats" in msg:
            self.b_members = {k: msg[k] for k in B_MEMBERS if k in msg}
        else:
            for k, v in self.b_members.items():
                msg.setdefault(k, v)
        patched = "patch" in msg
        if patched:
            p = msg.pop("patch")
            if self.dyn is None or p.get("base") != self.dyn_decision:
                raise DeltaError(f"a patch from decision {p.get('base')} but the view held is "
                                 f"of {self.dyn_decision}")
            self.dyn = json_patch(self.dyn, p["ops"])
            delta_stats["patches"] += 1
        elif isinstance(msg.get("view"), dict):
            self.dyn = msg["view"]
        self.dyn_decision = msg.get("decision")
        if self.dyn is not None:
            msg["view"] = {**self.dyn, **self.static} if self.static else self.dyn
        timer = msg.get("timer") or {}
        if (patched and self.delta_checks and self.joined and not timer.get("seconds") and
                "days" not in timer and delta_rng.random() < DELTA_CHECK_P):
            self._check_whole(msg)

    def _check_whole(self, msg):
        """The whole view of this seat (or of a spectator), from a second
        connection, against the patched one (see above)."""
        try:
            w = WS(*self.addr, timeout=10, cookie=self.cookie)
        except (OSError, WSClosed):
            return
        try:
            w.delta_checks = False
            w.send({**self.joined, "frames": "full"})
            while True:
                m = w.recv(timeout=10)
                if m.get("type") == "state":
                    break
                if m.get("type") == "error":
                    return  # the seat cannot be joined now: no check
            if "patch" in m or "view" not in m:
                raise DeltaError(f"a frame asked for whole has no view: {sorted(m)}")
            if m.get("decision") == msg.get("decision"):
                # equal, key order included (what the server wrote, in order)
                if json.dumps(m["view"]) != json.dumps(msg["view"]):
                    a, b = json.dumps(msg["view"]), json.dumps(m["view"])
                    k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), 0)
                    raise DeltaError(f"decision {m['decision']}: the patched view differs from "
                                     f"the whole view near ...{a[max(0, k - 80):k + 80]}... vs "
                                     f"...{b[max(0, k - 80):k + 80]}...")
                delta_stats["checked"] += 1
        except (OSError, WSClosed, TimeoutError):
            pass
        finally:
            w.close()

    def recv_until(self, pred, timeout=30.0):
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                raise TimeoutError("no matching frame")
            m = self.recv(timeout=left)
            if pred(m):
                return m

    def close(self):
        try:
            if self.proto.state is ws_connection.State.OPEN:
                self.proto.send_close(1000)
                self._flush()
        except OSError:
            pass
        self.sock.close()


def http_call(port, method, path, body=None, raw=None, cookie=None, headers=None):
    """(status, decoded JSON or text, response headers as a dict of lower-case
    names) of one HTTP request; cookie: a Cookie header to send."""
    c = httpc.HTTPConnection("127.0.0.1", port, timeout=20)
    data = raw if raw is not None else (json.dumps(body) if body is not None else None)
    hdrs = {"Content-Type": "application/json"} if data is not None else {}
    if cookie:
        hdrs["Cookie"] = cookie
    hdrs.update(headers or {})
    c.request(method, path, body=data, headers=hdrs)
    r = c.getresponse()
    text = r.read().decode("utf-8", "replace")
    got = {k.lower(): v for k, v in r.getheaders()}
    c.close()
    try:
        return r.status, json.loads(text), got
    except ValueError:
        return r.status, text, got


def http_json(port, method, path, body=None, raw=None, cookie=None):
    """(status, decoded JSON or text) of one HTTP request."""
    st, r, _ = http_call(port, method, path, body, raw, cookie)
    return st, r


def raw_status(port, req, wait=20):
    """The status line of the server's answer to raw bytes (b"" when closed)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=wait)
    try:
        s.sendall(req)
    except OSError:
        pass  # the server may answer and close before all of a huge request is sent
    out = b""
    try:
        while b"\r\n" not in out:
            d = s.recv(65536)
            if not d:
                break
            out += d
    except OSError:
        pass
    s.close()
    return out.split(b"\r\n", 1)[0].decode("latin-1")


def session_cookie(headers):
    """The "chartered_session=..." pair of a Set-Cookie header, or None."""
    sc = headers.get("set-cookie", "")
    first = sc.split(";", 1)[0]
    return first if first.startswith("chartered_session=") else None


def signup(port, name, password=None):
    """A new account (POST /api/signup; the password NAME + " secret pw" unless
    given): its Cookie header value. A refusal is a failed check."""
    st, r, h = http_call(port, "POST", "/api/signup",
                         {"name": name, "password": password or name + " secret pw"})
    check(st == 201, f"{name} signs up: {st} {r}")
    return session_cookie(h)


def guest(port, name=None):
    """A guest session (POST /api/guest): its Cookie header value."""
    st, r, h = http_call(port, "POST", "/api/guest", {"name": name} if name else {})
    if st != 201:
        raise RuntimeError(f"no guest session: {st} {r}")
    return session_cookie(h)


class SeatWS:
    """A WebSocket of srv.ws(): it connects at its first use, with the session
    cookie of the person who plays: a join with an invite token uses the
    session that first used that token (one browser per token holder, so a
    reconnect plays the same seat), a watch none, anything else a new guest
    session."""

    def __init__(self, srv, cookie=None):
        self._srv, self._cookie, self._ws = srv, cookie, None

    def _open(self, first=None):
        if self._ws is None:
            tok = first.get("token") if isinstance(first, dict) and first.get("type") == "join" \
                else None
            if self._cookie is None:
                self._cookie = self._srv.token_cookies.get(tok) if tok else None
            watch = isinstance(first, dict) and first.get("type") == "watch"
            if self._cookie is None and not watch:  # a spectator needs no session
                self._cookie = guest(self._srv.port)
            self._ws = WS("127.0.0.1", self._srv.port, cookie=self._cookie)
        if isinstance(first, dict) and first.get("type") == "join" and first.get("token"):
            self._srv.token_cookies.setdefault(first["token"], self._cookie)
        return self._ws

    def send(self, obj):
        self._open(obj).send(obj)

    def __getattr__(self, name):
        return getattr(self._open(), name)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Server:
    """`chartered serve` on a free port with its own database."""

    def __init__(self, binary, db, web=None, extra=()):
        self.binary, self.db, self.web, self.extra = binary, db, web, list(extra)
        self.port = free_port()
        self.proc = None
        self.token_cookies = {}  # invite token -> the session that used it

    def start(self):
        args = [self.binary, "serve", "--port", str(self.port), "--host", "127.0.0.1",
                "--db", db_target(self.db), "--quiet"] + self.extra
        if self.web:
            args += ["--web", self.web]
        # the server's standard error goes to DB.log (sanitizer reports too)
        self.log = self.db + ".log"
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=err)
        line = self.proc.stdout.readline().decode()
        if "serving on" not in line:
            self.proc.wait(timeout=30)
            raise RuntimeError("server did not start: " + line + self.log_text())
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server does not accept connections")

    def stop(self, kill=False):
        if not self.proc:
            return
        if kill:
            self.proc.kill()
        else:
            self.proc.terminate()
        self.proc.wait(timeout=30)
        code = self.proc.returncode
        self.proc = None
        return code

    def log_text(self):
        try:
            with open(self.log, encoding="utf-8", errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def ws(self, cookie=None):
        """A WebSocket playing as a person with a session (SeatWS)."""
        return SeatWS(self, cookie)


def expand_legal(lines):
    """Every move a "legal" list stands for (ranges expanded lazily: a range
    is returned as (prefix, lo, hi))."""
    out = []
    for l in lines:
        if l.startswith("range "):
            body = l[len("range "):]
            prefix, lo, hi = body.rsplit(" ", 2)
            out.append((prefix, int(lo[1:]), int(hi[1:])))
        else:
            out.append(l)
    return out


def pick_move(lines, rng):
    """A random legal move from a "legal" list (a range gives a random amount)."""
    choices = expand_legal(lines)
    c = rng.choice(choices)
    if isinstance(c, tuple):
        prefix, lo, hi = c
        return f"{prefix} f{rng.randint(lo, hi)}"
    return c


__all__ = ["WS", "SeatWS", "WSClosed", "json_patch", "delta_stats", "DeltaError", "http_json", "http_call", "guest", "session_cookie", "free_port", "Server", "expand_legal", "pick_move",
           "random"]
