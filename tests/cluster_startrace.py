"""cluster_startrace.py: nodes started at the same moment on a new
PostgreSQL database all start (issue 35). The first to take the migration
lock creates the tables; the others wait for it. They waited at most the
session's lock timeout (250 ms), so on a loaded machine one failed its
start with "canceling statement due to lock timeout" (scripts/cluster.sh
then, and systemd's Restart= on chartered@.service, started it again).
Three nodes are started at once, three times, each time on a new database:
every node must print its start line, and none may exit.

usage: python3 cluster_startrace.py BINARY SRCDIR WORKDIR
"""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import pgtmp  # noqa: E402
from wsclient import check, finish, free_port, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
pgtmp.require()

with pgtmp.PgTmp() as pg:
    for round_ in range(3):
        dbname = f"race{round_}"
        pg.psql(f"CREATE DATABASE {dbname}", db="postgres")
        url = pg.url.replace("/chartered?", f"/{dbname}?")
        procs = []
        for n in "abc":
            procs.append(subprocess.Popen(
                [BIN, "serve", "--host", "127.0.0.1", "--port", str(free_port()), "--db", url,
                 "--cluster", "on", "--node", f"{n}{round_}", "--bot-threads", "1"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        try:
            for p, n in zip(procs, "abc"):
                line = p.stdout.readline()
                if "serving on" not in line:
                    p.wait(timeout=30)
                    check(False, f"round {round_}: node {n} did not start (exit {p.returncode}): "
                          f"{line!r} {p.stderr.read()[-300:]!r}")
            time.sleep(0.2)
            for p, n in zip(procs, "abc"):
                check(p.poll() is None, f"round {round_}: node {n} still runs")
        finally:
            for p in procs:
                if p.poll() is None:
                    p.terminate()
            for p in procs:
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()

finish("cluster_startrace: three nodes started at once on a new database, three times, all start")
