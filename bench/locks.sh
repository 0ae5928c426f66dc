#!/bin/sh
# Does each lock.* figure equal what a small plain program doing the same
# primitive gets (bench/ref/locks.c), in the same minutes?  ROUNDS rounds
# (3): in each, kbench measures a row alone (`run --only ID`, its default
# replicas, the handoff under each placement) and the reference the same
# primitive, in alternating order from round to round.  The reference
# prints its fastest repetition (REF_BEST), as kbench's level is the fast
# state's.  Prints every round and, per figure, the median of the rounds'
# ratios kbench / plain; the target is 0.85 to 1.2.  Then the same with
# --cpus 0 for the UP figures beside the SMP ones, kbench only.
#   sh bench/locks.sh [ROUNDS]        KBENCH=... MAXTIME=2.25
. "$(dirname "$0")/lib.sh"
ROUNDS=${1:-3}
MAXTIME=${MAXTIME:-2.25}
# The ref's pthread calls are in the C library on this Debian; -pthread costs nothing elsewhere.
cc -O2 -pthread -o "$WORK/locks" "$ROOT/bench/ref/locks.c" || exit 1
REF_BEST=1
export REF_BEST

FIGS="$WORK/figs"
cat >"$FIGS" <<EOF2
lock.atomic_add - add
lock.xchg - xchg
lock.cas - cas
lock.lfence - lfence
lock.sfence - sfence
lock.mfence - mfence
lock.mutex - mutex
lock.spin - spin
lock.futex_wake - futex_wake
lock.futex_wait - futex_wait
lock.handoff same handoff same
lock.handoff spread handoff spread
EOF2

kb_fig() { # ID PLACEMENT [kbench options]: the level in ns
	id=$1 place=$2
	shift 2
	if [ "$place" = - ]; then
		"$KBENCH" run --only "$id" --no-store --quiet --json --max-time "$MAXTIME" "$@"
	else
		"$KBENCH" run --only "$id" --placement "$place" --no-store --quiet --json --max-time "$MAXTIME" "$@"
	fi | kbench_results | awk -v id="$id" '$1 == id && ($5 == "ok" || $5 == "noisy") { print $2; exit }'
}

MHZ=$("$KBENCH" run --only cpu.mhz --no-store --quiet --json --max-time 0.5 | kbench_results |
	awk '$1 == "cpu.mhz" { print $2; exit }')
echo "locks: $ROUNDS rounds, references at their fastest repetition, $(date -u +%Y-%m-%dT%H:%MZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), ${MHZ:-?} MHz, load $(loadavg)"
RES="$WORK/res"
: >"$RES"
round=0
while [ $round -lt "$ROUNDS" ]; do
	while read -r id place op arg; do
		if [ $((round % 2)) = 0 ]; then
			k=$(kb_fig "$id" "$place")
			p=$("$WORK/locks" $op $arg)
		else
			p=$("$WORK/locks" $op $arg)
			k=$(kb_fig "$id" "$place")
		fi
		echo "$id $place $round ${k:-nan} ${p:-nan}" >>"$RES"
		printf '  round %d %-16s %-6s kbench %-10s plain %s\n' "$round" "$id" "$place" "${k:-failed}" "${p:-failed}"
	done <"$FIGS"
	round=$((round + 1))
done

echo
echo "figure           placement  kbench ns  plain ns   cycles  kbench/plain (rounds)"
python3 - "$RES" "${MHZ:-0}" <<'EOF2'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    id, place, rnd, k, p = line.split()
    rows.setdefault((id, place), []).append((float(k), float(p)))
mhz = float(sys.argv[2])
inside = total = 0
for (id, place), v in rows.items():
    ok = [(k, p) for k, p in v if k == k and p == p and k > 0 and p > 0]
    if not ok:
        print("%-16s %-10s failed" % (id, place))
        continue
    ratios = [k / p for k, p in ok]
    r = statistics.median(ratios)
    kk = statistics.median(k for k, _ in ok)
    fine = 0.85 <= r <= 1.2
    inside += fine
    total += 1
    print("%-16s %-10s %-10.4g %-10.4g %-7.0f %5.2f%s (%s)" % (id, place, kk,
          statistics.median(p for _, p in ok), kk * mhz / 1000, r, "" if fine else " !",
          " ".join("%.2f" % x for x in ratios)))
print("\n%d of %d figures within 0.85-1.2 of their plain reference (! marks the others)" % (inside, total))
EOF2

echo
echo "UP against SMP: kbench alone, --cpus 0 (the handoff on one CPU) against both CPUs"
for id in lock.atomic_add lock.mutex lock.spin lock.futex_wake; do
	up=$(kb_fig "$id" - --cpus 0)
	smp=$(kb_fig "$id" -)
	printf '  %-16s --cpus 0 %-10s both %s ns\n' "$id" "${up:-failed}" "${smp:-failed}"
done
