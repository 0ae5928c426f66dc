#!/bin/sh
# Every benchmark family with each of its system calls failing once, on the
# command line (issue 13): for each call of the plat layer's table of
# replaceable calls, one run of the rows that make it, with
# KBENCH_INJECT=CALL:eio:0 failing the first such call of every instance.
# Each of those rows must fail, alone, with a reason naming the call; the
# run must go on to the next row (cpu.mhz, which makes none of the calls,
# is measured last of all); and no process or file may be left.
# Then kbench ab's restore and its guard, each of their calls failing once
# (KBENCH_INJECT_SELF, KBENCH_INJECT_GUARD): one line naming the call, and
# the setting put back or a line saying loudly it may not be.
# Descriptors and memory are tests/unit/test_faults.c's (in-process, under
# LeakSanitizer in the sanitizer build).  TAP output like tests/cli.sh.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
MARK="faults-$$"
# Named, since the posix platform cannot find it next to kbench by itself.
KBENCH_TINY=$(dirname "$KB")/kbench-tiny
export KBENCH_TINY
FAST="--max-time 0.05 --replicas 1 --size 64k --json --no-store --quiet"

# The rows tried, one or more per family, and the calls each makes that can
# fail (plat/sys.h), as far as the first call of each reaches.  Placement
# same pins every row between processes (sched_setaffinity).
ROWS='
sys.read open read
sys.write open write
sys.stat open stat
sys.fstat open fstat
sys.select_tcp socket bind listen connect accept write select
sig.install sigaction
sig.catch sigaction kill
proc.fork fork waitpid
proc.exec fork execve waitpid
ctx.2p.0k sched_setaffinity pipe fork read write
ipc.pipe.lat sched_setaffinity pipe fork read write
ipc.unix.lat sched_setaffinity socketpair fork read write
ipc.udp.lat sched_setaffinity socket bind connect setsockopt fork read write
ipc.tcp.connect sched_setaffinity socket bind listen setsockopt connect fork read
ipc.rpc_tcp.lat sched_setaffinity socket bind listen fork
fs.create.10k mkdir open write
fs.delete.0k mkdir open unlink
fs.reread.bw open write lseek read
vm.mmap open write mmap lseek read
vm.prot_fault mmap sigaction
vm.page_fault_anon mmap madvise
mem.read.bw mmap
mem.lat.main mmap madvise
rate.getppid getppid
rate.write open write
rate.read open read
rate.socket socket
rate.select pipe select
rate.gettimeofday gettimeofday
rate.clock_gettime clock_gettime
rate.time time
'
# Where the OS has no coarse clock, its row skips and cannot fail.
if ! "$KB" list 2>/dev/null | grep -q '^rate.clock_gettime_coarse .*\[skip'; then
	ROWS=$(printf '%s\nrate.clock_gettime_coarse clock_gettime\n' "$ROWS")
fi
# Without libtirpc the RPC rows skip, so they cannot fail.
if ! "$KB" list 2>/dev/null | grep -q '^ipc.rpc_tcp.lat'; then
	ROWS=$(echo "$ROWS" | grep -v '^ipc.rpc_')
fi
# Under the posix platform nothing can be pinned (placement same would
# skip those rows), so nothing calls sched_setaffinity.
if [ "$PLATFORM" = posix ]; then
	ROWS=$(echo "$ROWS" | sed 's/ sched_setaffinity//')
else
	FAST="$FAST --placement same"
fi
CALLS=$(echo "$ROWS" | awk '{ for (i = 2; i <= NF; i++) print $i }' | sort -u)

# results: ID STATUS REASON for each result of the run --json in $T/out
results() {
	awk '/^ *"id": "/ { id = $2; gsub(/[",]/, "", id) }
	     /^ *"status": "/ { st = $2; gsub(/[",]/, "", st) }
	     /^ *"reason": / && id != "" {
		r = $0; sub(/^ *"reason": /, "", r); print id, st, r; id = "" }' "$T/out"
}
# The words a reason may name a call by (as test_faults.c's synonyms).
word() {
	case $1 in
	open) echo 'open\|create' ;;
	unlink) echo 'unlink\|remove' ;;
	write) echo 'write\|writing' ;;
	sched_setaffinity) echo 'pin' ;;
	*) echo "$1" ;;
	esac
}
# gone: no process of the run left (the janitor may take a moment)
gone() { wait_for eval "! pgrep -f '$MARK' >/dev/null 2>&1"; }

faults=0
for call in $CALLS; do
	users=$(echo "$ROWS" | awk -v c="$call" '{ for (i = 2; i <= NF; i++) if ($i == c) print $1 }')
	only=$(echo $users cpu.mhz | tr ' ' ',')
	KBENCH_INJECT=$call:eio:0 "$KB" run --only "$only" --label "$MARK" --tmpdir "$T/tmp" $FAST \
		>"$T/out" 2>"$T/err"
	rc=$?
	results >"$T/res"
	check "$call failing: the run exits 1" [ "$rc" = 1 ]
	for id in $users; do
		check "$call failing: $id fails, once, naming it" \
			sh -c "[ \$(grep -c '^$id ' '$T/res') = 1 ] &&
				grep '^$id fail ' '$T/res' | grep -qi '$(word "$call")'"
		faults=$((faults + 1))
	done
	check "$call failing: the run goes on, cpu.mhz is measured" \
		sh -c "grep -Eq '^cpu.mhz (ok|noisy) ' '$T/res' &&
			[ \$(wc -l <'$T/res') = $(echo $users cpu.mhz | wc -w) ]"
	check "$call failing: no process left" gone
	check "$call failing: nothing left in --tmpdir" [ -z "$(ls -A "$T/tmp")" ]
done

# The text tables give the reason on one line of the row's own.
KBENCH_INJECT=fork:eio:0 "$KB" run --only 'proc.fork,ipc.pipe.lat' --max-time 0.05 --replicas 1 \
	--no-store --quiet --tmpdir "$T/tmp" >"$T/out" 2>"$T/err"
rc=$?
check "text: the reason is on the row's line" \
	sh -c "[ $rc = 1 ] && grep -q 'proc.fork: fail: fork: Input/output error' '$T/out' &&
		grep -q 'ipc.pipe.lat.*: fail: cannot fork process 1: Input/output error' '$T/out'"
# A row that makes none of the calls is measured with all of them armed.
all=$(echo "$CALLS" | sed 's/$/:eio:0/' | tr '\n' ',')
KBENCH_INJECT=$all "$KB" run --only 'cpu.mhz,sys.null' --tmpdir "$T/tmp" $FAST >"$T/out" 2>"$T/err"
rc=$?
results >"$T/res"
check "every call failing: cpu.mhz and sys.null, which make none, are measured" \
	sh -c "[ $rc = 0 ] && [ \$(grep -Ec '^(cpu.mhz|sys.null) (ok|noisy) ' '$T/res') = 2 ]"

# --- kbench ab's restore and its guard, each of their calls failing once ----
# KBENCH_INJECT_SELF fails a call of kbench's own (the guard's start, the
# restore it runs), KBENCH_INJECT_GUARD one of the guard's once kbench is
# gone.  Each failure gives one line that names the call, and the setting
# ($S) is put back (by the guard's second try where kbench's failed) or a
# line says loudly that it may not be.
S="$T/state"
AB="ab --only sys.null --rounds 2 --max-time 0.05 --tmpdir $T/tmp --no-store --quiet"
HANG="sleep 3206.$$"
# self CALL WANT STATE [ARGS...]: kbench ab with CALL's first call of its
# own failing (after AFTER=N others): exit 1, one line matching WANT,
# the setting STATE at the end.
self() {
	call=$1 want=$2 state=$3
	shift 3
	rm -f "$S"
	KBENCH_INJECT_SELF=$call:eio:${AFTER:-0} "$KB" $AB --a "echo A >$S" --restore "echo ORIG >$S" "$@" \
		>"$T/out" 2>"$T/err"
	rc=$?
	check "ab, kbench's $call failing: exit 1, one line naming it" \
		sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"$want\" '$T/err'"
	check "ab, kbench's $call failing: the setting at the end is $state" grep -qx "$state" "$S"
}
# Before any switch: the guard cannot start, nothing is changed.
rm -f "$S"
KBENCH_INJECT_SELF=fork:eio:0 "$KB" $AB --a "echo A >$S" --restore "echo ORIG >$S" >"$T/out" 2>"$T/err"
rc=$?
check "ab, the guard's fork failing: exit 1, one line, nothing switched" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'cannot start the guard that runs --restore.*: input/output error' '$T/err' && [ ! -e '$S' ]"
AFTER=1 self fork "restore 'echo ORIG.*' failed: cannot start it: fork: input/output error; the guard ran it again, and that worked" ORIG
self execve "failed: cannot run /bin/sh: execve: input/output error; the guard ran it again, and that worked" ORIG
self waitpid "failed: cannot wait for it: waitpid: input/output error; killed; the guard ran it again, and that worked" ORIG
# The log's open: the restore runs all the same, its output to /dev/null (a warning, so not --quiet).
rm -f "$S"
KBENCH_INJECT_SELF=open:eio:0 "$KB" ab --only sys.null --rounds 2 --max-time 0.05 --tmpdir "$T/tmp" \
	--no-store --a "echo A >$S" --restore "echo ORIG >$S" >"$T/out" 2>"$T/err"
rc=$?
check "ab, the restore's log not opened: exit 0, the setting put back" sh -c "[ $rc = 0 ] && grep -qx ORIG '$S'"
check "ab, the restore's log not opened: one line says its output was not kept" \
	grep -q "warning: --restore's output was not kept: cannot open '.*': input/output error" "$T/err"
# The kill at the limit: it cannot be stopped, the guard waits for it, kills it and tries again.
rm -f "$S"
KBENCH_INJECT_SELF=kill:eio:0 "$KB" $AB --a "echo A >$S" --restore "echo R >>$S; $HANG" --timeout 1 \
	>"$T/out" 2>"$T/err"
rc=$?
check "ab, the kill at the restore's limit failing: exit 1, one line, loudly not restored" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'could not be stopped: kill: input/output error; left running; the guard ran it again, and that failed too: the machine may be left as the last switch set it' '$T/err'"
check "ab, the kill at the restore's limit failing: nothing left running" \
	wait_for eval "! pgrep -f '$HANG' >/dev/null"
# guard CALL WANT STATE [ARGS...]: kbench killed (SIGKILL) mid-session, the
# guard's first CALL failing: its line on kbench's stderr (WANT, or none
# when WANT is -), the setting STATE at the end.
guard() {
	call=$1 want=$2 state=$3
	shift 3
	rm -f "$S"
	KBENCH_INJECT_GUARD=$call:eio:0 "$KB" ab --only sys.null --rounds 50 --max-time 20 --tmpdir "$T/tmp" \
		--no-store --quiet --a "echo A >$S" "$@" >"$T/out" 2>"$T/err" &
	p=$!
	wait_for eval "grep -q A '$S' 2>/dev/null"
	kill -KILL $p
	wait $p 2>/dev/null
	if [ "$want" = - ]; then
		check "ab killed, the guard's $call failing: the setting put back" wait_for grep -qx "$state" "$S"
		check "ab killed, the guard's $call failing: nothing said" [ ! -s "$T/err" ]
	else
		check "ab killed, the guard's $call failing: one line on kbench's stderr naming it" \
			wait_for eval "[ \$(wc -l <'$T/err') = 1 ] && grep -q \"kbench: guard: kbench is gone and the command that puts the machine back failed: sh -c '.*': $want\" '$T/err'"
		check "ab killed, the guard's $call failing: the setting is $state" grep -qx "$state" "$S"
	fi
}
guard fork "cannot start it: fork: input/output error" A --restore "echo ORIG >$S"
guard execve "cannot run /bin/sh: execve: input/output error" A --restore "echo ORIG >$S"
guard open - ORIG --restore "echo ORIG >$S"
guard waitpid "cannot wait for it: waitpid: input/output error; killed" A --restore "sleep 1; echo ORIG >$S"
guard kill "ran past its limit of 1 s and could not be stopped: kill: input/output error; left running" R \
	--restore "echo R >$S; $HANG" --timeout 1
pkill -f "$HANG" 2>/dev/null

# The families as src/bench/ has them: rpc.c's rows are ipc.rpc_*, memlat.c's mem.lat.*.
pairs=$(echo "$ROWS" | awk 'NF {
	f = $1; sub(/\..*/, "", f)
	if ($1 ~ /^ipc\.rpc_/) f = "rpc"
	if ($1 ~ /^mem\.lat\./) f = "memlat"
	for (i = 2; i <= NF; i++) print f, $i }' | sort -u | wc -l)
echo "# $faults faults injected: $(echo "$CALLS" | wc -l) calls over $(echo "$ROWS" | grep -c .) rows," \
	"$pairs (family, call) pairs"
echo "1..$n"
