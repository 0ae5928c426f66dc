#!/bin/bash
# Repeatability: how much the same figure moves between runs on this machine.
# Five rounds; each round runs, one after the other,
#   kbench run --suite standard --only 'sys.*,proc.*' --no-store --json --quiet
#   the plain getppid loop (bench/ref/getppid_loop.c, ns/call)
#   the plain fork loop    (bench/ref/fork_loop.c, us per fork+_exit+waitpid)
#   the same fork loop with kbench's shared libraries (sqlite, gsl, jansson,
#     ...) LD_PRELOADed, so that it is about as big as kbench's process
#   perf bench syscall basic (ns/op; skipped, and said so, without perf)
# so that slow phases of the shared machine fall on all of them alike.  Then,
# per benchmark id: the five medians, their max/min spread, how many of the
# five were flagged busy (interference > 0.25: other work used more than a
# quarter of the other CPUs while sampling) or noisy (missed the precision),
# and the spread of the rounds not flagged busy; target <= 1.15 for every
# figure not flagged for interference.  The same spread for the plain loops
# and perf bench, which have no interference flag.  Last, the fork
# comparison: kbench's proc.fork against the plain fork loop, bare and with
# kbench's libraries preloaded, with the size of each forking process
# (mappings, resident set, page tables), because a bigger process forks
# slower.
#
# usage: bench/repeatability.sh      (KBENCH=path/to/kbench, default build/kbench)
# Takes several minutes (10 instances x 3 s budget x 5 rounds, plus the rest).
set -eu
. "$(dirname "$0")/lib.sh"
ROUNDS=${ROUNDS:-5}

build_ref getppid_loop
build_ref fork_loop
PERF=yes
have_perf || PERF=no
# kbench's shared libraries but the C library and the loader, which every
# program has: preloading them makes the plain fork loop kbench's size.
LIBS=$(ldd "$KBENCH" 2>/dev/null | awk '$3 ~ /^\// && $1 !~ /^(libc\.so|ld-linux)/ { printf "%s ", $3 }' || true)

echo "load average before: $(loadavg); kbench: $KBENCH; $ROUNDS rounds"
echo
: >"$WORK/kb" ; : >"$WORK/ref"
for round in $(seq 1 "$ROUNDS"); do
	"$KBENCH" run --suite standard --only 'sys.*,proc.*' --no-store --json --quiet >"$WORK/kb.json"
	kbench_results 1 <"$WORK/kb.json" | sed "s/^/$round /" >>"$WORK/kb"
	g=$("$WORK/getppid_loop")
	f=$("$WORK/fork_loop")
	fl=nan
	[ -z "$LIBS" ] || fl=$(LD_PRELOAD="$LIBS" "$WORK/fork_loop")
	p=nan
	[ "$PERF" = no ] || p=$(perf_syscall_ns)
	echo "$round $g $f $p $(loadavg | cut -d' ' -f1) $fl" >>"$WORK/ref"
	echo "round $round done, load $(loadavg)" >&2
done

# The size of the process that forks: kbench's measuring child (a fork of
# kbench, which links sqlite, gsl and jansson) against the plain loop.
"$KBENCH" run --only proc.fork --no-store --quiet --max-time 1 >/dev/null &
kpid=$!
kid=
for _ in $(seq 1 100); do
	sleep 0.05
	kid=$(awk '{ print $1 }' "/proc/$kpid/task/$kpid/children" 2>/dev/null || true)
	[ -n "$kid" ] && [ -r "/proc/$kid/maps" ] && break
done
ksize="nan nan nan"
if [ -n "$kid" ]; then
	ksize="$(wc -l <"/proc/$kid/maps") $(awk '/^VmRSS/ { r = $2 } /^VmPTE/ { p = $2 } END { print r, p }' "/proc/$kid/status")" || ksize="nan nan nan"
fi
wait "$kpid" || true
psize=$("$WORK/fork_loop" -m)
lsize="nan nan nan"
[ -z "$LIBS" ] || lsize=$(LD_PRELOAD="$LIBS" "$WORK/fork_loop" -m)

python3 - "$WORK/kb" "$WORK/ref" "$PERF" "$ksize" "$psize" "$lsize" "$LIBS" <<'PY'
import statistics, sys
from collections import OrderedDict
kb = [l.split() for l in open(sys.argv[1])]
ref = [l.split() for l in open(sys.argv[2])]
perf = sys.argv[3] == "yes"
ksize, psize, lsize = sys.argv[4].split(), sys.argv[5].split(), sys.argv[6].split()
libs = sys.argv[7].split()
med = statistics.median
sp = lambda v: max(v) / min(v) if v and min(v) > 0 else float("nan")
nr = len(ref)

# round id median lo hi status interference n stop
by = OrderedDict()
for r in kb:
    by.setdefault(r[1], []).append((float(r[2]), r[5], float(r[6])))

print("### kbench, medians per round (us; * = busy, ~ = noisy)\n")
print("| id | " + " | ".join("r%d" % (i + 1) for i in range(nr)) +
      " | max/min | busy | noisy | max/min not busy | <= 1.15 |")
print("|---" * (nr + 6) + "|")
fails = []
for bid, v in by.items():
    cells = []
    for m, st, itf in v:
        mark = ("*" if itf > 0.25 else "") + ("~" if st == "noisy" else "")
        cells.append("%.4g%s" % (m, mark))
    ms = [m for m, _, _ in v]
    quiet = [m for m, _, itf in v if not itf > 0.25]
    busy = sum(itf > 0.25 for _, _, itf in v)
    noisy = sum(st == "noisy" for _, st, _ in v)
    sq = sp(quiet) if len(quiet) >= 2 else float("nan")
    verdict = "n/a" if len(quiet) < 2 else ("yes" if sq <= 1.15 else "NO")
    if verdict == "NO":
        fails.append(bid)
    print("| %s | %s | %.2f | %d | %d | %s | %s |" % (
        bid, " | ".join(cells), sp(ms), busy, noisy,
        "%.2f (%d)" % (sq, len(quiet)) if len(quiet) >= 2 else "- (%d)" % len(quiet), verdict))

print("\n### plain references, per round\n")
cols = [("plain getppid loop (ns)", 1), ("plain fork loop (us)", 2)]
if libs:
    cols.append(("plain fork loop, kbench's libraries preloaded (us)", 5))
if perf:
    cols.append(("perf bench syscall basic (ns/op)", 3))
print("| figure | " + " | ".join("r%d" % (i + 1) for i in range(nr)) + " | median | max/min | <= 1.15 |")
print("|---" * (nr + 4) + "|")
for name, c in cols:
    v = [float(r[c]) for r in ref]
    print("| %s | %s | %.4g | %.2f | %s |" % (name, " | ".join("%.4g" % x for x in v), med(v), sp(v),
                                             "yes" if sp(v) <= 1.15 else "NO"))
print("| load average (1 min) at round end | %s | | | |" % " | ".join(r[4] for r in ref))
if not perf:
    print("\nperf is missing or does not work on this kernel: perf bench skipped.")

print("\n### fork: kbench proc.fork against the plain fork loop\n")
kf = [m for m, _, _ in by.get("proc.fork", [])]
pf = [float(r[2]) for r in ref]
print("| | fork+exit+wait (us), median of rounds | max/min | mappings | VmRSS (kB) | VmPTE (kB) |")
print("|---|---|---|---|---|---|")
if kf:
    print("| kbench proc.fork (measuring child) | %.1f | %.2f | %s | %s | %s |" % (med(kf), sp(kf), *ksize))
print("| plain fork loop | %.1f | %.2f | %s | %s | %s |" % (med(pf), sp(pf), *psize))
lf = [float(r[5]) for r in ref] if libs else []
if lf:
    print("| plain fork loop, kbench's libraries preloaded | %.1f | %.2f | %s | %s | %s |" % (med(lf), sp(lf), *lsize))
if kf:
    print("\n- kbench / plain fork (medians): %.2f; per round: %s" % (
        med(kf) / med(pf), ", ".join("%.2f" % (k / p) for k, p in zip(kf, pf))))
    if lf:
        print("- kbench / plain fork with kbench's libraries (medians): %.2f; per round: %s" % (
            med(kf) / med(lf), ", ".join("%.2f" % (k / p) for k, p in zip(kf, lf))))
if lf:
    print("- preloaded: " + " ".join(l.rsplit("/", 1)[-1] for l in libs))
sn = [m * 1000 for m, _, _ in by.get("sys.null", [])]
if sn:
    pg = [float(r[1]) for r in ref]
    print("- kbench sys.null / plain getppid (medians): %.3f" % (med(sn) / med(pg)))
print("\n- figures not flagged busy with spread over 1.15: %s" % (", ".join(fails) or "none"))
PY
echo
echo "load average after: $(loadavg)"
