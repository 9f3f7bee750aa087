"""wsclient_refused.py: the test client's WebSocket handshake reports a
refused upgrade at once. A keep-alive peer (HAProxy answering 502 while a
node stops) keeps the connection open after its answer; the client once went
on reading until its timeout (10 s in cluster.join_via), so cluster_stop's
reconnection came 10.5 s after the signal instead of within 3 s.

A loopback server answers the upgrade with 502 (with a body and its length)
and keeps the connection open; WS() must raise WSClosed within 1 s, with a
timeout of 8 s. Then a 101 answer that is not a valid upgrade (no accept key)
is refused the same way.

usage: python3 wsclient_refused.py
"""
import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import WS, WSClosed, check, finish  # noqa: E402

ANSWERS = [
    b"HTTP/1.1 502 Bad Gateway\r\ncontent-length: 11\r\ncache-control: no-cache\r\n"
    b"content-type: text/html\r\n\r\nBad Gateway",
    b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
]

srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(4)
port = srv.getsockname()[1]
held = []


def serve():
    for answer in ANSWERS:
        c, _ = srv.accept()
        buf = b""
        while b"\r\n\r\n" not in buf:
            d = c.recv(4096)
            if not d:
                break
            buf += d
        c.sendall(answer)
        held.append(c)  # kept open, as a keep-alive proxy does


threading.Thread(target=serve, daemon=True).start()
for answer in ANSWERS:
    t0 = time.time()
    try:
        WS("127.0.0.1", port, path="/ws", timeout=8)
        got = "an open WebSocket"
    except WSClosed as e:
        got = f"WSClosed ({e})"
    except (OSError, TimeoutError) as e:
        got = f"{type(e).__name__} ({e})"
    took = time.time() - t0
    first = answer.split(b"\r\n")[0].decode()
    check(got.startswith("WSClosed") and took < 1.0,
          f"{first}: {got} after {took:.2f} s (a refusal at once, not a wait for the timeout)")
for c in held:
    c.close()
finish("wsclient_refused: a refused upgrade is reported at once")
