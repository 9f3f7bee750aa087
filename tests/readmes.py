"""tests/readmes.py: every folder has a README that names only files that exist.

The project's standard (CONTRIBUTING.md, "Where things are written"): each folder's
README.md says what its files are for and names its entry points. This check reads the
tree only (no build, well under a second) and fails when

  - a folder holding tracked files (at any depth) has no README.md, unless SKIP below
    lists it with the reason;
  - a README.md names a file that does not exist: a relative Markdown link
    `[text](path)`, or a backticked path that looks like a file (`name.ext`,
    `dir/name.ext`, `dir/`). A path is looked up from the README's folder, then from the
    top of the repository; a bare file name also anywhere in the repository (READMEs
    name their neighbours' files by name); `*` and `{a,b}` must match at least one file.
    Placeholders in capitals (`NAME.pos`, `BUILD/bench/loadgen`), `<...>` and `$VAR`
    are not names of files; nor are the generated files listed in GENERATED.

The folders come from `git ls-files`: build trees, node_modules and test artifacts are
not tracked. Outside a git checkout (a source tarball) it is skipped (exit 77).

usage: python3 tests/readmes.py SRCDIR
"""
import fnmatch
import os
import re
import subprocess
import sys

# Folders that need no README.md of their own, with why. A pattern ending in /** covers
# every folder below it (not the folder itself).
SKIP = {
    "tests/fuzz/corpus": "fuzz corpora only; tests/fuzz/README.md describes them",
    "tests/fuzz/corpus/**": "one folder of inputs per harness (tests/fuzz/README.md)",
    "bench/results/*": "the raw files of one benchmark run (arena's games.csv and "
                       "summary.json per seed): bench/results/README.md and the run's "
                       "dated .md describe them",
    "bench/results/*/**": "the same runs' seeds and settings (bench/results/README.md)",
    "python/chartered": "the package itself: python/README.md names each module, and a "
                        "README.md here would be installed into dist-packages with it",
}

# Files and folders a README may name that exist only after a build or a run, with why
# (matched against the name as written, or its last part).
GENERATED = {
    "_cdecl.py": "the Python package's declarations, written by _cdef.py at build time",
    "ch_embedded_data.c": "the data files as C, written by cmake/embed_data.cmake",
    "chartered.db": "the server's default SQLite database, made by `chartered serve`",
    "chartered_0.1.0_amd64.deb": "the Debian package, made by cpack",
    "artifacts": "the browser tests' screenshots (tests/web/artifacts/, ignored by git)",
    "ux": "screenshots of tests/web/ux.mjs under $CH_ARTIFACTS",
    "ux-keys": "screenshots of tests/web/ux-keys.mjs under $CH_ARTIFACTS",
    "learn": "screenshots of tests/web/learn.mjs under $CH_ARTIFACTS",
    "explain": "screenshots of tests/web/explain.mjs under $CH_ARTIFACTS",
    "ux/readme-board.png": "an artifact of tests/web/ux.mjs (docs/screenshots/)",
    "ux/readme-end.png": "an artifact of tests/web/ux.mjs (docs/screenshots/)",
    "analysis-panel.png": "an artifact of tests/web/analysis.mjs (docs/screenshots/)",
}

# Where `cmake --install` and the Debian package put things: such paths name installed
# files, not the repository's.
INSTALLED = ("share/", "lib/", "etc/", "usr/", "var/", "bin/")

FILE_EXT = re.compile(
    r"\.(c|h|py|sh|mjs|js|json|md|txt|cmake|board|arr|variant|pos|css|html|in|conf|"
    r"service|svg|png|woff2|csv|1|5|webmanifest|lock)$")


def tracked_files(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    files = [f for f in out.decode("utf-8", "replace").split("\0") if f]
    # a file deleted in the work tree but not yet from the index is not there
    return [f for f in files if os.path.lexists(os.path.join(root, f))]


def folders_of(files):
    dirs = set()
    for f in files:
        d = os.path.dirname(f)
        while d:
            dirs.add(d)
            d = os.path.dirname(d)
    return dirs


def skipped(folder):
    for pat, _why in SKIP.items():
        if pat.endswith("/**"):
            base = pat[:-3]
            parts = folder.split("/")
            for i in range(len(parts) - 1, 0, -1):
                if fnmatch.fnmatchcase("/".join(parts[:i]), base):
                    return True
        elif fnmatch.fnmatchcase(folder, pat):
            return True
    return False


def expand_braces(s):
    m = re.search(r"\{([^{}]*,[^{}]*)\}", s)
    if not m:
        return [s]
    out = []
    for alt in m.group(1).split(","):
        out += expand_braces(s[:m.start()] + alt + s[m.end():])
    return out


def is_placeholder(s):
    # NAME, BUILD, EDITION, LANG, SPEC, DIR, FILE, seed-S: a word of capitals stands
    # for a name (asked only of a name that was not found); <x> and $X likewise.
    return bool(re.search(r"(^|[/._-])[A-Z][A-Z0-9_]*([/._-]|$)|<|>|\$", s))


class Names:
    def __init__(self, root, files):
        self.root = root
        self.files = set(files)
        self.dirs = folders_of(files)
        self.basenames = {os.path.basename(f) for f in files}

    def exists(self, rel):
        rel = os.path.normpath(rel)
        if rel in (".", ""):
            return True
        return rel in self.files or rel in self.dirs or os.path.exists(
            os.path.join(self.root, rel)) and not rel.startswith("..")

    def matches(self, pattern):
        pattern = os.path.normpath(pattern)
        return any(fnmatch.fnmatchcase(f, pattern) for f in self.files) or any(
            fnmatch.fnmatchcase(d, pattern) for d in self.dirs)

    def found(self, folder, name, bare_anywhere):
        """Whether name, as written in folder's README, names something that exists."""
        for cand in expand_braces(name):
            cand = cand.rstrip("/")
            # from the README's folder, each folder above it (READMEs of a subfolder
            # often write paths from their parent, `api/api.h`), then the top
            tries = []
            d = folder
            while d:
                tries.append(os.path.join(d, cand))
                d = os.path.dirname(d)
            tries.append(cand)
            ok = False
            for t in tries:
                if "*" in t or "?" in t:
                    ok = self.matches(t)
                else:
                    ok = self.exists(t)
                if ok:
                    break
            if not ok and bare_anywhere and "/" not in cand:
                ok = any(fnmatch.fnmatchcase(b, cand) for b in self.basenames) or any(
                    fnmatch.fnmatchcase(os.path.basename(d), cand) for d in self.dirs)
            if not ok:
                return False
        return True


LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
TICK = re.compile(r"`([^`\n]+)`")


def check_readme(names, folder, text):
    """The names in one README.md that are not there: [(line, name, why)]."""
    bad = []
    in_fence = False
    for n, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue  # commands and examples, not names
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a URL or an anchor in this file
            path = target.split("#", 1)[0]
            if path and not names.found(folder, path, False):
                bad.append((n, target, "link to a file that does not exist"))
        for m in TICK.finditer(line):
            tok = m.group(1).strip()
            # file-like: no spaces, no call or option syntax, a file extension or a
            # trailing slash (a folder)
            if " " in tok or tok.startswith("-") or "(" in tok or "=" in tok:
                continue
            if not (FILE_EXT.search(tok) or (tok.endswith("/") and len(tok) > 1)):
                continue
            if tok.startswith(("/", "~", "#")) or "://" in tok or re.match(r"^\.[a-z0-9]+$", tok):
                continue  # an absolute path, a URL, a route (`#/`), an extension (`.pos`)
            if names.found(folder, tok, True):
                continue
            if (is_placeholder(tok) or tok.startswith(INSTALLED) or tok.rstrip("/") in GENERATED
                    or os.path.basename(tok.rstrip("/")) in GENERATED):
                continue
            bad.append((n, tok, "names a file that does not exist"))
    return bad


def run(root):
    files = tracked_files(root)
    if files is None:
        print("SKIP: not a git checkout (the folders are those git tracks)")
        return 77
    names = Names(root, files)
    problems = []
    folders = sorted(names.dirs)
    for folder in folders:
        if skipped(folder):
            continue
        if not os.path.isfile(os.path.join(root, folder, "README.md")):
            problems.append(f"{folder}/: no README.md (say what the folder's files are for "
                            "and its entry points, or list it in SKIP in tests/readmes.py "
                            "with the reason)")
    readmes = ["README.md"] + [os.path.join(d, "README.md") for d in folders
                               if os.path.isfile(os.path.join(root, d, "README.md"))]
    for r in readmes:
        with open(os.path.join(root, r), encoding="utf-8") as f:
            text = f.read()
        for line, name, why in check_readme(names, os.path.dirname(r), text):
            problems.append(f"{r}:{line}: `{name}`: {why}")
    for p in problems:
        print("FAIL:", p)
    checked = len([d for d in folders if not skipped(d)])
    print(f"{checked} folders, {len(readmes)} READMEs checked; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python3 tests/readmes.py SRCDIR")
    sys.exit(run(os.path.abspath(sys.argv[1])))
