#!/bin/sh
# kbench's scalability points (scale.*) against will-it-scale's, in the
# same minutes, at 1 and 2 tasks (TASKS), as processes and as threads:
# for each operation, ROUNDS rounds (2), each a kbench run of the point
# (--max-time SECONDS, 3) and a will-it-scale run of its test (-s
# SECONDS after its own 5 s of warm-up), alternating who goes first.
# Both leave the tasks unpinned (will-it-scale -n), the scheduler
# choosing, and both put their files under /tmp.  Prints each round and,
# per point, the medians of the rounds' ratios kbench / will-it-scale
# (operations per second, all tasks together): kbench's level (the figure
# it prints: each replica's fastest stretch) and the median of its 10 ms
# samples, against will-it-scale's average over its measured seconds, and
# the level against its best second.  The target is 0.85 to 1.2.
#
# will-it-scale is built outside the repository, in $WIS_BUILD
# (/tmp/wis-build), from WIS_GIT (a bare git directory of
# github.com/antonblanchard/will-it-scale), else WIS_SRC (an unpacked
# tree), else a clone from GitHub; it needs libhwloc-dev.
#   sh bench/scale.sh [OPS [ROUNDS [SECONDS]]]      KBENCH=... TASKS="1 2"
#   OPS: comma-separated, of page_fault,open,pipe,mmap,futex,unlink (all)
. "$(dirname "$0")/lib.sh"
OPS=${1:-page_fault,open,pipe,mmap,futex,unlink}
ROUNDS=${2:-2}
SECS=${3:-3}
TASKS=${TASKS:-1 2}
WIS_BUILD=${WIS_BUILD:-/tmp/wis-build}

# The will-it-scale test each operation is: kbench's row says which.
peer_test() {
	case $1 in
	page_fault) echo page_fault1 ;; open) echo open1 ;; pipe) echo pipe1 ;;
	mmap) echo mmap1 ;; futex) echo futex1 ;; unlink) echo unlink1 ;;
	*) echo "scale.sh: no will-it-scale test for '$1'" >&2; exit 1 ;;
	esac
}

if [ ! -x "$WIS_BUILD/page_fault1_processes" ]; then
	mkdir -p "$WIS_BUILD" || exit 1
	if [ -n "${WIS_GIT:-}" ]; then
		git --git-dir="$WIS_GIT" archive HEAD | tar -x -C "$WIS_BUILD" || exit 1
	elif [ -n "${WIS_SRC:-}" ]; then
		cp -R "$WIS_SRC/." "$WIS_BUILD" || exit 1
	else
		git clone -q https://github.com/antonblanchard/will-it-scale "$WIS_BUILD" || exit 1
	fi
	if [ ! -e /usr/include/hwloc.h ]; then
		apt-get install -y libhwloc-dev >/dev/null 2>&1 ||
			{ echo "scale.sh: will-it-scale needs libhwloc-dev" >&2; exit 1; }
	fi
	make -s -C "$WIS_BUILD" >/dev/null 2>&1 || { echo "scale.sh: will-it-scale did not build" >&2; exit 1; }
fi
WIS_REV=$(git --git-dir="${WIS_GIT:-$WIS_BUILD/.git}" rev-parse --short HEAD 2>/dev/null || echo unknown)

kb_rate() { # OP MODE N: ops/s, all tasks
	"$KBENCH" run --only "scale.$1.$2.$3" --max-tasks "$3" --no-store --quiet --json \
		--max-time "$SECS" --tmpdir /tmp |
		python3 -c '
import json, sys
r = json.load(sys.stdin)["runs"][0]["results"][0]
ok = r["status"] in ("ok", "noisy")
print("%.0f %.0f" % (r["level"], r["median"]) if ok else "nan nan")'
}

wis_rate() { # OP MODE N: ops/s, all tasks: will-it-scale's average, then its best second
	suffix=processes
	[ "$2" = thread ] && suffix=threads
	(cd /tmp && "$WIS_BUILD/$(peer_test "$1")_$suffix" -n -t "$3" -s "$SECS") |
		awk '/^measurement$/ { on = 1; next }
		     on && /^min:/ { split($3, t, ":"); if (t[2] > best) best = t[2] }
		     /^average:/ { split($1, a, ":"); avg = a[2] }
		     END { printf "%s %s\n", avg == "" ? "nan" : avg, best == "" ? "nan" : best }'
}

echo "scale: $ROUNDS rounds of $SECS s a side, tasks $TASKS, $(date -u +%Y-%m-%dT%H:%MZ), $(uname -r), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) CPUs, load $(loadavg), will-it-scale $WIS_REV"
RES="$WORK/res"
: >"$RES"
for op in $(echo "$OPS" | tr ',' ' '); do
	peer_test "$op" >/dev/null || exit 1
	for mode in proc thread; do
		for n in $TASKS; do
			round=0
			while [ $round -lt "$ROUNDS" ]; do
				if [ $((round % 2)) = 0 ]; then
					k=$(kb_rate "$op" "$mode" "$n")
					w=$(wis_rate "$op" "$mode" "$n")
				else
					w=$(wis_rate "$op" "$mode" "$n")
					k=$(kb_rate "$op" "$mode" "$n")
				fi
				set -- ${k:-nan nan} ${w:-nan nan}
				echo "scale.$op.$mode.$n $round $*" >>"$RES"
				echo "  scale.$op.$mode.$n round $round  kbench level $1, median $2  will-it-scale $(peer_test "$op")_$mode average $3, best second $4 ops/s"
				round=$((round + 1))
			done
		done
	done
done
python3 - "$RES" <<'EOF2'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    pid, rnd, kl, km, w, b = line.split()
    rows.setdefault(pid, []).append(tuple(float(x) for x in (kl, km, w, b)))
def med_ratio(v, i, j):
    rs = [x[i] / x[j] for x in v if x[j] > 0 and x[i] == x[i]]
    return statistics.median(rs) if rs else float("nan")
def med(v, i):
    return statistics.median(x[i] for x in v)
print("kbench's level (its figure) and the median of its samples against will-it-scale's")
print("average over its measured seconds (wis) and its best second; medians of the rounds")
print("%-25s %8s %8s %8s %8s %6s %6s %6s" % ("point", "level", "median", "wis", "wis best",
                                           "lv/wis", "md/wis", "lv/bst"))
for pid, v in rows.items():
    lw, mw, lb = med_ratio(v, 0, 2), med_ratio(v, 1, 2), med_ratio(v, 0, 3)
    print("%-25s %8.0f %8.0f %8.0f %8.0f %6.3f %6.3f %6.3f" % (pid, med(v, 0), med(v, 1),
          med(v, 2), med(v, 3), lw, mw, lb))
print("target: 0.85 to 1.2")
EOF2
