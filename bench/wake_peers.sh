#!/bin/sh
# kbench's two wakeup distributions against the tools they follow, in the
# same minutes, idle and under a CPU load: wake.msg against schbench
# (fetched and built beside kbench: SCHBENCH_SRC a checkout, or
# SCHBENCH=the binary) and wake.timer against cyclictest (Debian's
# rt-tests).  Same shape on both sides: the message test one message
# thread and its workers (schbench -m 1, its think time and cache
# footprint at their smallest, -n 0 -F 4, so that its wakeups are kbench's
# bare futex wakes), SCHED_OTHER, schbench twice: -t 1, one worker woken a
# message as kbench wakes one a sample, and -t NCPU, schbench's own shape,
# whose message thread wakes every worker in turn, so that the later ones'
# latency holds the earlier ones' wakes; the timer test one thread at a
# 1000 us interval under SCHED_FIFO 90, an absolute clock_nanosleep on
# CLOCK_MONOTONIC.  The load is one busy loop a CPU, started before and
# killed after each pair.  ROUNDS rounds (2) a condition, alternating who
# goes first, SECONDS (10) a side.  p50 and p99 of each in us, and the
# medians of the rounds' ratios kbench / peer: the target is 0.8 to 1.25.
#   sh bench/wake_peers.sh [ROUNDS [SECONDS]]     KBENCH=... SCHBENCH=... PAIRS=...
. "$(dirname "$0")/lib.sh"
ROUNDS=${1:-2}
SECS=${2:-10}
NCPU=$(getconf _NPROCESSORS_ONLN)
# Which pairs, kbench's figure and the peer's function: all three unless told.
PAIRS=${PAIRS:-"wake.msg:sch1 wake.msg:sch wake.timer:ct"}
SCHBENCH=${SCHBENCH:-/tmp/schbench/schbench}
if [ ! -x "$SCHBENCH" ]; then
	[ -n "$SCHBENCH_SRC" ] && make -C "$SCHBENCH_SRC" >/dev/null 2>&1 && SCHBENCH=$SCHBENCH_SRC/schbench
	[ -x "$SCHBENCH" ] || { echo "wake_peers.sh: no schbench (SCHBENCH or SCHBENCH_SRC)" >&2; exit 1; }
fi
if ! command -v cyclictest >/dev/null 2>&1; then
	apt-get install -y rt-tests >/dev/null 2>&1 || { echo "wake_peers.sh: no cyclictest (rt-tests)" >&2; exit 1; }
fi

kb() { # ID: p50 p99 in us
	"$KBENCH" run --only "$1" --no-store --quiet --json --max-time "$SECS" |
		python3 -c '
import json, sys
r = json.load(sys.stdin)["runs"][0]["results"][0]
print("%.2f %.2f" % (r["p50"], r["p99"]))'
}

sch() { # [THREADS]: p50 p99 of schbench's wakeup latencies, in us
	"$SCHBENCH" -m 1 -t "${1:-$NCPU}" -n 0 -F 4 -r "$SECS" -i "$SECS" -j "$WORK/sch.json" >/dev/null 2>&1
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["int"]
print("%.2f %.2f" % (d["wakeup_latency_pct50.0"], d["wakeup_latency_pct99.0"]))' "$WORK/sch.json"
}

sch1() { sch 1; }

ct() { # p50 p99 from cyclictest's 1 us histogram
	cyclictest -m -q -t 1 -p 90 -i 1000 -l $((SECS * 1000)) -h 4000 2>/dev/null | ct_hist_pcts |
		awk '{ print $1, $2 }'
}

LOADPIDS=
load_on() {
	i=0
	while [ $i -lt "$NCPU" ]; do
		sh -c 'while :; do :; done' &
		LOADPIDS="$LOADPIDS $!"
		i=$((i + 1))
	done
}
load_off() {
	[ -n "$LOADPIDS" ] && kill $LOADPIDS 2>/dev/null
	wait 2>/dev/null
	LOADPIDS=
}
trap 'load_off; rm -rf "$WORK"' EXIT

echo "wake_peers: $ROUNDS rounds of $SECS s a side a condition, $NCPU CPUs, $(date -u +%Y-%m-%dT%H:%MZ), $(uname -r), load $(loadavg), cyclictest $(cyclictest --help 2>&1 | head -1 | awk '{print $NF}'), schbench $SCHBENCH"
RES="$WORK/res"
: >"$RES"
for cond in idle cpu; do
	round=0
	while [ $round -lt "$ROUNDS" ]; do
		for pair in $PAIRS; do
			set -- $(echo "$pair" | tr : ' ')
			[ $cond = cpu ] && load_on
			if [ $((round % 2)) = 0 ]; then
				k=$(kb "$1"); p=$($2)
			else
				p=$($2); k=$(kb "$1")
			fi
			load_off
			echo "$cond $1/$2 $round $k $p" >>"$RES"
			echo "  $cond $1 round $round  kbench p50 p99: $k   peer ($2): $p"
		done
		round=$((round + 1))
	done
done
python3 - "$RES" <<'EOF2'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    cond, fig, rnd, k50, k99, p50, p99 = line.split()
    rows.setdefault((cond, fig), []).append(tuple(map(float, (k50, k99, p50, p99))))
print()
print("condition figure/peer      kbench p50  peer p50  ratio   kbench p99  peer p99  ratio")
for (cond, fig), v in rows.items():
    med = [statistics.median(x[i] for x in v) for i in range(4)]
    r50 = statistics.median(x[0] / x[2] for x in v if x[2] > 0) if any(x[2] > 0 for x in v) else float("nan")
    r99 = statistics.median(x[1] / x[3] for x in v if x[3] > 0) if any(x[3] > 0 for x in v) else float("nan")
    mark = lambda r: "" if 0.8 <= r <= 1.25 else " !"
    print("%-9s %-15s %10.2f %9.2f %5.2f%-2s %10.2f %9.2f %5.2f%s" % (cond, fig, med[0], med[2], r50, mark(r50), med[1], med[3], r99, mark(r99)))
EOF2
