#!/bin/bash
# Pipe round trip: kbench's ipc.pipe.lat --placement same against `perf bench
# sched pipe`, both ends of both tools on CPU 0.  The two measure the same
# thing: perf forks a second process (threads only with -T), and each of its
# loops is one write() and one read() in each process over two pipes, a
# 4-byte int each way, that is one round trip; its "usecs/op" is the total
# time (gettimeofday around the loop) over the loops.  kbench's iteration is
# one 1-byte message sent, echoed by its peer over a second pipe and checked,
# also one round trip.  Both are pinned with taskset -c $PIN (default 0), so
# perf's child inherits CPU 0, and kbench's --placement same pins both its
# ends to the first CPU it may use, which is then CPU 0 too: every switch is
# a switch on one CPU, in both tools.
#
# ROUNDS rounds (default 5); in each, both tools run one after the other, in
# the order kbench, perf on odd rounds and perf, kbench on even ones, so
# that neither always runs first after a quiet moment.  Prints a Markdown
# table of every round, the medians, their max/min spread, and the ratio
# kbench/perf on the medians and the median of per-round ratios; target:
# kbench within 10% of perf, "met" only when both ratios are.  The target
# is judged on kbench's reported figure, the median of its 10 ms samples.
# perf's figure is one mean over a 2 s run, so the same ratios are also
# shown with the mean of kbench's samples: on this VM the round trip has
# two speeds (about 6.5 and 8.5 us) that alternate within seconds, a median
# lands on one of them while a long mean mixes both, and the mean-based
# ratio tells that apart from a real kbench overhead.
#
# usage: bench/pipe_latency.sh   (KBENCH=path, ROUNDS=5, PERF_LOOPS=300000, PIN=0)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-5}
# 300 000 round trips take about 2 s at the 6-7 us this VM shows.
PERF_LOOPS=${PERF_LOOPS:-300000}

if ! command -v perf >/dev/null 2>&1 || ! perf bench sched pipe -l 1000 >/dev/null 2>&1; then
	echo "perf bench sched pipe does not work here (linux-perf missing, or no perf for this kernel)" >&2
	exit 1
fi

# perf's usecs/op for one run, or exit 1 when it printed none.
perf_pipe_us() {
	pinned perf bench sched pipe -l "$PERF_LOOPS" 2>&1 |
		awk '/usecs\/op/ { print $1; found = 1 } END { if (!found) exit 1 }'
}

# kbench's result line for ipc.pipe.lat (see kbench_results), plus its CPUs
# and the mean of its samples.
kbench_pipe() {
	pinned "$KBENCH" run --only ipc.pipe.lat --placement same --no-store --json --quiet >"$WORK/kb.json"
	local line extra
	line=$(kbench_results 1 <"$WORK/kb.json" | awk '$1 == "ipc.pipe.lat"')
	[ -n "$line" ] || { echo "kbench gave no ipc.pipe.lat result" >&2; exit 1; }
	extra=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"][0]
print((r.get("values") or {}).get("cpus", "-"), r.get("mean") or "nan")' "$WORK/kb.json")
	echo "$line $extra"
}

echo "load average before: $(loadavg); kbench: $KBENCH; $ROUNDS rounds; pinned to CPU ${PIN:-none}; perf -l $PERF_LOOPS"
echo
: >"$WORK/rounds"
for round in $(seq 1 "$ROUNDS"); do
	if [ $((round % 2)) -eq 1 ]; then
		kb=$(kbench_pipe)
		pf=$(perf_pipe_us)
	else
		pf=$(perf_pipe_us)
		kb=$(kbench_pipe)
	fi
	echo "$round $kb $pf $(loadavg | cut -d' ' -f1)" >>"$WORK/rounds"
done

python3 - "$WORK/rounds" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
# round id median lo hi status interference n stop cpus mean perf load1
print("| round | kbench ipc.pipe.lat (us) | kbench 95% CI (us) | kbench flags | kbench CPUs "
      "| kbench sample mean (us) | perf bench sched pipe (us/op) | kbench/perf | load (1 min) |")
print("|---" * 9 + "|")
kb, km, pf = [], [], []
for r in rows:
    m, lo, hi, st, itf, cpus = float(r[2]), float(r[3]), float(r[4]), r[5], float(r[6]), r[9]
    mean, p = float(r[10]), float(r[11])
    flags = [st] if st != "ok" else []
    if itf > 0.25:
        flags.append("busy %.0f%%" % (100 * itf))
    kb.append(m); km.append(mean); pf.append(p)
    print("| %s | %.3f | %.3f-%.3f | %s | %s | %.3f | %.3f | %.3f | %s |"
          % (r[0], m, lo, hi, ", ".join(flags) or "ok", cpus, mean, p, m / p, r[12]))
med = statistics.median
print("| **median** | **%.3f** | | | | **%.3f** | **%.3f** | | |" % (med(kb), med(km), med(pf)))
print("| max/min | %.2f | | | | %.2f | %.2f | | |"
      % (max(kb) / min(kb), max(km) / min(km), max(pf) / min(pf)))
print()
pr = [k / p for k, p in zip(kb, pf)]
ratio = med(kb) / med(pf)
ok = abs(ratio - 1) <= 0.10 and abs(med(pr) - 1) <= 0.10
print("- kbench / perf: %.3f (medians), %.3f (median of per-round ratios: %s) -> target within 10%%: %s"
      % (ratio, med(pr), ", ".join("%.2f" % x for x in pr), "met" if ok else "NOT met"))
pm = [k / p for k, p in zip(km, pf)]
print("- kbench sample mean / perf (like for like with perf's one long mean, not the target): "
      "%.3f (medians), %.3f (median of per-round ratios: %s)"
      % (med(km) / med(pf), med(pm), ", ".join("%.2f" % x for x in pm)))
PY
echo
echo "load average after: $(loadavg)"
