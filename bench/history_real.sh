#!/bin/sh
# Does kbench history find a real step where it is, and nothing else?
#
# A history of LABELS labels (6.18.1, 6.18.2, ...) measured on this
# machine, RUNS runs a label, each run a `kbench run` of its own.  From
# label STEP_AT on, every run goes through bench/ref/seccomp_wrap N: a
# seccomp filter that makes every system call of the measuring process
# dearer at runtime (the labels before it go through `seccomp_wrap none`,
# the same program without a filter, so the filter is all that differs).
# The figures: the system calls the filter must move, and the CPU and
# memory figures whose timed loops make no system call, which it must not.
#
# The runs are made in rounds, each round every label once in an order
# shuffled anew, so that the machine's own drift over the minutes is spread
# over every label and cannot pass for a step at STEP_AT.
#
# The step's size is measured apart from kbench: the plain getppid loop of
# bench/ref/ bare and under the filter, alternated, before and after.
# Then `kbench history --by label` (text and JSON): a step is found where
# it is when a change is reported between labels STEP_AT - 1 and STEP_AT
# (within one label); the figures without system calls should have none.
# Prints Markdown.  KEEP=dir keeps the database.
#
# usage: bench/history_real.sh   (KBENCH=..., LABELS=8, RUNS=3, STEP_AT=5,
#                                 N=0, ONLY=figures)
set -eu
. "$(dirname "$0")/lib.sh"
LABELS=${LABELS:-8}
RUNS=${RUNS:-3}
STEP_AT=${STEP_AT:-5}
N=${N:-0}
MOVED='sys.null,sys.read,sys.write,sys.stat,sys.fstat,sys.open_close'
STILL='mem.read.bw,mem.write.bw,mem.bcopy_libc.bw'
ONLY=${ONLY:-$MOVED,$STILL}
OUT=${KEEP:-$WORK}
mkdir -p "$OUT"
DB=$OUT/history_real.db
rm -f "$DB"
for r in getppid_loop seccomp_wrap; do
	build_ref "$r" || exit 1
done
WRAP="$WORK/seccomp_wrap $N"
CONTROL="$WORK/seccomp_wrap none"

echo "$(date -u '+%Y-%m-%d %H:%M UTC'); kbench: $KBENCH; $LABELS labels of $RUNS runs, the step (seccomp_wrap $N) from label 6.18.$STEP_AT; load average before: $(loadavg)"
echo

# The step's size from the plain reference: bare and filtered, alternated.
size() {
	: >"$WORK/ratios"
	for k in 1 2 3 4 5; do
		if [ $((k % 2)) = 1 ]; then
			bare=$($CONTROL "$WORK/getppid_loop"); filt=$($WRAP "$WORK/getppid_loop")
		else
			filt=$($WRAP "$WORK/getppid_loop"); bare=$($CONTROL "$WORK/getppid_loop")
		fi
		echo "$bare $filt" >>"$WORK/ratios"
	done
	python3 - "$WORK/ratios" <<'EOF'
import statistics, sys
pairs = [tuple(map(float, l.split())) for l in open(sys.argv[1])]
print("%.1f ns bare, %.1f ns filtered: %+.1f%%" % (statistics.median(p[0] for p in pairs),
      statistics.median(p[1] for p in pairs), 100 * (statistics.median(p[1] / p[0] for p in pairs) - 1)))
EOF
}
echo "The step's size on the plain getppid loop, before: $(size)"

start=$(date +%s)
for round in $(seq "$RUNS"); do
	for i in $(seq "$LABELS" | shuf); do
		w=$CONTROL
		[ "$i" -ge "$STEP_AT" ] && w=$WRAP
		# shellcheck disable=SC2086
		if ! $w "$KBENCH" run --only "$ONLY" --label "6.18.$i" --db "$DB" >"$WORK/run.out" 2>&1; then
			echo "kbench run failed (label 6.18.$i, round $round):" >&2
			cat "$WORK/run.out" >&2
			exit 1
		fi
	done
done
echo "The step's size on the plain getppid loop, after: $(size)"
echo "$((LABELS * RUNS)) runs in $(($(date +%s) - start)) s"
echo
echo '```'
"$KBENCH" history --by label --db "$DB"
echo '```'
echo
"$KBENCH" history --by label --json --db "$DB" >"$WORK/h.json"
python3 - "$WORK/h.json" "$MOVED" "$STILL" "$STEP_AT" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
moved, still = sys.argv[2].split(","), sys.argv[3].split(",")
at = int(sys.argv[4])
print("| figure | should step | changes reported (from -> to: change [interval]) | verdict |")
print("|---|---|---|---|")
good = bad = 0
for f in doc["figures"]:
    if f["sentinel"]:
        continue
    want = f["id"] in moved
    if not want and f["id"] not in still:
        continue
    ch = f["changes"]
    near = [c for c in ch if abs(int(c["to"].split(".")[-1]) - at) <= 1]
    ok = bool(near) and len(ch) == len(near) if want else not ch
    good += ok
    bad += not ok
    desc = "; ".join("%s -> %s: %+.1f%% [%+.1f, %+.1f]" % (c["from"], c["to"], 100 * c["change"],
                     100 * c["ci_low"], 100 * c["ci_high"]) for c in ch) or "none"
    print("| %s%s | %s | %s | %s |" % (f["id"], " [%s]" % f["placement"] if f["placement"] else "",
          "yes" if want else "no", desc, "right" if ok else "WRONG"))
print()
print("%d figures right, %d wrong" % (good, bad))
EOF
