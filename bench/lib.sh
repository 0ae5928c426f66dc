# Shared by bench/*.sh (sourced, not run): finds kbench, compiles the plain
# C references of bench/ref/ into a temporary directory, and wraps the
# tools the scripts compare.  Needs: cc, python3; perf (linux-perf) is
# optional and only used when it works.

ROOT=$(cd "$(dirname "$0")/.." && pwd)
KBENCH=${KBENCH:-$ROOT/build/kbench}
if [ ! -x "$KBENCH" ]; then
	echo "kbench not found at $KBENCH (build it with make, or set KBENCH)" >&2
	exit 1
fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kbench-perf.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# Run a command pinned to CPU $PIN (default 0) when taskset exists, so that
# every tool compared runs on the same CPU: on this VM the two vCPUs differ by
# up to 25% from moment to moment, and an unpinned tool lands on either.
# PIN= (empty) lets the scheduler choose.
PIN=${PIN-0}
pinned() {
	if [ -n "$PIN" ] && command -v taskset >/dev/null 2>&1; then
		taskset -c "$PIN" "$@"
	else
		"$@"
	fi
}

# Compile bench/ref/NAME.c to $WORK/NAME.
build_ref() {
	cc -O2 -o "$WORK/$1" "$ROOT/bench/ref/$1.c"
}

# Does `perf bench syscall basic` work here?  (Debian's perf is a wrapper
# that fails when no perf matches the running kernel.)
have_perf() {
	command -v perf >/dev/null 2>&1 &&
		perf bench syscall basic -l 1000 >/dev/null 2>&1
}

# `perf bench syscall basic` (10 million getppid calls), in ns per call.
perf_syscall_ns() {
	pinned perf bench syscall basic 2>&1 |
		awk '/usecs\/op/ { printf "%.1f\n", $1 * 1000; found = 1 }
		     END { if (!found) exit 1 }'
}

# One line per result of a `kbench run --json` document on stdin:
# id figure low high (all x SCALE, e.g. 1000 for us -> ns) status
# interference n stop median: the figure as the tables print it (the level
# and its interval; a result of a kbench before levels, its median and CI),
# and the median after.
kbench_results() {
	python3 -c '
import json, sys
scale = float(sys.argv[1])
doc = json.load(sys.stdin)
for run in doc["runs"]:
    for r in run["results"]:
        f = lambda k: "nan" if r.get(k) is None else "%.6g" % (r[k] * scale)
        lv = r.get("level") is not None
        i = r.get("interference")
        print(r["id"], f("level" if lv else "median"), f("level_low" if lv else "ci_low"),
              f("level_high" if lv else "ci_high"), r["status"],
              "nan" if i is None else "%.3f" % i, r.get("n") or 0, r.get("stop") or "-", f("median"))
' "${1:-1}"
}

loadavg() {
	cut -d' ' -f1-3 /proc/loadavg
}

# cyclictest's 1 us histogram (-h) on stdin: "p50 p99 max count" in us (max
# from its "# Max Latencies" line, nan without one), each percentile the
# first bucket that reaches its rank.
ct_hist_pcts() {
	python3 -c '
import sys
hist, mx = [], float("nan")
for line in sys.stdin:
    f = line.split()
    if len(f) == 2 and f[0].isdigit():
        hist.append((int(f[0]), int(f[1])))
    elif line.startswith("# Max Latencies"):
        mx = int(f[-1])
total = sum(c for _, c in hist)
def pct(p):
    rank, seen = -(-p * total // 100), 0
    for us, c in hist:
        seen += c
        if seen >= rank:
            return us
    return float("nan")
print("%.2f %.2f %.2f %d" % (pct(50), pct(99), mx, total))'
}
