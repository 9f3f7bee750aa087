"""pgtmp.py: a private, throw-away PostgreSQL server for tests, benchmarks and
scripts/cluster.sh (issue 17). It runs initdb in a folder of its own, listens
on a Unix socket in that folder only (listen_addresses='': no TCP at all), and
is always stopped at the end, within bounded time.

PostgreSQL refuses to run as root. When this runs as root, the server's own
processes (initdb, pg_ctl, postgres) run as the `postgres` system user if it
exists, else as `nobody`, through runuser (or setpriv); the folder is given to
that user. The clients (chartered, psql) may stay root: they only connect.

Binaries are found on PATH (initdb, pg_ctl), else in `pg_config --bindir`,
else in the newest /usr/lib/postgresql/*/bin.

In Python:
    with PgTmp() as pg:          # or PgTmp(folder) to choose where
        pg.url                   # postgresql:///chartered?host=DIR&port=5432
        pg.conninfo              # host=DIR port=5432 dbname=chartered user=chartered
        pg.stop(); pg.start()    # stop and start it again (the data stays)
    available() -> (True, bindir) or (False, reason): skip a test with reason.

From a shell (scripts, the cluster helper):
    python3 tests/support/pgtmp.py start DIR   # prints the conninfo; stays up
    python3 tests/support/pgtmp.py url DIR     # prints the postgresql:// URL
    python3 tests/support/pgtmp.py stop DIR    # stops it (the data stays in DIR)
"""
import glob
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time

DB = "chartered"
USER = "chartered"
PORT = 5432  # only names the socket file (DIR/.s.PGSQL.5432): no TCP
START_TIMEOUT = 180  # seconds for initdb, and again for the start (generous: the
                     # machine that runs the tests may be loaded 15-fold)
STOP_TIMEOUT = 30


def find_bindir():
    """The folder of initdb and pg_ctl, or None."""
    p = shutil.which("initdb")
    if p and shutil.which("pg_ctl"):
        return os.path.dirname(os.path.realpath(p))
    try:
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True,
                             timeout=10).stdout.strip()
        if out and os.path.exists(os.path.join(out, "initdb")):
            return out
    except (OSError, subprocess.SubprocessError):
        pass
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda s: [int(x) if x.isdigit() else 0 for x in s.split("/")])
    return os.path.dirname(found[-1]) if found else None


def available():
    """(True, bindir) when a PostgreSQL server can be started here, else
    (False, why)."""
    b = find_bindir()
    if not b:
        return False, ("PostgreSQL server binaries not found (PATH, pg_config --bindir, "
                       "/usr/lib/postgresql/*/bin): install the Debian package postgresql "
                       "(scripts/install-deps.sh does)")
    return True, b


def require():
    """Stop a test that needs PostgreSQL where it cannot start: "SKIP: why",
    exit status 77 (CTest's SKIP_RETURN_CODE of the tests that use it)."""
    ok, why = available()
    if not ok:
        print("SKIP: " + why)
        sys.exit(77)


def _run_as():
    """(prefix of the command line, uid, gid) for the server's processes."""
    if os.geteuid() != 0:
        return [], None, None
    for name in ("postgres", "nobody"):
        try:
            pw = pwd.getpwnam(name)
        except KeyError:
            continue
        if shutil.which("runuser"):
            return ["runuser", "-u", name, "--"], pw.pw_uid, pw.pw_gid
        return ["setpriv", "--reuid=%d" % pw.pw_uid, "--regid=%d" % pw.pw_gid,
                "--clear-groups"], pw.pw_uid, pw.pw_gid
    raise RuntimeError("running as root and neither the postgres nor the nobody user exists")


class PgTmp:
    def __init__(self, folder=None, keep=False):
        """folder: where the data and the socket go (made if missing; default
        a new folder in /tmp, removed at the end unless keep)."""
        ok, b = available()
        if not ok:
            raise RuntimeError(b)
        self.bindir = b
        self.own_folder = folder is None
        # /tmp: a short path (a Unix socket path has at most 107 bytes) that
        # the postgres user can reach (a build folder under /root may not be)
        self.dir = os.path.abspath(folder or tempfile.mkdtemp(prefix="chpg-", dir="/tmp"))
        self.keep = keep
        self.data = os.path.join(self.dir, "data")
        self.log = os.path.join(self.dir, "postgres.log")
        self.prefix, self.uid, self.gid = _run_as()
        self.running = False

    @property
    def conninfo(self):
        return "host=%s port=%d dbname=%s user=%s" % (self.dir, PORT, DB, USER)

    @property
    def url(self):
        return "postgresql:///%s?host=%s&port=%d&user=%s" % (DB, self.dir, PORT, USER)

    def _tool(self, name, *args, timeout=START_TIMEOUT, check=True):
        cmd = self.prefix + [os.path.join(self.bindir, name)] + list(args)
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        if check and r.returncode != 0:
            raise RuntimeError("%s failed (%d): %s%s" % (name, r.returncode, r.stdout[-2000:],
                                                         r.stderr[-2000:]))
        return r

    def _client(self, name, *args, timeout=START_TIMEOUT):
        tool = os.path.join(self.bindir, name)
        if not os.path.exists(tool):
            tool = shutil.which(name) or tool
        return subprocess.run([tool, "-h", self.dir, "-p", str(PORT), "-U", USER] + list(args),
                              capture_output=True, text=True, timeout=timeout)

    def _check_reachable(self):
        """The server's user must be able to reach the folder: every folder
        above it lets others through (o+x), or is that user's."""
        d = os.path.dirname(self.dir)
        while d and d != "/":
            st = os.stat(d)
            if not (st.st_mode & 0o001 or st.st_uid == self.uid):
                raise RuntimeError("PostgreSQL runs as uid %d here (root may not run it) and "
                                   "cannot reach %s through %s (mode %o): choose a folder "
                                   "under /tmp, or chmod o+x %s"
                                   % (self.uid, self.dir, d, st.st_mode & 0o777, d))
            d = os.path.dirname(d)

    def start(self):
        """initdb (first time only) and start; returns self."""
        os.makedirs(self.dir, exist_ok=True)
        if self.uid is not None:
            self._check_reachable()
        if self.uid is not None:
            os.chown(self.dir, self.uid, self.gid)
        os.chmod(self.dir, 0o755)  # clients (root, other users) reach the socket
        fresh = not os.path.exists(os.path.join(self.data, "PG_VERSION"))
        if fresh:
            # --no-sync: initdb's own fsync of its files is most of its time on
            # a loaded machine; a test cluster made again from nothing needs
            # no crash safety of its template (the server itself keeps fsync on)
            self._tool("initdb", "-D", self.data, "-U", USER, "-A", "trust", "-E", "UTF8",
                       "--no-locale", "--no-instructions", "--no-sync")
            with open(os.path.join(self.data, "postgresql.conf"), "a") as f:
                # the socket in our own folder, no TCP at all
                f.write("\nlisten_addresses = ''\nunix_socket_directories = '%s'\n"
                        "port = %d\nmax_connections = 100\n" % (self.dir, PORT))
        if os.path.exists(self.log) and self.uid is not None:
            os.chown(self.log, self.uid, self.gid)
        if self.uid is not None and not os.path.exists(self.log):
            open(self.log, "w").close()
            os.chown(self.log, self.uid, self.gid)
        self._tool("pg_ctl", "-D", self.data, "-l", self.log, "-w", "-t", str(START_TIMEOUT),
                   "start", timeout=START_TIMEOUT + 10)
        self.running = True
        if fresh:
            r = self._client("createdb", DB)
            if r.returncode != 0 and "already exists" not in r.stderr:
                self.stop()
                raise RuntimeError("createdb failed: " + r.stderr)
        return self

    def stop(self, mode="fast"):
        """Stop the server (bounded: a server that does not stop in time is
        killed). The data stays."""
        if not os.path.exists(os.path.join(self.data, "postmaster.pid")):
            self.running = False
            return
        try:
            self._tool("pg_ctl", "-D", self.data, "-m", mode, "-w", "-t", str(STOP_TIMEOUT),
                       "stop", timeout=STOP_TIMEOUT + 10, check=False)
        except subprocess.TimeoutExpired:
            pass
        pidfile = os.path.join(self.data, "postmaster.pid")
        if os.path.exists(pidfile):  # still there: kill it and its children
            try:
                with open(pidfile) as f:
                    pid = int(f.readline().strip())
                os.killpg(os.getpgid(pid), signal.SIGKILL)
            except (OSError, ValueError):
                pass
            for _ in range(50):
                if not os.path.exists(pidfile):
                    break
                time.sleep(0.1)
        self.running = False

    def psql(self, sql, db=DB, sep="|"):
        """Run SQL with psql on database db; its standard output (fields
        separated by sep)."""
        r = self._client("psql", "-d", db, "-v", "ON_ERROR_STOP=1", "-F", sep, "-Atc", sql)
        if r.returncode != 0:
            raise RuntimeError("psql: " + r.stderr)
        return r.stdout

    def close(self):
        self.stop()
        if self.own_folder and not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        try:
            return self.start()
        except BaseException:
            self.close()
            raise

    def __exit__(self, *exc):
        self.close()


def main(argv):
    if len(argv) != 3 or argv[1] not in ("start", "stop", "url", "conninfo"):
        sys.stderr.write("usage: pgtmp.py start|stop|url|conninfo DIR\n")
        return 2
    ok, why = available()
    if not ok:
        sys.stderr.write("pgtmp: %s\n" % why)
        return 77  # CTest/automake's "skipped"
    pg = PgTmp(argv[2], keep=True)
    if argv[1] == "start":
        pg.start()
        print(pg.conninfo)
    elif argv[1] == "stop":
        pg.stop()
    elif argv[1] == "url":
        print(pg.url)
    else:
        print(pg.conninfo)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
