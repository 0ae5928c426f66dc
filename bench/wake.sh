#!/bin/sh
# kbench's wake.timer against cyclictest (Debian's rt-tests, installed with
# apt-get when missing: a measurement's tool, never a kbench dependency),
# in the same minutes: the same interval (1000 us), the same policy
# (SCHED_FIFO at priority 90), the same clock (CLOCK_MONOTONIC, an
# absolute clock_nanosleep), one thread, the machine otherwise idle.
# ROUNDS rounds (3), alternating who goes first; each side takes SECONDS
# (20) of wakeups.  cyclictest's p50 and p99 come from its histogram (1 us
# buckets), its max from its summary; kbench's from its result's keys.
# Prints each round and the medians of the rounds' ratios kbench /
# cyclictest; the target is 0.8 to 1.25 at p50 and p99.
#   sh bench/wake.sh [ROUNDS [SECONDS]]        KBENCH=...
. "$(dirname "$0")/lib.sh"
ROUNDS=${1:-3}
SECS=${2:-20}
if ! command -v cyclictest >/dev/null 2>&1; then
	apt-get install -y rt-tests >/dev/null 2>&1 || { echo "wake.sh: no cyclictest (rt-tests)" >&2; exit 1; }
fi
LOOPS=$((SECS * 1000))

kb_wake() { # p50 p99 max policy, in us
	"$KBENCH" run --only wake.timer --no-store --quiet --json --max-time "$SECS" |
		python3 -c '
import json, sys
r = json.load(sys.stdin)["runs"][0]["results"][0]
print("%.2f %.2f %.2f %s %d" % (r["p50"], r["p99"], r["max"], r["values"].get("policy"), r["n"]))'
}

ct_wake() { # p50 p99 max policy count, in us, from cyclictest's histogram
	cyclictest -m -q -t 1 -p 90 -i 1000 -l "$LOOPS" -h 2000 2>/dev/null | ct_hist_pcts |
		awk '{ print $1, $2, $3, "SCHED_FIFO", $4 }'
}

echo "wake: $ROUNDS rounds of $SECS s a side, interval 1000 us, SCHED_FIFO 90, $(date -u +%Y-%m-%dT%H:%MZ), $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(loadavg), cyclictest $(cyclictest --help 2>&1 | head -1 | awk '{print $NF}')"
RES="$WORK/res"
: >"$RES"
round=0
while [ $round -lt "$ROUNDS" ]; do
	if [ $((round % 2)) = 0 ]; then
		k=$(kb_wake)
		c=$(ct_wake)
	else
		c=$(ct_wake)
		k=$(kb_wake)
	fi
	echo "$round $k | $c" >>"$RES"
	echo "  round $round  kbench p50 p99 max policy n: $k   cyclictest: $c"
	round=$((round + 1))
done
python3 - "$RES" <<'EOF2'
import statistics, sys
r = {"p50": [], "p99": [], "max": []}
kv = {"p50": [], "p99": [], "max": []}
cv = {"p50": [], "p99": [], "max": []}
for line in open(sys.argv[1]):
    rnd, rest = line.split(" ", 1)
    k, c = rest.split("|")
    k, c = k.split(), c.split()
    for i, key in enumerate(("p50", "p99", "max")):
        a, b = float(k[i]), float(c[i])
        kv[key].append(a)
        cv[key].append(b)
        if b > 0:
            r[key].append(a / b)
print()
print("        kbench us  cyclictest us  kbench/cyclictest (rounds)")
for key in ("p50", "p99", "max"):
    m = statistics.median(r[key]) if r[key] else float("nan")
    fine = 0.8 <= m <= 1.25
    print("%-6s %10.2f %14.2f  %5.2f%s (%s)" % (key, statistics.median(kv[key]), statistics.median(cv[key]), m,
          "" if fine or key == "max" else " !", " ".join("%.2f" % x for x in r[key])))
EOF2
