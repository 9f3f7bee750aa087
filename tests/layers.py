#!/usr/bin/env python3
"""tests/layers.py: the server's layers stay layers (issue 30, src/server/README.md).

src/server is cut into folders, top to bottom: serve.c (serve.h), api/, cluster/, game/,
people/, store/, net/. A lower layer never calls a higher one. This check reads the sources
(no compiler) and fails when a file of src/server

  - includes a header of a layer above its own, or another layer's internal header (any
    header of a folder but its public ones, e.g. game/game_impl.h from outside game/);
  - names something (a function, type, macro, global or enum constant) that only a header of
    a higher layer declares: a call, or a use of a type, that goes upward.

A higher layer tells a lower one what to do through callbacks it registers (see the folders'
README.md files); those are declared in the lower layer's header, so they pass.

Usage: layers.py [SOURCE_DIR]        (default: the repository holding this file)
       layers.py --selftest [SOURCE_DIR]: copies src/server, adds one upward include and one
       upward call to a net/ file, and passes only when the check then fails on both.
Exit status 0: no upward tie; 1: the ties found, one a line (file: what, layer).
"""
import os
import re
import shutil
import sys
import tempfile

ORDER = ["net", "store", "people", "game", "cluster", "api", "serve"]
RANK = {name: i for i, name in enumerate(ORDER)}
# The headers other layers may include; any other header of a folder is its own.
PUBLIC = {
    "net/net.h", "net/log.h", "net/metrics.h", "store/store.h", "store/db.h", "people/people.h",
    "people/rating.h", "game/game.h", "game/types.h", "cluster/cluster.h", "api/api.h",
    "api/paths.h", "serve.h",
}
WORDS_NOT_NAMES = {
    "if", "while", "for", "switch", "return", "sizeof", "defined", "char", "void", "int",
    "unsigned", "long", "short", "double", "float", "const", "struct", "enum", "union",
    "typedef", "static", "extern", "size_t", "int64_t", "uint64_t", "uint32_t", "int32_t",
    "uint8_t", "_Atomic",
}


def layer_of(rel):
    """The layer of a path relative to src/server."""
    if "/" not in rel:
        return "serve"
    return rel.split("/", 1)[0]


def strip(text):
    """Comments and string/char literals out (so names in them do not count)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\\n])*'", "''", text)
    return text


def declared(text):
    """The names a header declares at its top level: functions, typedefs,
    struct tags, macros, enum constants, globals (not members or parameters)."""
    t = strip(text)
    names = set(re.findall(r"#\s*define\s+(\w+)", t))
    t = re.sub(r"#[^\n]*(?:\\\n[^\n]*)*", " ", t)  # directives out
    for body in re.findall(r"\benum\s*\w*\s*\{([^}]*)\}", t):
        names.update(re.findall(r"\b([A-Za-z_]\w*)\s*(?:=[^,]*)?(?:,|$)", body))
    names.update(re.findall(r"\bstruct\s+(\w+)\s*\{", t))
    # the top level only: the bodies of braces and parentheses emptied
    flat, depth = [], 0
    for ch in t:
        if ch in "{(":
            if depth == 0:
                flat.append(ch)
            depth += 1
        elif ch in "})":
            depth -= 1
            if depth == 0:
                flat.append(ch)
        elif depth == 0:
            flat.append(ch)
    flat = "".join(flat)
    for decl in flat.split(";"):
        decl = decl.strip()
        if not decl or re.fullmatch(r"struct\s+\w+", decl):
            continue  # a forward declaration of a tag declares nothing new
        m = re.search(r"(\w+)\s*\(\)\s*(?:\(\))?\s*$", decl)  # f(...) or (*f)(...)
        if decl.startswith("typedef") and re.search(r"\(\)\s*\(\)\s*$", decl):
            # typedef R (*name)(...): the name was inside the first parentheses
            pass
        elif m:
            names.add(m.group(1))
            continue
        m = re.search(r"(\w+)\s*(?:\[[^\]]*\])*\s*$", decl)
        if m:
            names.add(m.group(1))
    # (no brace before the name: a member of a typedef struct is not one)
    names.update(re.findall(r"\btypedef[^;({]*\(\s*\*\s*(\w+)\s*\)", t))
    return names - WORDS_NOT_NAMES


def sources(root):
    out = []
    for d, _, files in os.walk(root):
        for f in files:
            if f.endswith((".c", ".h")):
                out.append(os.path.relpath(os.path.join(d, f), root))
    return sorted(out)


def check(server):
    files = sources(server)
    # Names declared per layer, by their headers (public and internal).
    by_layer = {name: set() for name in ORDER}
    for rel in files:
        if rel.endswith(".h"):
            with open(os.path.join(server, rel), encoding="utf-8") as f:
                by_layer[layer_of(rel)] |= declared(f.read())
    problems = []
    for rel in files:
        own = layer_of(rel)
        with open(os.path.join(server, rel), encoding="utf-8") as f:
            text = f.read()
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, flags=re.M):
            # quoted includes resolve beside the file first, then from src/server
            beside = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
            target = beside if os.path.exists(os.path.join(server, beside)) else inc
            if not os.path.exists(os.path.join(server, target)):
                continue  # not a server header (chartered.h, text.h)
            other = layer_of(target)
            if RANK[other] > RANK[own]:
                problems.append("%s: includes %s (layer %s above %s)" % (rel, target, other, own))
            elif other != own and target not in PUBLIC:
                problems.append("%s: includes %s, internal to %s/" % (rel, target, other))
        # What it may name: its own layer's names and every lower layer's.
        allowed = set()
        for name in ORDER[: RANK[own] + 1]:
            allowed |= by_layer[name]
        used = set(re.findall(r"\b[A-Za-z_]\w*\b", strip(text)))
        for name in ORDER[RANK[own] + 1:]:
            for ident in sorted((used & by_layer[name]) - allowed):
                problems.append("%s: uses %s (declared in layer %s above %s)" % (rel, ident, name, own))
    return problems


def selftest(repo):
    """The check must fail on an upward include and on an upward call."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "server")
        shutil.copytree(os.path.join(repo, "src", "server"), copy)
        if check(copy):
            print("selftest: the tree fails the check already")
            return 1
        net = os.path.join(copy, "net", "listen.c")
        with open(net, encoding="utf-8") as f:
            orig = f.read()
        with open(net, "w", encoding="utf-8") as f:
            f.write(orig + '\n#include "game/game.h"\n')
        inc = check(copy)
        with open(net, "w", encoding="utf-8") as f:
            f.write(orig + "\nvoid layers_selftest(void) { srv_game_find(\"x\"); }\n")
        call = check(copy)
        ok = any("includes game/game.h" in p for p in inc) and \
            any("uses srv_game_find" in p for p in call)
        print("selftest: upward include %s, upward call %s" %
              ("caught" if inc else "MISSED", "caught" if call else "MISSED"))
        return 0 if ok else 1


def main(argv):
    args = [a for a in argv[1:] if a != "--selftest"]
    repo = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if "--selftest" in argv:
        return selftest(repo)
    problems = check(os.path.join(repo, "src", "server"))
    for p in problems:
        print(p)
    print("%d upward ties" % len(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
