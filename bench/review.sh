#!/usr/bin/env bash
# review.sh: the figures of `chartered review` (issue 33; docs/performance.md):
# for a greedy game of four of each edition (seed 3), the CPU time of the
# whole review, and how stable it is: the same game reviewed with seeds 1, 2
# and 3, the largest difference in any player's chance at any decision.
# The reviews of one edition run at once (3 processes); the budget is CPU
# time (--cpu), so a loaded machine changes the wall time, not the figures.
# Usage: bash bench/review.sh PATH/TO/chartered [EXTRA REVIEW FLAGS...]
set -euo pipefail
BIN=${1:?usage: review.sh PATH/TO/chartered [flags]}
shift
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for ed in amsterdam golden-age; do
    printf 'save %s/%s.json\n\n' "$T" "$ed" |
        "$BIN" play --edition "$ed" --seats greedy,greedy,greedy,greedy --seed 3 --plain >/dev/null 2>&1
    for s in 1 2 3; do
        "$BIN" review "$T/$ed.json" --seed "$s" --json "$T/$ed-$s.json" -q "$@" > "$T/$ed-$s.txt" 2>&1 &
    done
    wait
    python3 - "$T" "$ed" <<'PY'
import json, re, sys
t, ed = sys.argv[1], sys.argv[2]
runs = [json.load(open(f"{t}/{ed}-{s}.json"))["decisions"] for s in (1, 2, 3)]
cpu = [float(re.search(r"([0-9.]+) s of CPU\n", open(f"{t}/{ed}-{s}.txt").read()).group(1)) for s in (1, 2, 3)]
worst, where, diffs = 0, None, []
for i in range(len(runs[0])):
    for q in range(len(runs[0][i]["chances"])):
        v = [r[i]["chances"][q] for r in runs]
        d = max(v) - min(v)
        diffs.append(d)
        if d > worst:
            worst, where = d, (i + 1, q + 1)
diffs.sort()
print(f"{ed}: {len(runs[0])} decisions; CPU per review {min(cpu):.1f}-{max(cpu):.1f} s; "
      f"largest difference over seeds 1-3 {100 * worst:.1f} points (decision {where[0]}, player {where[1]}), "
      f"median {100 * diffs[len(diffs) // 2]:.1f}, 99th percentile {100 * diffs[int(0.99 * len(diffs))]:.1f}")
PY
done
