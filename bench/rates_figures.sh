#!/bin/bash
# The figures issue 15 names for the rates, UP against SMP and the clocks:
#   1. rate.getppid against 1/sys.null measured in the same run (their
#      replicas alternate round by round): within 5%
#   2. every rate against a plain loop of its call (bench/ref/rate_loop.c),
#      and rate.getppid against perf bench syscall basic, alternated ROUNDS
#      times: rate.clock_gettime within 5% of its loop
#   3. the rates table with all CPUs (SMP), --cpus 0 (affinity) and, as
#      root, --cpus 0 --offline-cpus, alternated
#   4. kbench clocks: every clock source's cost per call and how it is
#      answered (vDSO or kernel)
# The machine's CPUs and clock source are as before at the end (the guard
# and kbench put them back); prints Markdown.
#
# usage: bench/rates_figures.sh      (KBENCH=path, ROUNDS=3)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-3}
build_ref rate_loop
DB="$WORK/rates.db"

echo "load average before: $(loadavg); kbench: $KBENCH; $ROUNDS rounds"
echo "clock source: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null); CPUs online: $(cat /sys/devices/system/cpu/online 2>/dev/null)"
echo

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
fig() { # ID: the median of the result ID in the run --json document $WORK/r.json
	python3 -c '
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    for r in run["results"]:
        if r["id"] == sys.argv[2]:
            print(r["median"])
' "$WORK/r.json" "$1"
}

echo "## 1. rate.getppid against 1/sys.null, one run each round"
echo
echo "| round | rate.getppid (calls/s) | 1/sys.null (calls/s) | ratio |"
echo "|---|---|---|---|"
: >"$WORK/r1"
for r in $(seq 1 "$ROUNDS"); do
	"$KBENCH" run --no-store --quiet --json --only 'rate.getppid,sys.null' >"$WORK/r.json"
	g=$(fig rate.getppid)
	s=$(fig sys.null)
	awk -v g="$g" -v s="$s" -v r="$r" 'BEGIN { i = 1e6 / s; printf "| %d | %.0f | %.0f | %.4f |\n", r, g, i, g / i; print g / i > "/dev/stderr" }' 2>>"$WORK/r1"
done
echo
echo "median ratio: $(median <"$WORK/r1") (target: within 5%)"
echo

echo "## 2. Every rate against a plain loop of the call, and perf bench, alternated"
echo
echo "bench/ref/rate_loop.c: the call in a loop lasting 10 ms (as long as kbench's"
echo "samples), each return value checked, median of 21 loops.  perf: \`perf bench"
echo "syscall basic\` (10 M getppid calls), against rate.getppid."
echo
CALLS="getppid write read socket select gettimeofday clock_gettime clock_gettime_coarse time"
: >"$WORK/r2"
for r in $(seq 1 "$ROUNDS"); do
	"$KBENCH" run --no-store --quiet --json --suite rates >"$WORK/r.json"
	for c in $CALLS; do
		echo "$c kbench $(fig "rate.$c")" >>"$WORK/r2"
		echo "$c loop $("$WORK/rate_loop" "$c")" >>"$WORK/r2"
	done
	if have_perf; then
		p=$(perf_syscall_ns)
		awk -v p="$p" 'BEGIN { printf "getppid perf %.0f\n", 1e9 / p }' >>"$WORK/r2"
	fi
done
echo "| call | kbench (calls/s) | plain loop | kbench / loop | perf bench | kbench / perf |"
echo "|---|---|---|---|---|---|"
for c in $CALLS; do
	k=$(awk -v c="$c" '$1 == c && $2 == "kbench" { print $3 }' "$WORK/r2" | median)
	l=$(awk -v c="$c" '$1 == c && $2 == "loop" { print $3 }' "$WORK/r2" | median)
	p=$(awk -v c="$c" '$1 == c && $2 == "perf" { print $3 }' "$WORK/r2" | median)
	awk -v c="$c" -v k="$k" -v l="$l" -v p="$p" 'BEGIN {
		printf "| %s | %.0f | %.0f | %.4f |", c, k, l, k / l
		if (p + 0 > 0) printf " %.0f | %.4f |\n", p, k / p; else print " - | - |" }'
done
echo
echo "(target for clock_gettime: within 5% of the plain loop)"
echo

echo "## 3. The rates table: all CPUs, --cpus 0, --cpus 0 --offline-cpus"
echo
off=""
[ "$(id -u)" = 0 ] && [ -w /sys/devices/system/cpu/cpu1/online ] && off=1
for r in $(seq 1 "$ROUNDS"); do
	"$KBENCH" run --db "$DB" --quiet --suite rates --label SMP >/dev/null
	"$KBENCH" run --db "$DB" --quiet --suite rates --label UP-affinity --cpus 0 >/dev/null
	[ -n "$off" ] && "$KBENCH" run --db "$DB" --quiet --suite rates --label UP-offline --cpus 0 --offline-cpus >/dev/null
done
echo '```'
"$KBENCH" summary --db "$DB"
echo '```'
echo
echo '```'
"$KBENCH" compare SMP UP-affinity ${off:+UP-offline} --db "$DB"
echo '```'
echo

echo "## 4. kbench clocks"
echo
echo '```'
"$KBENCH" clocks --no-store --quiet
echo '```'
echo
echo "clock source after: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null); CPUs online after: $(cat /sys/devices/system/cpu/online 2>/dev/null)"
echo "load average after: $(loadavg)"
