#!/bin/sh
# Command-line tests of the benchmarks between processes (ctx.*, ipc.*):
# each runs on small sizes with its work validated, an injected corrupt or
# lost message makes it fail, placement is honoured (the affinity of the
# live processes is read back from /proc), --parallel reports an aggregate,
# SIGKILL leaves no process, and bad input gets one line and status 2.
# TAP output like tests/cli.sh; timings are never asserted.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--max-time 0.2 --tmpdir $T/tmp --quiet --no-store"

# sane N: the run --json in $T/out has N results, all ok or noisy
sane() { "$JC" run <"$T/out" 2>/dev/null | grep -q "results $1 ok $1\$"; }
nprocs() { pgrep -f "$1" 2>/dev/null | wc -l | tr -d ' '; }
NCPU=$(nproc)
# The placements a run measures unless told (run.c's default_placements):
# same and spread where two CPUs can be pinned, the scheduler's alone where
# the platform pins nothing.
if [ "$PLATFORM" = posix ]; then NPL=1; elif [ "$NCPU" -ge 2 ]; then NPL=2; else NPL=1; fi

# --- every benchmark, small, validated -----------------------------------
kb run --only 'ctx.2p.0k,ctx.2p.16k,ctx.8p.64k,ctx.16p.0k' --json $FAST
check "ctx rings run and are sane" sane $((4 * NPL))
check "ctx stores the raw figure and its overhead" grep -q '"raw":' "$T/out"
check "ctx records ring size" grep -q '"procs": 16' "$T/out"
kb run --only 'ipc.*.lat,ipc.tcp.connect' --json $FAST
check "latency benchmarks run and are sane" sane $((7 * NPL))
kb run --only 'ipc.*.bw' --msg-size 16k --json $FAST
check "bandwidth benchmarks run with a 16 KiB chunk" sane $((3 * NPL))
check "the chunk size is recorded" grep -q '"msg_size": 16384' "$T/out"
kb run --only 'ipc.unix.lat,ipc.tcp.lat' --msg-size 3000 --json $FAST
check "latency with a 3000-byte message" sane $((2 * NPL))

# --- injected faults through the platform layer ---------------------------
# KBENCH_INJECT arms a fault in the timed process, KBENCH_INJECT_PEER in its
# peers (see plat_inject_for_peer: one side only, or two flips would cancel).
for id in ipc.pipe.lat ipc.unix.lat ipc.tcp.lat ipc.udp.lat; do
	KBENCH_INJECT_PEER=read:corrupt:200 "$KB" run --only $id --json $FAST >"$T/out" 2>"$T/err"; rc=$?
	check "$id: a byte corrupted on the way out fails the run (exit 1)" [ "$rc" = 1 ]
	check "$id: a byte corrupted on the way out is reported" grep -q 'came back changed' "$T/out"
done
KBENCH_INJECT=read:corrupt:300 "$KB" run --only ipc.pipe.lat --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "ipc.pipe.lat: a reply corrupted on the way back is reported" sh -c "[ $rc = 1 ] && grep -q 'came back changed' '$T/out'"
KBENCH_INJECT_PEER=read:eio:200 "$KB" run --only ipc.tcp.lat --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "ipc.tcp.lat: a lost message fails the run" [ "$rc" = 1 ]
check "ipc.tcp.lat: the failure names the peer's read" grep -q 'a read or write failed' "$T/out"
KBENCH_INJECT_PEER=read:eio:200 "$KB" run --only ipc.udp.lat --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "ipc.udp.lat: a lost datagram fails the run, not hangs it" [ "$rc" = 1 ]
check "ipc.udp.lat: the loss is reported" grep -q 'a message was lost' "$T/out"
for id in ipc.pipe.bw ipc.unix.bw ipc.tcp.bw; do
	KBENCH_INJECT_PEER=write:corrupt:300 "$KB" run --only $id --json $FAST >"$T/out" 2>"$T/err"; rc=$?
	check "$id: a corrupted chunk fails the run" [ "$rc" = 1 ]
	check "$id: the checksum catches it" grep -q 'arrived damaged' "$T/out"
done
KBENCH_INJECT=read:corrupt:300 "$KB" run --only ipc.tcp.bw --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "ipc.tcp.bw: a chunk damaged on reading is caught" sh -c "[ $rc = 1 ] && grep -q 'arrived damaged' '$T/out'"
KBENCH_INJECT_PEER=write:eio:300 "$KB" run --only ipc.pipe.bw --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "ipc.pipe.bw: a writer that dies fails the run" [ "$rc" = 1 ]
check "ipc.pipe.bw: the stream stop is reported" grep -q 'the stream stopped' "$T/out"
# The faults fire early enough (hundreds of ring turns, not thousands) that
# a slow sanitizer build on a busy machine still reaches them in 0.2 s.
KBENCH_INJECT_PEER=read:corrupt:400 "$KB" run --only ctx.2p.0k --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "ctx.2p.0k: a damaged token fails the run" [ "$rc" = 1 ]
check "ctx.2p.0k: the peer that saw it is named" grep -q 'the data it received was corrupted' "$T/out"
KBENCH_INJECT_PEER=write:corrupt:100 "$KB" run --only ctx.8p.0k --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "ctx.8p.0k: a token damaged inside the ring fails the run" sh -c "[ $rc = 1 ] && grep -q 'ring broke\\|came back as' '$T/out'"
KBENCH_INJECT_PEER=read:eio:100 "$KB" run --only ipc.tcp.connect --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "ipc.tcp.connect: runs with faults armed in its peer (it reads nothing)" [ "$rc" = 0 ]

# --- placement -------------------------------------------------------------
for p in same spread none; do
	kb run --only ipc.pipe.lat --placement $p --json $FAST
	check "placement $p is recorded" grep -q "\"placement\": \"$p\"" "$T/out"
done
kb run --only ipc.pipe.lat --placement same --json $FAST
needs "CPU affinity" check "placement same pins both ends to one CPU" grep -q '"cpus": "\([0-9]*\),\1"' "$T/out"
kb run --only sys.null --placement same --json $FAST
check "a single-process benchmark has no placement" grep -q '"placement": null' "$T/out"
kb run --only ipc.pipe.lat --placement same,none $FAST
check "the table groups rows by placement" sh -c "grep -q '^placement same' '$T/out' && grep -q '^placement none' '$T/out'"
kb run --only ipc.pipe.lat --json $FAST
if [ "$NPL" = 2 ]; then
	check "by default both ends pinned: on one CPU and on two, each once" \
		sh -c "[ \$(grep -c '\"placement\": \"same\"' '$T/out') = 1 ] && [ \$(grep -c '\"placement\": \"spread\"' '$T/out') = 1 ] && ! grep -q '\"placement\": \"none\"' '$T/out'"
else
	check "by default the one placement this machine can honour" sh -c "[ \$(grep -c '\"placement\":' '$T/out') = 1 ]"
fi
kb run --suite quick --only ipc.pipe.lat --json $FAST
needs "CPU affinity" check "the quick suite measures same alone" \
	sh -c "[ \$(grep -c '\"placement\":' '$T/out') = 1 ] && grep -q '\"placement\": \"same\"' '$T/out'"

# Where the ends ran, read around every sample: pinned, the record must say
# what the pinning did; left to the scheduler, the modes are given.
aparts() { # PLACEMENT: the distinct apart of every replica under it, in $T/out
	python3 -c "import json, sys
doc = json.load(open(sys.argv[1]))
print(sorted(set(p['apart'] for r in doc['runs'][0]['results'] if r['placement'] == sys.argv[2]
                 for p in r['replicas'])))" "$T/out" "$1"
}
if [ "$PLATFORM" != posix ] && [ "$NCPU" -ge 2 ]; then
	kb run --only ipc.pipe.lat,ctx.2p.0k --placement same,spread --replicas 3 --json $FAST
	got=$(aparts same)
	check "same: every sample's ends on one CPU, replica by replica (apart $got)" [ "$got" = "[0.0]" ]
	got=$(aparts spread)
	check "spread: every sample's ends on two (apart $got)" [ "$got" = "[1.0]" ]
	kb run --only sys.null --json $FAST
	check "a single-process row knows no ends (apart null)" grep -q '"apart": null' "$T/out"
	kb run --only ipc.pipe.lat --placement none --replicas 3 --json $FAST
	check "placement none: the modes are given (null when one), and each replica's ends" \
		sh -c "grep -Eq '\"modes\": (null|\\[)' '$T/out' && [ \$(grep -Ec '\"apart\": [0-9]' '$T/out') -ge 4 ]"
	DB="$T/ends.db"
	"$KB" run --only ipc.pipe.lat --placement spread --replicas 2 --db "$DB" --max-time 0.2 --tmpdir "$T/tmp" --quiet >/dev/null 2>&1
	kb show ipc.pipe.lat --db "$DB"
	check "show says where each replica's ends ran" grep -q '^ends on several CPUs in replicas 1 2$' "$T/out"
else
	skip "where the ends ran" "needs Linux's /proc and two CPUs"
	skip "where the ends ran (spread)" "as above"
	skip "a single-process row knows no ends" "as above"
	skip "placement none: the modes" "as above"
	skip "show says where each replica's ends ran" "as above"
fi

# Read the affinity back from the live processes while a ring runs.
ring_cpus() { # MARK PID: the Cpus_allowed_list of each of the instance's processes,
	# those outside kbench's own process group (kbench) and not its janitor
	# (which leads a session of its own)
	pg=$(ps -o pgid= -p "$2" | tr -d ' ')
	for p in $(pgrep -f "$1"); do
		[ "$(ps -o pgid= -p "$p" | tr -d ' ')" = "$pg" ] && continue
		[ "$(ps -o sid= -p "$p" | tr -d ' ')" = "$p" ] && continue
		sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$p/status 2>/dev/null
	done
}
affinities() { ring_cpus "$@" | sort -u | tr '\n' ' '; }
# The ring is up: its four processes there, each held to one CPU.
ring_up() { [ "$(ring_cpus "$@" | grep -cv '[-,]')" -ge 4 ]; }
if [ "$NCPU" -ge 2 ]; then
	for p in same spread; do
		MARK="aff-$p-$$"
		# A 0.01% precision is never met, so it runs its whole 20 s, in one
		# replica: with several, the ring can be between replicas.
		"$KB" run --only ctx.4p.0k --placement $p --label "$MARK" --max-time 20 --replicas 1 --precision 0.01 --tmpdir "$T/tmp" --quiet --no-store >/dev/null 2>&1 &
		pid=$!
		[ "$PLATFORM" = posix ] || wait_for ring_up "$MARK" $pid
		got=$(affinities "$MARK" $pid)
		kill -INT $pid; wait $pid
		if [ $p = same ]; then
			needs "CPU affinity" check "placement same: every process of the ring reads back one CPU" sh -c "[ \$(echo '$got' | wc -w) = 1 ] && echo '$got' | grep -qv '[-,]'"
		else
			needs "CPU affinity" check "placement spread: the ring's processes read back two single CPUs" sh -c "[ \$(echo '$got' | wc -w) = 2 ] && echo '$got' | grep -qv '[-,]'"
		fi
	done
fi
taskset -c 0 "$KB" run --only ipc.pipe.lat --placement spread --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "spread on a one-CPU mask is a skip, not a failure (exit 0)" [ "$rc" = 0 ]
needs "CPU affinity" check "spread on a one-CPU mask says why" grep -q 'placement spread needs two CPUs' "$T/out"

# --- parallel copies --------------------------------------------------------
kb run --only ipc.pipe.lat,ipc.pipe.bw --parallel 2 --json $FAST
check "--parallel 2 runs" sane $((2 * NPL))
check "--parallel 2 is recorded" grep -q '"parallel": 2' "$T/out"
check "--parallel 2 gives an aggregate" grep -q '"aggregate": [0-9]' "$T/out"
kb run --only ipc.pipe.bw --parallel 2 $FAST
check "--parallel: the report gives per-copy and aggregate" grep -q '2 copies: .* MB/s each, together .* MB/s' "$T/out"
kb run --only ipc.pipe.lat --placement same --parallel 2 --json $FAST
needs "CPU affinity" check "--parallel with a placement keeps the CPUs it pinned to" grep -q '"cpus": "[0-9]*,[0-9]*"' "$T/out"
kb run --only sys.stat --parallel 2 --json $FAST
check "--parallel works for a file benchmark (own directory per copy)" sane 1

# --- SIGKILL in the middle of a TCP benchmark -------------------------------
MARK="kill-$$"
# --precision 0.01: never met, so the instance is still running a second in
# (at 1%, a quiet machine meets it within a second and the run is over).
"$KB" run --only ipc.tcp.bw --label "$MARK" --max-time 5 --precision 0.01 --tmpdir "$T/tmp" --quiet --no-store >/dev/null 2>&1 &
pid=$!
# kbench, its janitor, the worker and the peer.
wait_for eval "[ \$(pgrep -f '$MARK' | wc -l) -ge 4 ]"
before=$(nprocs "$MARK")
kill -KILL $pid; wait $pid 2>/dev/null
wait_for eval "! pgrep -f '$MARK' >/dev/null"
check "the TCP benchmark had its peer running ($before processes)" [ "$before" -ge 3 ]
check "SIGKILL of kbench leaves no process behind" [ "$(nprocs "$MARK")" = 0 ]

# --- bad input ---------------------------------------------------------------
kb run --only ipc.pipe.lat --parallel 0 $FAST
check "--parallel 0 exits 2" [ "$rc" = 2 ]
check "--parallel 0: one line saying the range" sh -c "[ \$(wc -l <'$T/err') -le 2 ] && grep -q 'out of range' '$T/err'"
kb run --only ipc.pipe.bw --msg-size 0 $FAST
check "--msg-size 0 exits 2" [ "$rc" = 2 ]
kb run --only ipc.pipe.bw --msg-size 12q $FAST
check "--msg-size 12q exits 2 naming it" sh -c "[ $rc = 2 ] && grep -q \"'12q' is not a size\" '$T/err'"
kb run --only ipc.pipe.bw --msg-size 2g $FAST
check "--msg-size 2g is out of range (exit 2)" [ "$rc" = 2 ]
kb run --only ipc.pipe.bw --msg-size 1g --parallel 128 $FAST
check "--msg-size larger than memory allows exits 2" sh -c "[ $rc = 2 ] && grep -q 'MiB available' '$T/err'"
check "--msg-size larger than memory: one line and a hint" [ "$(lines "$T/err")" -le 2 ]
kb run --only ipc.pipe.lat --placement sideways $FAST
check "unknown placement exits 2" [ "$rc" = 2 ]
check "unknown placement names it" grep -q "unknown placement 'sideways'" "$T/err"
kb run --only ipc.udp.lat --msg-size 70000 --json $FAST
check "a message too big for UDP is a skip with the reason" grep -q 'does not fit a UDP datagram' "$T/out"
check "nothing left in the temporary directory" [ -z "$(ls -A "$T/tmp")" ]

echo "1..$n"
