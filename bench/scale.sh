#!/bin/sh
# kbench's scalability points (scale.*) against will-it-scale's, in the
# same minutes, at 1 and 2 tasks (TASKS), as processes and as threads:
# for each operation, ROUNDS rounds (2), each a kbench run of the point
# (--max-time SECONDS, 3) and a will-it-scale run of its test (-s
# SECONDS after its own 5 s of warm-up), alternating who goes first.
# Both leave the tasks unpinned (will-it-scale -n), the scheduler
# choosing, and both put their files under /tmp.  Prints each round and,
# per point, the median of the rounds' ratios kbench / will-it-scale
# (operations per second, all tasks together) against will-it-scale's
# average over its measured seconds and against its best second; the
# target is 0.85 to 1.2 of the average.
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
print("%.0f" % r["level"] if r["status"] in ("ok", "noisy") else "nan")'
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
				set -- ${w:-nan nan}
				echo "scale.$op.$mode.$n $round ${k:-nan} $1 $2" >>"$RES"
				echo "  scale.$op.$mode.$n round $round  kbench ${k:-nan}  will-it-scale $(peer_test "$op")_$mode average $1, best second $2 ops/s"
				round=$((round + 1))
			done
		done
	done
done
python3 - "$RES" <<'EOF2'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    pid, rnd, k, w, b = line.split()
    rows.setdefault(pid, []).append((float(k), float(w), float(b)))
def med_ratio(v, i):
    rs = [x[0] / x[i] for x in v if x[i] > 0 and x[0] == x[0]]
    return (statistics.median(rs) if rs else float("nan")), rs
print("kbench's level against will-it-scale's average and its best second (ops/s)")
print("%-25s %9s %9s %9s %6s %6s" % ("point", "kbench", "wis avg", "wis best", "k/avg", "k/best"))
for pid, v in rows.items():
    ma, ra = med_ratio(v, 1)
    mb, rb = med_ratio(v, 2)
    flag = "" if 0.85 <= ma <= 1.2 else "  outside 0.85-1.2"
    print("%-25s %9.0f %9.0f %9.0f %6.3f %6.3f%s" % (pid, statistics.median(x[0] for x in v),
          statistics.median(x[1] for x in v), statistics.median(x[2] for x in v), ma, mb, flag))
EOF2
