"""cluster.py: a whole cluster on loopback for the cluster tests, the
benchmarks and scripts/cluster.sh (docs/cluster.md): a private PostgreSQL
(pgtmp.py: initdb in a temp folder, Unix socket only), two or three
`chartered serve` nodes with --cluster, and HAProxy (Debian's) from
packaging/haproxy.cfg.in on 127.0.0.1. Everything is started with bounded
waits and stopped at the end (a `with` block, or stop()), kill -9 included.

The nodes' storage: the PostgreSQL database when the binary has the
PostgreSQL back end (`serve --help` names postgresql://), else one SQLite
file that the nodes share (one machine only; SQLite locks between
processes). The leases and cross-node events are PostgreSQL's either way.

    with Cluster(binary, src, work, nodes=2) as cl:
        cl.port                  # HAProxy's port
        cl.node("a").port        # a node's own port (wsclient.Server)
        cl.kill("a")             # kill -9
        cl.start_node("a")       # again
        cl.pg.stop(); cl.pg.start()
        cl.health("a")           # GET /api/health of that node
"""
import os
import shutil
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pgtmp  # noqa: E402
from wsclient import Server, free_port, http_json  # noqa: E402

HAPROXY_START_TIMEOUT = 20


def haproxy_path():
    return shutil.which("haproxy") or ("/usr/sbin/haproxy"
                                       if os.path.exists("/usr/sbin/haproxy") else None)


def available():
    """(True, "") when PostgreSQL and HAProxy are here, else (False, why)."""
    ok, why = pgtmp.available()
    if not ok:
        return False, why
    if not haproxy_path():
        return False, "haproxy not found: install the Debian package haproxy (scripts/install-deps.sh does)"
    return True, ""


def has_pg_store(binary):
    out = subprocess.run([binary, "serve", "--help"], capture_output=True, text=True,
                         timeout=30).stdout
    lines = out.splitlines()
    for i, l in enumerate(lines):  # the --db line and the two after it
        if l.strip().startswith("--db "):
            return "postgres" in " ".join(lines[i:i + 3]).lower()
    return False


def fill_haproxy(src, bind, nodes):
    """The configuration for nodes [(name, port)] behind bind ("127.0.0.1:P")."""
    with open(os.path.join(src, "packaging", "haproxy.cfg.in")) as f:
        t = f.read()
    rules = "\n".join("    use-server %s if { url_param(node) -m str %s }" % (n, n)
                      for n, _ in nodes)
    servers = "\n".join("    server %s 127.0.0.1:%d" % (n, p) for n, p in nodes)
    import resource
    nofile = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    maxconn = max(256, min(20000, (nofile - 200) // 2))
    # the access log (option httplog) on standard output: the test's haproxy.log
    glob = "    maxconn %d\n    log stdout format raw local0" % maxconn
    return (t.replace("@HAPROXY_GLOBAL@", glob).replace("@HAPROXY_BIND@", bind)
            .replace("@HAPROXY_RULES@", rules).replace("@HAPROXY_SERVERS@", servers))


class Cluster:
    def __init__(self, binary, src, work, nodes=2, lease=3, names=None, extra=(), pg_dir=None,
                 store=None, quiet=True):
        self.binary, self.src, self.work = binary, src, work
        self.quiet = quiet  # False: the nodes write their info lines too (NAME.log)
        self.names = names or ["a", "b", "c"][:nodes]
        self.lease = lease
        self.extra = list(extra)
        self.pg = pgtmp.PgTmp(pg_dir)
        self.nodes = {}
        self.hap = None
        self.port = None
        self.store = store  # "pg" or "sqlite"; None: pg when the binary can
        self.db = None

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self):
        os.makedirs(self.work, exist_ok=True)
        self.pg.start()
        if self.store is None:
            self.store = "pg" if has_pg_store(self.binary) else "sqlite"
        self.db = self.pg.url if self.store == "pg" else os.path.join(self.work, "cluster.db")
        for n in self.names:
            self.start_node(n)
        self.start_haproxy()
        return self

    def node_args(self, name):
        # --trust-proxy as scripts/cluster.sh: HAProxy's X-Forwarded-For
        # names the client (packaging/haproxy.cfg.in, option forwardfor)
        return ["--node", name, "--cluster", self.pg.conninfo, "--lease-seconds",
                str(self.lease), "--trust-proxy"] + self.extra

    def start_node(self, name):
        old = self.nodes.get(name)
        s = Server(self.binary, self.db, extra=self.node_args(name))
        if old:
            s.port = old.port  # HAProxy knows it by its port
        s.log = os.path.join(self.work, name + ".log")
        # Server.start writes the log next to the database: a node's own name
        s.db = self.db
        s.quiet = self.quiet
        self.nodes[name] = s
        _start_logged(s, os.path.join(self.work, name + ".log"))
        return s

    def node(self, name):
        return self.nodes[name]

    def kill(self, name):
        """kill -9 of a node."""
        self.nodes[name].stop(kill=True)

    def moves(self, gid):
        """The stored move list of a game, [(n, move)], read from the database."""
        if self.store == "pg":
            out = self.pg.psql("SELECT n || '|' || move FROM moves WHERE game = '%s' ORDER BY n"
                               % gid.replace("'", ""))
            return [(int(l.split("|", 1)[0]), l.split("|", 1)[1]) for l in out.splitlines() if l]
        import sqlite3
        con = sqlite3.connect(self.db)
        try:
            return list(con.execute("SELECT n, move FROM moves WHERE game = ? ORDER BY n", (gid,)))
        finally:
            con.close()

    def health(self, name):
        st, h = http_json(self.nodes[name].port, "GET", "/api/health")
        return h if st == 200 else None

    def start_haproxy(self):
        self.port = free_port()
        cfg = os.path.join(self.work, "haproxy.cfg")
        with open(cfg, "w") as f:
            f.write(fill_haproxy(self.src, "127.0.0.1:%d" % self.port,
                                 [(n, s.port) for n, s in self.nodes.items()]))
        self.hap_log = open(os.path.join(self.work, "haproxy.log"), "ab")
        self.hap = subprocess.Popen([haproxy_path(), "-f", cfg, "-db"], stdout=self.hap_log,
                                    stderr=self.hap_log)
        deadline = time.time() + HAPROXY_START_TIMEOUT
        while time.time() < deadline:
            if self.hap.poll() is not None:
                raise RuntimeError("haproxy stopped: see " + self.hap_log.name)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        else:
            raise RuntimeError("haproxy does not listen")
        # every node seen up by the health checks
        self.wait_routed(set(self.names))

    def wait_routed(self, names, timeout=30):
        """Wait until requests through HAProxy reach every node of names (the
        health checks count them up)."""
        deadline = time.time() + timeout
        seen = set()
        while time.time() < deadline and not names <= seen:
            for n in names:
                st, h = http_json(self.port, "GET", "/api/health?node=" + n)
                if st == 200 and h.get("node") == n:
                    seen.add(n)
            if not names <= seen:
                time.sleep(0.1)
        if not names <= seen:
            raise RuntimeError("haproxy does not reach %s" % sorted(names - seen))

    def stop(self):
        for s in self.nodes.values():
            try:
                s.stop(kill=True)
            except Exception:
                pass
        if self.hap and self.hap.poll() is None:
            self.hap.kill()
            self.hap.wait(timeout=10)
        self.hap = None
        try:
            self.pg.__exit__(None, None, None)
        except Exception:
            pass


def _start_logged(s, log):
    """Server.start with the node's log in log (its standard error)."""
    args = [s.binary, "serve", "--port", str(s.port), "--host", "127.0.0.1", "--db", s.db]
    args += (["--quiet"] if getattr(s, "quiet", True) else []) + s.extra
    s.log = log
    with open(log, "ab") as err:
        s.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=err)
    line = s.proc.stdout.readline().decode()
    if "serving on" not in line:
        s.proc.wait(timeout=30)
        raise RuntimeError("node did not start: " + line + s.log_text())
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", s.port), timeout=1).close()
            return s
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("node does not accept connections")


start_logged = _start_logged  # for tests that start a node of their own


def join_via(port, gid, cookie, token=None, watch=False, timeout=40):
    """Join (or watch) game gid through HAProxy on port, the way the browser
    does: /ws?game=ID, following "moved" frames (&node=NAME) and retrying a
    refused or closed connection (a node just died) every 0.2 s, until a
    state frame comes; (ws, state, hops) or raises TimeoutError."""
    from wsclient import WS, WSClosed
    node = None
    hops = 0
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        path = f"/ws?game={gid}" + (f"&node={node}" if node else "")
        try:
            w = WS("127.0.0.1", port, path=path, cookie=cookie, timeout=10)
        except Exception as e:  # refused, reset, or a 503 from HAProxy
            last = e
            if os.environ.get("CLUSTER_DEBUG"):
                print(f"  join_via {time.time():.2f}: {e!r}", flush=True)
            time.sleep(0.2)
            continue
        msg = {"type": "watch" if watch else "join", "game": gid}
        if token and not watch:
            msg["token"] = token
        try:
            w.send(msg)
            m = w.recv_until(lambda m: m["type"] in ("state", "error", "moved"),
                             timeout=max(1, deadline - time.time()))
        except (WSClosed, OSError, TimeoutError, ValueError) as e:
            last = e
            w.close()
            time.sleep(0.2)
            continue
        if m["type"] == "state":
            return w, m, hops
        w.close()
        last = m
        if os.environ.get("CLUSTER_DEBUG"):
            print(f"  join_via {time.time():.2f}: {m}", flush=True)
        if m["type"] == "moved":
            if m["node"] == node:  # sent back where HAProxy cannot reach: wait
                time.sleep(0.2)
            node = m["node"]
            hops += 1
        else:  # "storage": the database or the lease is not there yet
            time.sleep(0.2)
    raise TimeoutError(f"no state frame for game {gid} within {timeout} s (last: {last})")


# ---- playing a game from the tests: two seats, random legal moves ----------------
from wsclient import WSClosed, check, pick_move  # noqa: E402
import selectors  # noqa: E402


class Game:
    def __init__(self):
        self.seen = {}      # n -> move as the players were shown it
        self.acked = 0      # decisions acknowledged (state frames)

    def note(self, m):
        for e in m.get("log", []):
            if not e.get("hidden"):
                prev = self.seen.get(e["n"])
                check(prev is None or prev == e["move"], f"log entry {e['n']} changed: {prev} -> {e}")
                self.seen[e["n"]] = e["move"]
        self.acked = max(self.acked, m["decision"])


def play(game, conns, upto, rng, timeout=60, errors=None):
    """Play until `upto` decisions are acknowledged or the game ends; returns
    "done", "over" or "closed" (a connection went away)."""
    sel = selectors.DefaultSelector()
    for c in conns:
        sel.register(c.sock, selectors.EVENT_READ, c)
    last = {}

    def act(c, m):
        if m["legal"] and m["status"] == "playing":
            last[id(c)] = {"type": "move", "move": pick_move(m["legal"], rng),
                           "decision": m["decision"]}
            c.send(last[id(c)])

    try:
        for c in conns:
            st = [m for m in c.frames if m["type"] == "state"]
            if st:
                act(c, st[-1])
        end = time.time() + timeout
        while time.time() < end:
            if game.acked >= upto:
                return "done"
            for key, _ in sel.select(timeout=5):
                c = key.data
                while True:
                    m = c.recv(timeout=10)
                    if m["type"] == "state":
                        game.note(m)
                        if m["status"] == "over":
                            return "over"
                        act(c, m)
                    elif m["type"] == "error":
                        if errors is not None:
                            errors.append(m)
                        check(m["code"] in ("stale", "rate_limited", "storage", "conflict"),
                              f"unexpected error {m}")
                        if m["code"] == "rate_limited":
                            time.sleep(0.1)
                            c.send(last[id(c)])
                    if not c.buf:
                        break
        check(False, f"no progress within {timeout} s (acked {game.acked})")
        return "stuck"
    except (WSClosed, OSError, ConnectionError):
        return "closed"
    finally:
        sel.close()


def test_setup():
    """BINARY SRCDIR WORKDIR of a cluster test (tests/cluster_*.py), after
    checking that PostgreSQL and HAProxy are here (else exit 77: skipped)."""
    from wsclient import test_args
    args = test_args()
    ok, why = available()
    if not ok:
        print("SKIP:", why)
        sys.exit(77)
    return args


def short(m):
    """The members of a frame worth printing in a check's message."""
    return {k: m[k] for k in ("type", "code", "message", "decision", "status", "node") if k in m}


def join_at(port, gid, cookie, token=None, node=None, timeout=30):
    """Join game gid on one port (a node's own, or HAProxy's with node=NAME),
    without following "moved": (ws, the first state, error or moved frame)."""
    from wsclient import WS
    path = f"/ws?game={gid}" + (f"&node={node}" if node else "")
    w = WS("127.0.0.1", port, path=path, cookie=cookie)
    msg = {"type": "join", "game": gid}
    if token:
        msg["token"] = token
    w.send(msg)
    return w, w.recv_until(lambda m: m["type"] in ("state", "error", "moved"), timeout=timeout)


def wait_for(pred, secs, what):
    """pred()'s first true value, asked every 0.05 s for at most secs; a
    failed check (and None) when it never comes."""
    end = time.time() + secs
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.05)
    check(False, f"{what}: not within {secs} s")
    return None


def two_players(cl, seed):
    """A game of two people made through HAProxy, both seats joined through
    it: (game id, tokens, cookies, Game, connections)."""
    from wsclient import guest, http_json
    st, g = http_json(cl.port, "POST", "/api/games", {"players": 2, "seed": seed})
    check(st == 201, f"game created: {st} {g}")
    gid, toks = g["id"], [s["token"] for s in g["seats"]]
    cookies = [guest(cl.port, "Anke"), guest(cl.port, "Bram")]
    game = Game()
    conns = []
    for i in range(2):
        w, m, _ = join_via(cl.port, gid, cookies[i], toks[i])
        game.note(m)
        conns.append(w)
    return gid, toks, cookies, game, conns


def check_stored(cl, gid, game):
    """The stored moves of gid are numbered 0..n once each, hold every
    acknowledged one, and are the moves the players were shown (none lost,
    none twice); the stored notations."""
    stored = cl.moves(gid)
    check([n for n, _ in stored] == list(range(len(stored))),
          f"move numbers 0..{len(stored) - 1}, each once: {[n for n, _ in stored][:80]}")
    moves = [mv for _, mv in stored]
    check(len(moves) >= game.acked,
          f"every acknowledged move is stored: {len(moves)} < {game.acked}")
    for n, mv in sorted(game.seen.items()):
        check(n < len(moves) and moves[n] == mv,
              f"move {n}: the players saw {mv}, the list has "
              f"{moves[n] if n < len(moves) else 'nothing'}")
    return moves


def owner_of(cl, gid, among=None):
    """The node whose health lists gid among the games it owns, or None."""
    for n in among or cl.names:
        try:
            h = cl.health(n)
        except OSError:
            continue
        if h and gid in h["owned"]:
            return n
    return None
