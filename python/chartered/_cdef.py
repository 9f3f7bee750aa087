"""_cdef.py: chartered.h turned into the declarations cffi's parser takes.

Used two ways. At build time (CMake, packaging/install.cmake) it runs as a
script and writes _cdecl.py, the declarations as a Python string, which is
installed with the package: an installed package then needs no header at
import (`cmake --install --prefix DIR` puts the header where the package
would not look; issue 28). From a source tree (python/ on PYTHONPATH, no
_cdecl.py) _lib.py calls cdef_text() on include/chartered.h at import.

    python3 _cdef.py HEADER OUT LIBDIR
LIBDIR: the library's folder relative to the install prefix
(CMAKE_INSTALL_LIBDIR, e.g. lib/x86_64-linux-gnu), recorded so that the
installed package finds the library of its own prefix.
"""
import re
import sys


def cdef_text(text):
    """The header's text without what cffi's parser does not take: comments,
    includes, guards, the C++ block, string and suffixed constants."""
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


def header_version(text):
    """CH_VERSION as the header defines it."""
    return re.search(r'#define CH_VERSION "([^"]+)"', text).group(1)


def main(argv):
    if len(argv) != 4:
        sys.exit("usage: python3 _cdef.py HEADER OUT LIBDIR")
    header, out, libdir = argv[1:]
    text = open(header, encoding="utf-8").read()
    body = ('"""_cdecl.py: generated at build time from chartered.h by _cdef.py;\n'
            'do not edit. The C declarations for cffi, the header\'s CH_VERSION, and\n'
            'the library folder relative to the install prefix."""\n'
            f"VERSION = {header_version(text)!r}\n"
            f"LIBDIR = {libdir!r}\n"
            f"CDEF = {cdef_text(text)!r}\n")
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(body)
    import os
    os.replace(tmp, out)


if __name__ == "__main__":
    main(sys.argv)
