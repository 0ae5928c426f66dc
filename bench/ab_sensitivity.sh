#!/bin/sh
# Does kbench ab see a real change and only that?
#
# The change: every system call of the measuring process made dearer at
# runtime by a seccomp filter (bench/ref/seccomp_wrap.c, N comparisons of
# an argument; N=0 is the filter's entry alone), given to ab as --wrap-b.
# Its size is measured apart from kbench, with the plain references of
# bench/ref/ run bare and under the same filter, alternated ROUNDS_REF
# times: a figure whose reference moved by 5% or more is "moved"; a figure
# whose timed loop makes no system call (the CPU and memory rows) is "not
# moved", whatever the filter; the rest are not counted either way.
#
#   1. sizes:  each reference bare and filtered, the median ratio
#   2. A/A:    SESSIONS sessions of `kbench ab --a true --b true` (nothing
#              differs): the figures compare marks (want 0)
#   3. change: one session with --wrap-b 'seccomp_wrap N' and, as its
#              control, --wrap-a 'seccomp_wrap none' (A's worker starts
#              through the same program and shell as B's, so the filter is
#              all that differs): marked among the moved (want at least
#              90%) and among the not moved (want 0)
#   4. cost:   each session's wall time against one `kbench run` of the
#              same suite, measured between them (want at most 2x)
# Prints Markdown.  KEEP=dir keeps the databases.
#
# usage: bench/ab_sensitivity.sh   (KBENCH=..., SUITE=quick, ROUNDS=10,
#                                   SESSIONS=3, N=0, ROUNDS_REF=5)
set -eu
. "$(dirname "$0")/lib.sh"
SUITE=${SUITE:-quick}
ROUNDS=${ROUNDS:-10}
SESSIONS=${SESSIONS:-3}
N=${N:-0}
ROUNDS_REF=${ROUNDS_REF:-5}
OUT=${KEEP:-$WORK}
mkdir -p "$OUT"
TINY=$(dirname "$KBENCH")/kbench-tiny
for r in getppid_loop pingpong ring fork_loop exec_loop seccomp_wrap; do
	build_ref "$r" || exit 1
done
WRAP="$WORK/seccomp_wrap $N"
CONTROL="$WORK/seccomp_wrap none"

echo "$(date -u '+%Y-%m-%d %H:%M UTC'); kbench: $KBENCH; suite $SUITE, $ROUNDS rounds; the change: seccomp_wrap $N; load average before: $(loadavg)"
echo

# 1. The change's size on each figure with a plain reference: kbench id,
# placement, the reference's command (its figure is a time: above 1 is dearer).
cat >"$WORK/refs" <<EOF
sys.null - $WORK/getppid_loop
proc.fork - $WORK/fork_loop
proc.exec - $WORK/exec_loop exec $TINY
ctx.2p.0k same $WORK/ring 2 same
ipc.pipe.lat same $WORK/pingpong pipe same
ipc.unix.lat same $WORK/pingpong unix same
ipc.udp.lat same $WORK/pingpong udp same
ipc.tcp.lat same $WORK/pingpong tcp same
EOF
echo "## The change's size, from the plain references (bare and under the filter, $ROUNDS_REF alternated rounds)"
echo
echo "| figure | placement | bare | filtered | filtered / bare |"
echo "|---|---|---|---|---|"
: >"$WORK/sizes"
while read -r id place cmd; do
	: >"$WORK/ratios"
	for k in $(seq "$ROUNDS_REF"); do
		# shellcheck disable=SC2086
		if [ $((k % 2)) = 1 ]; then
			bare=$($cmd); filt=$($WRAP $cmd)
		else
			filt=$($WRAP $cmd); bare=$($cmd)
		fi
		echo "$bare $filt" >>"$WORK/ratios"
	done
	python3 - "$id" "$place" "$WORK/ratios" >>"$WORK/sizes" <<'EOF'
import statistics, sys
pairs = [tuple(map(float, l.split())) for l in open(sys.argv[3])]
print(sys.argv[1], sys.argv[2], statistics.median(p[0] for p in pairs),
      statistics.median(p[1] for p in pairs), statistics.median(p[1] / p[0] for p in pairs))
EOF
done <"$WORK/refs"
awk '{ printf "| %s | %s | %.4g | %.4g | %.3f |\n", $1, $2, $3, $4, $5 }' "$WORK/sizes"
echo

# One ab session: NAME, then ab's condition options; its wall time to $WORK/NAME.s.
session() {
	name=$1
	shift
	rm -f "$OUT/$name.db"*
	t0=$(date +%s.%N)
	"$KBENCH" ab --suite "$SUITE" --rounds "$ROUNDS" --db "$OUT/$name.db" --quiet \
		--label-a A --label-b B "$@" >/dev/null || true
	echo "$(date +%s.%N) - $t0" | bc >"$WORK/$name.s"
	"$KBENCH" compare A B --db "$OUT/$name.db" --json >"$OUT/$name.json"
}

# 2 and 3, with a plain run of the suite between the sessions for the cost.
for i in $(seq "$SESSIONS"); do
	session "aa$i" --a true --b true
	echo "A/A session $i: $(cat "$WORK/aa$i.s") s, load $(loadavg)" >&2
done
t0=$(date +%s.%N)
"$KBENCH" run --suite "$SUITE" --no-store --quiet >/dev/null || true
run_s=$(echo "$(date +%s.%N) - $t0" | bc)
session change --wrap-a "$CONTROL" --wrap-b "$WRAP"
echo "change session: $(cat "$WORK/change.s") s, load $(loadavg)" >&2

python3 - "$WORK" "$OUT" "$SESSIONS" "$run_s" <<'EOF'
import json, sys
work, out, sessions, run_s = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
# The rows whose timed loop makes no system call: no filter can move them.
CALL_FREE = ("cpu.", "mem.bcopy", "mem.read.", "mem.write.", "mem.lat.")
sizes = {}
for l in open(work + "/sizes"):
    f = l.split()
    sizes[(f[0], "" if f[1] == "-" else f[1])] = float(f[4])

def cells(name):
    d = json.load(open("%s/%s.json" % (out, name)))
    for r in d["rows"]:
        c = r["cells"][1]
        if c["present"]:
            yield (r["id"], r["placement"] or ""), c

print("## A/A sessions (nothing differs): figures marked")
print()
print("| session | wall s | figures | marked | paired tests | marked figures |")
print("|---|---|---|---|---|---|")
for i in range(1, sessions + 1):
    cs = list(cells("aa%d" % i))
    marked = [k for k, c in cs if c["significant"]]
    paired = sum(c["test"] == "paired-log-rounds" for k, c in cs)
    print("| %d | %.0f | %d | %d | %d | %s |" % (i, float(open("%s/aa%d.s" % (work, i)).read()),
          len(cs), len(marked), paired, ", ".join(" ".join(k).strip() for k in marked) or "-"))
print()
print("## The change (seccomp filter on B): marked against moved")
print()
print("| figure | placement | size (reference) | ab's change | its interval | marked |")
print("|---|---|---|---|---|---|")
moved = unmoved = moved_marked = unmoved_marked = other = other_marked = 0
for k, c in cells("change"):
    size = sizes.get(k)
    free = k[0].startswith(CALL_FREE)
    iv = "%+.1f..%+.1f%%" % ((c["ratio_ci_low"] - 1) * 100, (c["ratio_ci_high"] - 1) * 100) \
        if c.get("ratio_ci_low") is not None and c.get("ratio_ci_high") is not None else "-"
    if size is not None and size >= 1.05:
        moved += 1; moved_marked += c["significant"]; kind = "moved"
    elif free:
        unmoved += 1; unmoved_marked += c["significant"]; kind = "not moved"
    else:
        other += 1; other_marked += c["significant"]; kind = None
    if kind:
        print("| %s | %s | %s | %+.1f%% | %s | %s |" % (k[0], k[1] or "-",
              "%.3f" % size if size is not None else "none (no system call)",
              c["change"] * 100, iv, "*" if c["significant"] else ""))
print()
print("- moved by 5%% or more (by their references): %d, marked %d (%.0f%%)" %
      (moved, moved_marked, 100.0 * moved_marked / moved if moved else 0))
print("- not moved (no system call in the timed loop): %d, marked %d" % (unmoved, unmoved_marked))
print("- the others (no reference; not counted): %d, marked %d" % (other, other_marked))
print()
ab_s = [float(open("%s/%s.s" % (work, n)).read()) for n in ["aa%d" % i for i in range(1, sessions + 1)] + ["change"]]
print("## Cost: one `kbench run` of the suite took %.0f s; the ab sessions %s s: %.2f to %.2f times it"
      % (run_s, ", ".join("%.0f" % s for s in ab_s), min(ab_s) / run_s, max(ab_s) / run_s))
EOF
