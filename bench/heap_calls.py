#!/usr/bin/env python3
"""heap_calls.py: how often the server calls malloc, calloc, realloc and free
per move, and from where, read from a callgrind dump (callgrind counts every
call; bench/server_instructions.sh passes its dump and the moves stored in its
window). A benchmark's helper: it prints figures and judges nothing.
Usage: python3 bench/heap_calls.py CALLGRIND_OUT MOVES [TOP]
"""
import collections
import re
import sys

HEAP = {'malloc', 'calloc', 'realloc', 'free'}


def main():
    path, moves = sys.argv[1], int(sys.argv[2])
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    names = {}

    def name(s):
        # callgrind compresses names: "(id) name" the first time, "(id)" after
        m = re.match(r'\((\d+)\)(?: (.*))?', s)
        if not m:
            return s
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), s)

    fn = cfn = None
    total = collections.Counter()
    by = collections.Counter()
    with open(path, errors='replace') as f:
        for line in f:
            if line.startswith('fn='):
                fn = name(line[3:].strip())
            elif line.startswith('cfn='):
                cfn = name(line[4:].strip())
            elif line.startswith('calls=') and cfn in HEAP and fn not in HEAP:
                n = int(line[6:].split()[0])
                total[cfn] += n
                by[(cfn, fn)] += n
    print('heap calls per move: %.1f (%s)' % (
        sum(total.values()) / moves,
        ', '.join('%s %.1f' % (k, v / moves) for k, v in total.most_common())))
    for (t, f), v in by.most_common(top):
        print('  %7.2f %-8s from %s' % (v / moves, t, f))


if __name__ == '__main__':
    main()
