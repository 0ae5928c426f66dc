#!/bin/sh
# Does each kbench figure equal what a small plain program doing the same
# operation gets on this machine, at the same placement, in the same minutes?
# For every figure with a plain reference in bench/ref/, ROUNDS rounds (3):
# in each, kbench measures the figure alone (`run --only ID --placement P`,
# its default replicas) and the reference measures the same operation, in
# alternating order from round to round, so that a slow spell of the machine
# falls on both alike.  Prints each round's two figures and, per figure, the
# median of the rounds' ratios kbench / plain (for MB/s, plain / kbench, so
# that above 1 always means kbench reads the operation as costlier).
# Where lmbench 3's binaries are given (LMBENCH=its bin directory, built
# outside this repository), their figure is printed beside, unpinned as
# lmbench runs.
#   sh bench/fidelity.sh [ROUNDS] [GLOB]    KBENCH=... LMBENCH=... MAXTIME=2.5
# GLOB picks figures by kbench id ('proc.*'), default all.  The target:
# every ratio within 0.85 to 1.2.  kbench prints the level, its fast state's
# figure; the references print the median of their repetitions (mem_bw and
# stream_bw the whole run's rate), which in a busy hour holds the machine's
# slow spells: with REF_BEST=1 every reference prints its fastest repetition
# (mem_bw its fastest pass, stream_bw its fastest twentieth of the stream).
# With REF_P5=1 they print the 5th percentile of repetitions of about 10 ms,
# as long as kbench's samples, the level's own estimator (bench/ref/pick.h):
# the like-for-like check of a level in a busy hour.
. "$(dirname "$0")/lib.sh"
ROUNDS=${1:-3}
GLOB=${2:-*}
MAXTIME=${MAXTIME:-2.5}
TINY=$(dirname "$KBENCH")/kbench-tiny
TMPD=${TMPDIR:-/tmp}
# The file rows' directory: a tmpfs (/dev/shm) unless FSDIR names another.
# On ext4 a create costs several times more where many files were deleted
# in the last minute (kbench's fs.c), and alternating kbench with a
# reference on one file system makes each pay for the other's deletes.
FSDIR=${FSDIR:-$( [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo "$TMPD")}
for r in fork_loop exec_loop pingpong ring faults files stream_bw getppid_loop chase locks; do
	build_ref "$r" || exit 1
done
# As its header says: the vector loops a compiler makes for this machine, as kbench's are.
cc -O3 -march=native -o "$WORK/mem_bw" "$ROOT/bench/ref/mem_bw.c" || exit 1
# The buffer size kbench uses (bench_buffer_size), as its result records it.
MEMMB=$("$KBENCH" run --only mem.read.bw --replicas 1 --max-time 0.05 --no-store --quiet --json |
	python3 -c 'import json, sys; print(int(json.load(sys.stdin)["runs"][0]["results"][0]["values"]["size"]) >> 20)')

# The figures: kbench id, placement (- for none given), unit kind (t: a
# time, higher worse; b: a bandwidth or a rate), the factor, the field of
# the reference's output, the reference's command.  The field is multiplied
# by the factor (ns to us: 0.001), or, for a factor /X, X is divided by it
# (a time in us into a rate: /1e6).
# Each reference's repetitions (N and R, or their tries): its defaults,
# or with REF_P5 about 10 ms each on this machine and 61-201 of them.
if [ -n "${REF_P5:-}" ]; then
	GP="20000 201" FORK="60 101" EXEC="15 61" SHELLR="5 61" RING="2000 101"
	PP_SAME="2000 101" PP_SPREAD="300 101" REPS=101 CHASE="2 41" PROTN=10000 FILEN=4096
else
	GP="" FORK="" EXEC="" SHELLR="" RING="" PP_SAME="" PP_SPREAD="" REPS=11 CHASE="20 5" PROTN=100000 FILEN=16384
fi
FIGS="$WORK/figs"
cat >"$FIGS" <<EOF
sys.null - t 0.001 1 $WORK/getppid_loop $GP
proc.fork - t 1 1 $WORK/fork_loop $FORK
proc.exec - t 1 1 $WORK/exec_loop exec $TINY $EXEC
proc.shell - t 1 1 $WORK/exec_loop sh $TINY $SHELLR
aim9.fork_test - b /1e6 1 $WORK/fork_loop $FORK
aim9.exec_test - b /1e6 1 $WORK/exec_loop exec $TINY $EXEC
ctx.2p.0k same t 1 1 $WORK/ring 2 same $RING
ctx.2p.0k spread t 1 1 $WORK/ring 2 spread $RING
ipc.pipe.lat same t 1 1 $WORK/pingpong pipe same $PP_SAME
ipc.pipe.lat spread t 1 1 $WORK/pingpong pipe spread $PP_SPREAD
ipc.unix.lat same t 1 1 $WORK/pingpong unix same $PP_SAME
ipc.unix.lat spread t 1 1 $WORK/pingpong unix spread $PP_SPREAD
ipc.udp.lat same t 1 1 $WORK/pingpong udp same $PP_SAME
ipc.udp.lat spread t 1 1 $WORK/pingpong udp spread $PP_SPREAD
ipc.tcp.lat same t 1 1 $WORK/pingpong tcp same $PP_SAME
ipc.tcp.lat spread t 1 1 $WORK/pingpong tcp spread $PP_SPREAD
ipc.pipe.bw same b 1 1 $WORK/stream_bw pipe 2000 64 0 0
ipc.pipe.bw spread b 1 1 $WORK/stream_bw pipe 2000 64 0 1
ipc.unix.bw same b 1 1 $WORK/stream_bw unix 2000 64 0 0
ipc.unix.bw spread b 1 1 $WORK/stream_bw unix 2000 64 0 1
ipc.tcp.bw same b 1 1 $WORK/stream_bw tcp 2000 64 0 0
ipc.tcp.bw spread b 1 1 $WORK/stream_bw tcp 2000 64 0 1
vm.page_fault_anon - t 1 1 $WORK/faults anon 4096 $REPS $TMPD
vm.page_fault - t 1 1 $WORK/faults file $FILEN $REPS $TMPD
vm.prot_fault - t 1 1 $WORK/faults prot $PROTN $REPS $TMPD
vm.mmap - t 1 1 $WORK/faults mmap 200 $REPS $TMPD
fs.create.0k - t 1 1 $WORK/files 0 1000 $REPS $FSDIR
fs.delete.0k - t 1 2 $WORK/files 0 1000 $REPS $FSDIR
fs.create.10k - t 1 1 $WORK/files 10240 1000 $REPS $FSDIR
fs.delete.10k - t 1 2 $WORK/files 10240 1000 $REPS $FSDIR
mem.read.bw - b 1 1 $WORK/mem_bw -H -8 read $MEMMB
mem.bcopy_libc.bw - b 1 1 $WORK/mem_bw -H copy $MEMMB
mem.write.bw - b 1 1 $WORK/mem_bw -H -8 write $MEMMB
lock.atomic_add - t 1 1 $WORK/locks add
lock.xchg - t 1 1 $WORK/locks xchg
lock.cas - t 1 1 $WORK/locks cas
lock.lfence - t 1 1 $WORK/locks lfence
lock.sfence - t 1 1 $WORK/locks sfence
lock.mfence - t 1 1 $WORK/locks mfence
lock.mutex - t 1 1 $WORK/locks mutex
lock.spin - t 1 1 $WORK/locks spin
lock.futex_wake - t 1 1 $WORK/locks futex_wake
lock.futex_wait - t 1 1 $WORK/locks futex_wait
lock.handoff same t 1 1 $WORK/locks handoff same
lock.handoff spread t 1 1 $WORK/locks handoff spread
EOF
# The cache levels at the sizes kbench measures them at (one a machine, as
# its results record them), chased in the same page order.
"$KBENCH" run --only mem.lat.l1,mem.lat.l2,mem.lat.l3 --replicas 1 --max-time 0.05 --no-store --quiet --json |
	python3 -c 'import json, sys
for r in json.load(sys.stdin)["runs"][0]["results"]:
    if r["id"].startswith("mem.lat.l") and r["status"] in ("ok", "noisy"):
        print(r["id"], "%.9g" % (r["values"]["size"] / 1048576))' |
	while read -r id mb; do echo "$id - t 1 1 $WORK/chase $mb $CHASE page"; done >>"$FIGS"

# kbench's median of ID under placement P (- for the default) on stdout.
kb_fig() {
	case $1 in fs.*) dir=$FSDIR ;; *) dir=$TMPD ;; esac
	if [ "$2" = - ]; then
		"$KBENCH" run --only "$1" --no-store --quiet --json --max-time "$MAXTIME" --tmpdir "$dir"
	else
		"$KBENCH" run --only "$1" --placement "$2" --no-store --quiet --json --max-time "$MAXTIME" \
			--tmpdir "$dir"
	fi | kbench_results | awk -v id="$1" '$1 == id && ($5 == "ok" || $5 == "noisy") { print $2; exit }'
}

# The reference's figure: field F of its output times FACTOR.
ref_fig() {
	factor=$1 field=$2
	shift 2
	"$@" | awk -v f="$factor" -v k="$field" \
		'NF { if (f ~ /^\//) printf "%.6g\n", substr(f, 2) / $k; else printf "%.6g\n", $k * f; exit }'
}

[ -n "${REF_BEST:-}" ] && export REF_BEST
[ -n "${REF_P5:-}" ] && export REF_P5
echo "fidelity: $ROUNDS rounds${REF_BEST:+, references at their fastest repetition}${REF_P5:+, references at the 5th percentile of repetitions of about 10 ms}, $(date -u +%Y-%m-%dT%H:%MZ), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), load $(loadavg), files in $FSDIR"
RES="$WORK/res"
: >"$RES"
round=0
while [ $round -lt "$ROUNDS" ]; do
	while read -r id place kind factor field cmd; do
		case $id in $GLOB) ;; *) continue ;; esac
		# Alternate who goes first: kbench in even rounds, the reference in odd ones.
		if [ $((round % 2)) = 0 ]; then
			k=$(kb_fig "$id" "$place")
			p=$(ref_fig "$factor" "$field" $cmd)
		else
			p=$(ref_fig "$factor" "$field" $cmd)
			k=$(kb_fig "$id" "$place")
		fi
		echo "$id $place $kind $round ${k:-nan} ${p:-nan}" >>"$RES"
		printf '  round %d %-20s %-6s kbench %-10s plain %s\n' "$round" "$id" "$place" "${k:-failed}" "${p:-failed}"
	done <"$FIGS"
	round=$((round + 1))
done

# lmbench 3 beside, when its binaries are given (lat_proc, lat_pipe, lat_ctx, lat_syscall).
lmb() { # NAME ARGS...: lmbench's figure (the number on its last line)
	[ -n "${LMBENCH:-}" ] && [ -x "$LMBENCH/$1" ] || return 0
	b=$1
	shift
	"$LMBENCH/$b" "$@" 2>&1 | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+$/) v = $i } END { if (v != "") print v }'
}
if [ -n "${LMBENCH:-}" ]; then
	# lat_proc exec and shell start /tmp/hello, which lmbench's build makes (static here).
	[ -x "$LMBENCH/hello" ] && cp "$LMBENCH/hello" /tmp/hello
	{
		echo "sys.null $(lmb lat_syscall null)"
		echo "proc.fork $(lmb lat_proc fork)"
		echo "proc.exec $(lmb lat_proc exec)"
		echo "proc.shell $(lmb lat_proc shell)"
		echo "ipc.pipe.lat $(lmb lat_pipe)"
		echo "ipc.unix.lat $(lmb lat_unix)"
		echo "ctx.2p.0k $(lmb lat_ctx -s 0 2)"
		echo "vm.prot_fault $(lmb lat_sig prot "$WORK/fork_loop")"
	} >"$WORK/lmb"
fi

echo
echo "figure               placement  kbench     plain      kbench/plain (rounds)   lmbench"
python3 - "$RES" "$WORK/lmb" <<'EOF'
import os, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    id, place, kind, rnd, k, p = line.split()
    rows.setdefault((id, place, kind), []).append((float(k), float(p)))
lmb = {}
if os.path.exists(sys.argv[2]):
    for line in open(sys.argv[2]):
        f = line.split()
        if len(f) == 2:
            lmb[f[0]] = f[1]
inside = outside = 0
for (id, place, kind), v in rows.items():
    ok = [(k, p) for k, p in v if k == k and p == p and k > 0 and p > 0]
    if not ok:
        print("%-20s %-10s failed" % (id, place))
        continue
    ratios = [k / p if kind == 't' else p / k for k, p in ok]
    r = statistics.median(ratios)
    fine = 0.85 <= r <= 1.2
    inside += fine
    outside += not fine
    print("%-20s %-10s %-10.4g %-10.4g %5.2f%s (%s)   %s" % (
        id, place, statistics.median(k for k, _ in ok), statistics.median(p for _, p in ok), r,
        "" if fine else " !", " ".join("%.2f" % x for x in ratios), lmb.get(id, "")))
print("\n%d of %d figures within 0.85-1.2 of their plain reference (! marks the others)" % (inside, inside + outside))
EOF
