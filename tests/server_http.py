"""server_http.py: HTTP requests past the server's limits get a status line,
not a closed connection (issue 19, low defects), over real sockets:
- a URL of 8 KB answers 414 (URLs may be 2048 bytes);
- headers of 12 KB in all still fit (they are answered normally);
- POST to a static file, to the catalogues (/i18n/…) or to the page answers 405;
- a body over 16 KiB answers 413;
- every answer (JSON, static files, errors) says how long an idle
  keep-alive connection stays open ("Keep-Alive: timeout=4"), and the server
  keeps an idle connection open at least that long, then closes it.
(Headers beyond 16 KiB are closed by libwebsockets 4.1 without an answer:
docs/protocol.md, "Limits".)

usage: python3 server_http.py BINARY SRCDIR WORKDIR
"""
import os
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import Server, check, finish, http_call, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
srv = Server(BIN, os.path.join(WORK, "http.db")).start()


def raw(req):
    """The status line of the answer to the raw request (b"" when closed)."""
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=20)
    s.sendall(req)
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


def req(method, path, headers=b"", body=b""):
    return raw(method.encode() + b" " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n" + headers +
               b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" +
               body)


st = req("GET", "/" + "a" * 8192)
check(st.startswith("HTTP/1.1 414"), f"an 8 KB URL: {st!r}")
st = req("GET", "/api/games?x=" + "b" * 2100)
check(st.startswith("HTTP/1.1 414"), f"a 2 KB query: {st!r}")
st = req("GET", "/api/health", headers=b"X-Pad: " + b"c" * 12000 + b"\r\n")
check(st.startswith("HTTP/1.1 200"), f"12 KB of headers are answered: {st!r}")
for path in ("/index.html", "/", "/web/index.html", "/i18n/en.json"):
    st = req("POST", path, body=b"{}")
    check(st.startswith("HTTP/1.1 405"), f"POST {path}: {st!r}")
st = req("POST", "/api/games", headers=b"Content-Type: application/json\r\n",
         body=b"{" + b" " * 17000 + b"}")
check(st.startswith("HTTP/1.1 413"), f"a 17 KB body: {st!r}")

# Keep-Alive: the hint on every kind of answer
for method, path in (("GET", "/api/health"), ("GET", "/index.html"), ("GET", "/api/nothing"),
                     ("POST", "/api/games")):
    st, _, hdrs = http_call(srv.port, method, path, raw=b"{" if method == "POST" else None)
    check(hdrs.get("keep-alive") == "timeout=4", f"{method} {path} ({st}): Keep-Alive "
          f"{hdrs.get('keep-alive')!r}")

# ... and what it promises: an idle connection stays open that long (a
# loaded machine only makes the close later), and is closed in the end
s = socket.create_connection(("127.0.0.1", srv.port), timeout=30)
s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
got = b""
while b"\r\n\r\n" not in got:
    got += s.recv(65536)
head, body = got.split(b"\r\n\r\n", 1)
length = int([ln.split(b":", 1)[1] for ln in head.split(b"\r\n")
              if ln.lower().startswith(b"content-length:")][0])
while len(body) < length:
    body += s.recv(65536)
idle_from = time.monotonic()
closed = b""
try:
    closed = s.recv(65536)
except OSError:
    pass
idle = time.monotonic() - idle_from
s.close()
check(closed == b"", f"the idle connection is closed by the server, not answered: {closed[:60]!r}")
check(idle >= 4.0, f"an idle keep-alive connection stays open as long as the hint says: {idle:.2f} s")

check(srv.alive(), "the server runs on")
srv.stop()
finish("http: 414 for long URLs, 405 for POST outside /api, 413 for big bodies, Keep-Alive")
