"""config_options.py: `chartered serve`'s one list of options (issue 35,
items 4 and 7; src/server/options.c), from `chartered config list`:

- per option (a check each, generated from the list): set in a file to its
  sample value, `config show --config FILE` holds that value from FILE:LINE
  (after the same hand-over to the server as `serve`: its options, cluster
  settings and the environment its modules read); the command line wins over
  the file; the file wins over the option's CHARTERED_* variable, and the
  variable alone is still read;
- `config check`: every bad line as FILE:LINE: reason in line order, unknown
  keys, sections, bad values and the old NAME=value form refused; exit 1;
  a good file: exit 0;
- `serve --config FILE` really runs with it: the port, the database, the node
  name, and two limits handed to their module through the environment
  (creates-per-minute = 1 and limit-loopback = yes: a second game from this
  address is refused 429); a flag overrides the file's port; a bad file stops
  the start with its FILE:LINE;
- the documents cannot go stale: every option is in chartered(1) as --KEY,
  in docs/configuration.md's table with its variable and default, and in
  packaging/chartered.conf; the man page names no serve flag that is not an
  option; every CHARTERED_* variable the server reads is an option's;
  `serve --help` names every option.

usage: python3 config_options.py BINARY SRCDIR WORKDIR
"""
import glob
import http.client as httpc
import json
import os
import re
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
from wsclient import check, finish, test_args  # noqa: E402

BIN, SRC, WORK = test_args()
BIN = os.path.abspath(BIN)
CLEAN = {k: v for k, v in os.environ.items() if not k.startswith("CHARTERED_")
         and k != "PGPASSWORD"}


def run(*args, env=None, timeout=60):
    return subprocess.run([BIN] + list(args), capture_output=True, text=True, timeout=timeout,
                          env=dict(CLEAN, **(env or {})))


def write(name, text):
    path = os.path.join(WORK, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def show(*args, env=None):
    r = run("config", "show", *args, env=env)
    out = {}
    for line in r.stdout.splitlines():
        k, _, rest = line.partition(" = ")
        v, _, src = rest.partition("\t# ")
        out[k] = (v, src)
    return r.returncode, out, r.stderr


r = run("config", "list", "--samples")
check(r.returncode == 0, f"config list: {r.returncode} {r.stderr}")
opts = [l.split("\t") for l in r.stdout.splitlines()]
check(all(len(o) == 6 for o in opts), "config list has six columns")
keys = [o[0] for o in opts]
check(len(keys) == len(set(keys)) and len(keys) > 30, f"{len(keys)} options, each once")
byenv = {o[2]: o[0] for o in opts if o[2] != "-"}

# ---- each option through a file, the command line, the environment --------
n_checked = 0
for key, flag, env, default, help_, sample in opts:
    if key == "config":
        continue
    want = "(set)" if key == "db-password" else sample
    f = write(f"{key}.conf", f"# {key}\n{key} = {sample}\n")
    rc, got, err = show("--config", f)
    v, src = got.get(key, (None, None))
    check(rc == 0 and v == want and src == f"{f}:2",
          f"{key}: set in a file to {sample!r}, the server holds {v!r} from {src!r} {err}")
    # the command line wins over the file: the flag with the default
    # (options without a plain default: their sample from the file stands)
    if default not in ("-", "HOSTNAME-PID", "beside the program", "1 (0 on one core)") and \
            key != "db-password":
        rc, got, err = show("--config", f, f"--{key}={default}")
        v, src = got.get(key, (None, None))
        check(rc == 0 and v == default and src == "command line",
              f"{key}: --{key}={default} wins over the file's {sample!r}: {v!r} from {src!r} {err}")
    if env != "-":
        rc, got, err = show(env={env: default})
        v, src = got.get(key, (None, None))
        check(rc == 0 and src == "environment", f"{key}: {env} alone is read: {v!r} {src!r}")
        rc, got, err = show("--config", f, env={env: default})
        v, src = got.get(key, (None, None))
        check(rc == 0 and v == want and src == f"{f}:2",
              f"{key}: the file wins over {env}: {v!r} from {src!r}")
    n_checked += 1
print(f"{n_checked} options set through a file, the command line and the environment")

# ---- config check ----------------------------------------------------------
bad = write("bad.conf", "# a bad file\n"
            "port = 8081\n"
            "CHARTERED_PORT=8080\n"
            "frobnicate = 1\n"
            "bot-threads = 99\n"
            "trust-proxy = maybe\n"
            "config = other.conf\n"
            "lease-seconds\n"
            "[serve]\n"
            "host = x\n")
r = run("config", "check", bad)
lines = r.stderr.splitlines()
want = [(3, "'CHARTERED_PORT' is not a key"), (3, "the old NAME=value form"),
        (4, "'frobnicate' is not a setting"), (5, "bot-threads must be a whole number from 1 to 16"),
        (6, "trust-proxy must be yes or no"), (7, "--config is for the command line"),
        (8, "is not 'key = value'"), (10, "sections are not used")]
check(r.returncode == 1, f"config check of a bad file exits 1: {r.returncode}")
got = [(int(m.group(1)), m.group(2)) for m in
       (re.match(re.escape(bad) + r":(\d+): (.*)", l) for l in lines) if m]
check(len(got) == len(want) and all(g[0] == w[0] and w[1] in g[1] for g, w in zip(got, want)),
      "config check says every bad line in order:\n" + r.stderr)
check(lines and lines[-1] == "7 bad lines", f"and counts them: {lines[-1:]}")
good = write("good.conf", "port = 8081\nhost = 127.0.0.1\ntrust-proxy = yes\n")
r = run("config", "check", good, os.path.join(SRC, "packaging", "chartered.conf"),
        os.path.join(SRC, "packaging", "cluster.conf"), os.path.join(SRC, "packaging", "node-a.conf"))
check(r.returncode == 0 and r.stdout.startswith("ok: 13 settings"),
      f"config check of good files (and the package's): {r.returncode} {r.stdout} {r.stderr}")
r = run("config", "check", os.path.join(WORK, "missing.conf"))
check(r.returncode == 1 and "missing.conf: cannot read it: No such file" in r.stderr,
      f"a missing file: {r.stderr}")

# ---- serve --config ----------------------------------------------------------
def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def create(port):
    c = httpc.HTTPConnection("127.0.0.1", port, timeout=20)
    c.request("POST", "/api/games", body=json.dumps(
        {"edition": "amsterdam", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]}),
        headers={"Content-Type": "application/json"})
    r = c.getresponse()
    r.read()
    c.close()
    return r.status


def serve(conf, *args):
    p = subprocess.Popen([BIN, "serve", "--config", conf] + list(args), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=CLEAN, cwd=WORK)
    line = p.stdout.readline()
    return p, line


port, other = free_port(), free_port()
db = os.path.join(WORK, "conf.db")
conf = write("serve.conf", f"port = {port}\nhost = 127.0.0.1\ndb = {db}\nnode = conf-node\n"
             "creates-per-minute = 1\nlimit-loopback = yes\nbot-threads = 1\n")
p, line = serve(conf)
try:
    check(f"serving on http://127.0.0.1:{port}/" in line, f"serve --config listens on its port: {line!r}")
    c = httpc.HTTPConnection("127.0.0.1", port, timeout=20)
    c.request("GET", "/api/health")
    h = json.loads(c.getresponse().read())
    c.close()
    check(h.get("node") == "conf-node", f"the node's name from the file: {h.get('node')}")
    check(os.path.exists(db), "the database named in the file is created")
    sts = [create(port), create(port)]
    check(sts == [201, 429], f"creates-per-minute = 1 with limit-loopback = yes reach the limits: {sts}")
finally:
    p.terminate()
    p.wait(timeout=30)
p, line = serve(conf, "--port", str(other))
try:
    check(f"serving on http://127.0.0.1:{other}/" in line, f"--port wins over the file's port: {line!r}")
finally:
    p.terminate()
    p.wait(timeout=30)
r = subprocess.run([BIN, "serve", "--config", bad], capture_output=True, text=True, timeout=60,
                   env=CLEAN)
check(r.returncode == 2 and f"{bad}:5: bot-threads must be" in r.stderr,
      f"a bad file stops the start with FILE:LINE: {r.returncode} {r.stderr[-300:]}")

# ---- the documents, checked against the list ---------------------------------
man = open(os.path.join(SRC, "man", "chartered.1")).read()
sec = man[man.index(".SH SERVE OPTIONS"):]
sec = sec[:sec.index("\n.SH ", 1)]
man_flags = set(re.findall(r"--([a-z0-9][a-z0-9-]*)", sec.replace("\\-", "-")))
for k in keys:
    check(k in man_flags, f"chartered(1) SERVE OPTIONS has --{k}")
check(man_flags <= set(keys), f"chartered(1) names no other serve flag: {sorted(man_flags - set(keys))}")
doc = open(os.path.join(SRC, "docs", "configuration.md")).read()
rows = {m.group(1): m.group(0) for m in re.finditer(r"^\| `([a-z0-9-]+)` \|.*$", doc, re.M)}
for key, flag, env, default, help_, sample in opts:
    row = rows.get(key)
    check(row is not None, f"docs/configuration.md has a row for {key}")
    if row:
        cells = [c.strip() for c in row.strip("|").split("|")]
        check(len(cells) >= 4 and cells[1] == ("-" if env == "-" else f"`{env}`") and
              cells[2] == ("-" if default == "-" else f"`{default}`"),
              f"docs/configuration.md: {key}'s variable and default are {env}, {default}: {cells[1:3]}")
check(set(rows) <= set(keys), f"docs/configuration.md has no other option: {sorted(set(rows) - set(keys))}")
pconf = open(os.path.join(SRC, "packaging", "chartered.conf")).read()
for k in keys:
    if k != "config":
        check(re.search(r"^(# )?%s =" % re.escape(k), pconf, re.M),
              f"packaging/chartered.conf lists {k}")
used = set()
for f in glob.glob(os.path.join(SRC, "src", "server", "**", "*.c"), recursive=True):
    used |= set(re.findall(r'"(CHARTERED_[A-Z_]+)"', open(f).read()))
for v in sorted(used):
    check(v in byenv, f"{v}, read by the server, is an option's variable")
help_text = run("serve", "--help").stdout
for k in keys:
    check(f"--{k}" in help_text, f"serve --help names --{k}")

finish(f"config_options: {n_checked} options through file, command line and environment; "
       "check, serve --config, and the documents agree with the list")
