"""_lib.py: opens libchartered.so with cffi in ABI mode (no compiler at import).

The declarations come from the library's own public header, chartered.h, read
at import and cleaned of what cffi's parser does not take (includes, guards,
string and suffixed constants); cffi then lays the structs out exactly as the C
compiler did. The library is checked against that header: ch_version() must
equal CH_VERSION and ch_state_size() must equal cffi's sizeof("ch_state"),
else ImportError says which files disagree.

Where the files are found (first that exists):
  library: $CHARTERED_LIB; the build tree's build/lib/libchartered.so (when
           this package runs from python/ of a source tree); the installed
           libchartered.so.0 (the system's library path).
  header:  $CHARTERED_HEADER; the source tree's include/chartered.h; the
           include/ folder beside the library's lib/ (an install prefix);
           /usr/include, /usr/local/include.
"""
import os
import re

from cffi import FFI

_HERE = os.path.dirname(os.path.abspath(__file__))
_SRC = os.path.dirname(os.path.dirname(_HERE))  # python/chartered -> repository


def _first(paths):
    for p in paths:
        if p and os.path.exists(p):
            return p
    return None


def _find_lib():
    env = os.environ.get("CHARTERED_LIB")
    if env:
        return env
    for build in ("build", "build-rel", "build-release"):
        p = os.path.join(_SRC, build, "lib", "libchartered.so")
        if os.path.exists(p):
            return p
    return "libchartered.so.0"


def _find_header(lib):
    cands = [os.environ.get("CHARTERED_HEADER"),
             os.path.join(_SRC, "include", "chartered.h")]
    if os.path.isabs(lib):
        libdir = os.path.dirname(os.path.realpath(lib))
        for up in (1, 2):  # PREFIX/lib or PREFIX/lib/<multiarch>
            prefix = libdir
            for _ in range(up):
                prefix = os.path.dirname(prefix)
            cands.append(os.path.join(prefix, "include", "chartered.h"))
    cands += ["/usr/include/chartered.h", "/usr/local/include/chartered.h"]
    return _first(cands)


def _cdef_text(header):
    """chartered.h as cffi's parser takes it."""
    text = open(header, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = []
    skip = 0
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith("#ifdef __cplusplus"):
            skip = 1
            continue
        if skip:
            if s.startswith("#endif"):
                skip = 0
            continue
        if s.startswith("#define"):
            m = re.match(r"#define\s+(\w+)\s+(0x[0-9A-Fa-f]+|\d+)\s*$", s)
            if m:
                out.append(f"#define {m.group(1)} {m.group(2)}")
            continue
        if s.startswith("#"):
            continue
        out.append(line)
    return "\n".join(out)


ffi = FFI()
LIB_PATH = _find_lib()
HEADER_PATH = _find_header(LIB_PATH)
if HEADER_PATH is None:
    raise ImportError("chartered: chartered.h not found (set CHARTERED_HEADER)")
ffi.cdef(_cdef_text(HEADER_PATH))
try:
    lib = ffi.dlopen(LIB_PATH)
except OSError as e:
    raise ImportError(f"chartered: cannot open the library {LIB_PATH}: {e} "
                      "(build it, install the package, or set CHARTERED_LIB)") from e

_want = re.search(r'#define CH_VERSION "([^"]+)"', open(HEADER_PATH, encoding="utf-8").read()).group(1)
VERSION = ffi.string(lib.ch_version()).decode()
if VERSION != _want or lib.ch_state_size() != ffi.sizeof("ch_state"):
    raise ImportError(
        f"chartered: the library {LIB_PATH} (version {VERSION}, ch_state of "
        f"{lib.ch_state_size()} bytes) does not match the header {HEADER_PATH} "
        f"(version {_want}, ch_state of {ffi.sizeof('ch_state')} bytes)")
