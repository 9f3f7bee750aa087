"""cluster_script.py: scripts/cluster.sh as an operator runs it (issue 35,
item 6: its ports and logs could not be set, and its nodes ran --quiet, so
their logs were empty). Runs the script on this build's program with every
port and the log folder set, and checks:
- the nodes listen on the ports given and HAProxy on its port reaches each
  (?node=NAME, the use-server rule); a game is created through HAProxy;
- the logs are in the folder given: each node's log has its start line
  (not --quiet), haproxy.log has the access line of that creation;
- bad settings are refused before anything starts (a port list that does
  not match the node count, an unknown flag);
- Ctrl-C (SIGINT) stops the nodes and HAProxy, the temporary folder is
  removed and the log folder kept, PostgreSQL's log copied into it.
Every wait is bounded.

usage: python3 cluster_script.py BINARY SRCDIR WORKDIR
"""
import http.client as httpc
import json
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import cluster  # noqa: E402
from wsclient import check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
ok, why = cluster.available()
if not ok:
    print("SKIP:", why)
    sys.exit(77)
SCRIPT = os.path.join(SRC, "scripts", "cluster.sh")
LOGS = os.path.join(WORK, "logs")
ports = [cluster.free_port() for _ in range(3)]
hport, aport, bport = ports


def get(port, path):
    c = httpc.HTTPConnection("127.0.0.1", port, timeout=20)
    c.request("GET", path)
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, body


# refused before anything starts
for args, env, want in [(["--nodes", "3", "--node-ports", "%d %d" % (aport, bport)], {},
                         "NODE_PORTS has 2 ports for 3 nodes"),
                        (["--frobnicate"], {}, "unknown flag '--frobnicate'"),
                        ([], {"NODE_PORTS": "%d x" % aport}, "'x' is not a port")]:
    r = subprocess.run(["bash", SCRIPT, "--chartered", BIN] + args, capture_output=True, text=True,
                       timeout=60, env=dict(os.environ, **env))
    check(r.returncode == 2 and want in r.stderr, f"{args} {env}: refused with '{want}': "
          f"{r.returncode} {r.stderr.strip()!r}")

p = subprocess.Popen(["bash", SCRIPT, "--chartered", BIN, "--port", str(hport),
                      "--node-ports", "%d %d" % (aport, bport), "--logs", LOGS,
                      "--log-format", "json", "--node-options", "--bot-threads 1"],
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
out = []
try:
    deadline = time.time() + 240
    while time.time() < deadline:
        line = p.stdout.readline()
        if not line:
            break
        out.append(line)
        if line.startswith("Open http"):
            break
    text = "".join(out)
    check("Open http://localhost:%d/" % hport in text, "the script started the cluster:\n" + text)
    pids = [int(x) for x in re.findall(r"^(?:node [ab]|HAProxy): pid (\d+)", text, re.M)]
    check(len(pids) == 3, f"three processes named: {pids}")
    work = re.search(r"HAProxy: pid \d+, (\S+)/haproxy.cfg", text)
    work = work.group(1) if work else None
    for name, port in (("a", aport), ("b", bport)):
        st, body = get(port, "/api/health")
        check(st == 200 and json.loads(body).get("node") == name,
              f"node {name} listens on its port {port}: {st} {body[:80]!r}")
        st, body = get(hport, "/api/health?node=" + name)
        check(st == 200 and json.loads(body).get("node") == name,
              f"HAProxy on {hport} reaches node {name}: {st} {body[:80]!r}")
    c = httpc.HTTPConnection("127.0.0.1", hport, timeout=20)
    c.request("POST", "/api/games", body=json.dumps(
        {"edition": "amsterdam", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}),
        headers={"Content-Type": "application/json"})
    r = c.getresponse()
    r.read()
    c.close()
    check(r.status == 201, f"a game created through HAProxy: {r.status}")
    for name in ("a", "b"):
        log = open(os.path.join(LOGS, name + ".log")).read()
        check("serving on http://127.0.0.1:%d/" % (aport if name == "a" else bport) in log,
              f"{name}.log has the node's start line: {log[:200]!r}")
    hlog = ""
    for _ in range(50):  # HAProxy writes the line when the request ends
        hlog = open(os.path.join(LOGS, "haproxy.log")).read()
        if '"POST /api/games HTTP/1.1"' in hlog:
            break
        time.sleep(0.1)
    check(re.search(r'chartered nodes/[ab] .* 201 .*"POST /api/games HTTP/1.1"', hlog),
          "haproxy.log has the creation's access line")
finally:
    p.send_signal(signal.SIGINT)
    try:
        rest, _ = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        rest, _ = p.communicate()
out.append(rest or "")
text = "".join(out)
check(p.returncode is not None, "the script ended on SIGINT")
time.sleep(0.2)
for pid in pids:
    try:
        os.kill(pid, 0)
        alive = True
    except OSError:
        alive = False
    check(not alive, f"process {pid} stopped with the script")
check(work is None or not os.path.exists(work), f"the temporary folder {work} is removed")
check(sorted(os.listdir(LOGS)) == ["a.log", "b.log", "haproxy.log", "postgres.log"],
      f"the log folder is kept with every log: {sorted(os.listdir(LOGS))}")
alog = open(os.path.join(LOGS, "a.log")).read()
check("stopping: committing" in alog, "node a logged its graceful stop (SIGTERM from the script)")
# --log-format json: every line of a node's log is a JSON record; the start
# line once (standard output and error are the one file)
arecs = []
for raw in alog.splitlines():
    try:
        arecs.append(json.loads(raw))
    except ValueError:
        check(False, f"a.log: a line that is not JSON: {raw[:160]!r}")
check(sum(r.get("event") == "server.listening" for r in arecs) == 1 and
      any(r.get("event") == "server.stopping" for r in arecs),
      f"a.log in JSON, its start line once: {[r.get('event') for r in arecs]}")
finish("cluster_script: ports and log folder set, logs written, Ctrl-C stops everything")
