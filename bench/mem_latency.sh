#!/bin/bash
# Main-memory latency: kbench's mem.lat.main (random order over 1 GiB, 4 KiB
# pages, one element per 256-byte slot, loop overhead subtracted, median of
# its samples) against bench/ref/chase.c, an independent random pointer
# chase over 1 GiB (every 64-byte line on one Sattolo cycle, page-aligned,
# median of 5 timed passes of 4 million loads).  ROUNDS rounds (default 5),
# alternating the two, both pinned to CPU $PIN (default 0; lib.sh), so slow
# phases of the VM hit both alike.  Prints each round, the medians, and the
# ratio kbench / reference: the issue's target is agreement within 10%.
# Also prints kbench's mem.lat.main at 4x the last-level cache (the curve's
# top) once per round, to show how much the TLB's page walks add at 1 GiB.
#
# usage: bench/mem_latency.sh   (KBENCH=path, ROUNDS=5, SIZE_MB=1024)
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-5}
SIZE_MB=${SIZE_MB:-1024}

build_ref chase
echo "mem.lat.main vs an independent chase over ${SIZE_MB} MiB, $ROUNDS rounds, CPU ${PIN:-any}"
echo "load average before: $(loadavg)"
printf '%-6s %12s %12s %8s %14s\n' round kbench_ns chase_ns ratio kbench_128M_ns
: >"$WORK/rows"
for r in $(seq 1 "$ROUNDS"); do
	k=$(pinned "$KBENCH" run --only mem.lat.main --size "${SIZE_MB}m" --no-store --quiet --json |
		kbench_results 1 | awk '$1 == "mem.lat.main" { print $2 }')
	c=$(pinned "$WORK/chase" "$SIZE_MB" 4 5 2>/dev/null)
	s=$(pinned "$KBENCH" run --only mem.lat.main --size 128m --no-store --quiet --json |
		kbench_results 1 | awk '$1 == "mem.lat.main" { print $2 }')
	ratio=$(awk -v a="$k" -v b="$c" 'BEGIN { printf "%.3f", a / b }')
	printf '%-6s %12.1f %12.1f %8s %14.1f\n' "$r" "$k" "$c" "$ratio" "$s"
	echo "$k $c $ratio" >>"$WORK/rows"
done
python3 - "$WORK/rows" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1])]
k = statistics.median(r[0] for r in rows)
c = statistics.median(r[1] for r in rows)
q = statistics.median(r[2] for r in rows)
print("medians: kbench %.1f ns, chase %.1f ns; kbench/chase %.3f (medians), %.3f (median of rounds)"
      % (k, c, k / c, q))
print("target |ratio - 1| <= 0.10:", "met" if abs(q - 1) <= 0.10 else "NOT met")
PY
echo "load average after: $(loadavg)"
