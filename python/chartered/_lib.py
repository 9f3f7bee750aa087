"""_lib.py: opens libchartered.so with cffi in ABI mode (no compiler at import).

The declarations: an installed package carries them in _cdecl.py, generated
from chartered.h at build time (_cdef.py); from a source tree (no _cdecl.py)
they are read from include/chartered.h at import and cleaned of what cffi's
parser does not take (_cdef.cdef_text). $CHARTERED_HEADER names a header to
read instead of either. cffi then lays the structs out exactly as the C
compiler did. The library is checked against the declarations: ch_version()
must equal CH_VERSION and ch_state_size() must equal cffi's
sizeof("ch_state"), else ImportError says which files disagree.

Where the files are found (first that exists):
  library: $CHARTERED_LIB; the build tree's build/lib/libchartered.so (when
           this package runs from python/ of a source tree); for an installed
           package, libchartered.so.0 in its own prefix (PREFIX/LIBDIR, the
           package being in PREFIX/lib/python3/dist-packages); the installed
           libchartered.so.0 (the system's library path).
  header:  $CHARTERED_HEADER; the generated _cdecl.py; the source tree's
           include/chartered.h; the include/ folder beside the library's
           lib/ (an install prefix); /usr/include, /usr/local/include.
"""
import os

from cffi import FFI

from ._cdef import cdef_text, header_version

try:
    from . import _cdecl
except ImportError:  # a source tree: no generated declarations
    _cdecl = None

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
    if _cdecl is not None:
        # PREFIX/lib/python3/dist-packages/chartered -> PREFIX
        prefix = _HERE
        for _ in range(4):
            prefix = os.path.dirname(prefix)
        p = os.path.join(prefix, _cdecl.LIBDIR, "libchartered.so.0")
        if os.path.exists(p):
            return p
    return "libchartered.so.0"


def _find_header(lib):
    cands = [os.path.join(_SRC, "include", "chartered.h")]
    if os.path.isabs(lib):
        libdir = os.path.dirname(os.path.realpath(lib))
        for up in (1, 2):  # PREFIX/lib or PREFIX/lib/<multiarch>
            prefix = libdir
            for _ in range(up):
                prefix = os.path.dirname(prefix)
            cands.append(os.path.join(prefix, "include", "chartered.h"))
    cands += ["/usr/include/chartered.h", "/usr/local/include/chartered.h"]
    return _first(cands)


ffi = FFI()
LIB_PATH = _find_lib()
HEADER_PATH = os.environ.get("CHARTERED_HEADER") or None
if HEADER_PATH is None and _cdecl is not None:
    _cdef_src, _want = _cdecl.CDEF, _cdecl.VERSION
    DECLARATIONS = os.path.join(_HERE, "_cdecl.py")
else:
    if HEADER_PATH is None:
        HEADER_PATH = _find_header(LIB_PATH)
    if HEADER_PATH is None:
        raise ImportError("chartered: chartered.h not found (set CHARTERED_HEADER)")
    _text = open(HEADER_PATH, encoding="utf-8").read()
    _cdef_src, _want = cdef_text(_text), header_version(_text)
    DECLARATIONS = HEADER_PATH
ffi.cdef(_cdef_src)
try:
    lib = ffi.dlopen(LIB_PATH)
except OSError as e:
    raise ImportError(f"chartered: cannot open the library {LIB_PATH}: {e} "
                      "(build it, install the package, or set CHARTERED_LIB)") from e

VERSION = ffi.string(lib.ch_version()).decode()
if VERSION != _want or lib.ch_state_size() != ffi.sizeof("ch_state"):
    raise ImportError(
        f"chartered: the library {LIB_PATH} (version {VERSION}, ch_state of "
        f"{lib.ch_state_size()} bytes) does not match the declarations {DECLARATIONS} "
        f"(version {_want}, ch_state of {ffi.sizeof('ch_state')} bytes)")
