#!/bin/sh
# Command-line tests of the probes: what locking costs (lock.*) and wakeup
# latency as a distribution (wake.*).  Short runs of each row, in text,
# JSON and CSV; that the work happened (a status of ok or noisy, each
# row's own checks); the handoff under both pinned placements and under
# --cpus with one CPU; a distribution's percentiles and histogram; and
# SCHED_FIFO refused (no permission in a user namespace, and the call
# made to fail) measured all the same under SCHED_OTHER, and said.  No
# figure is judged: the machine is shared.  TAP like cli.sh.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--max-time 0.05 --replicas 1 --tmpdir $T/tmp --quiet"
DB="$T/l.db"
LOCKS='lock.atomic_add lock.xchg lock.cas lock.lfence lock.sfence lock.mfence lock.mutex lock.spin lock.futex_wake lock.futex_wait lock.handoff'

kb list --suite full
check "list --suite full has the eleven lock rows, in the family's order" \
	[ "$(awk '/^lock\./ { print $1 }' "$T/out" | tr '\n' ' ')" = "$LOCKS " ]
check "... in ns, lower better" [ "$(grep -Ec '^lock\.[a-z_]+ +ns +lower +full' "$T/out")" = 11 ]
check "... and wake.timer and wake.msg in us" [ "$(grep -Ec '^wake\.(timer|msg) +us +lower +full' "$T/out")" = 2 ]
kb list --suite standard
check "the standard suite has none of them (its 5 minutes)" sh -c "! grep -Eq '^(lock|wake)\.' '$T/out'"

# Every lock row at once, both placements of the handoff where two CPUs are allowed.
kb run --only 'lock.*' --placement same,spread --label L --db "$DB" $FAST
check "run --only 'lock.*' exits 0" [ "$rc" = 0 ]
check "run prints the locking table" grep -q '^Locking - ns per operation - smaller is better$' "$T/out"
check "... a row per primitive" \
	[ "$(grep -Ec ' (atomic_add|xchg|cas|mutex|spin) +[0-9.]+ ' "$T/out")" = 5 ]
needs "futex" check "... the futex rounds measured" \
	[ "$(grep -Ec ' futex_(wake|wait) +[0-9.]+ ' "$T/out")" = 2 ]
needs "CPU affinity" check "... the handoff under same" grep -Eq ' handoff \[same\] +[0-9.]+ ' "$T/out"
if [ "$(nproc)" -ge 2 ]; then
	needs "CPU affinity" check "... and under spread" grep -Eq ' handoff \[spread\] +[0-9.]+ ' "$T/out"
else
	skip "... and under spread" "one CPU"
fi
case $(uname -m) in
x86_64 | i?86)
	check "... the three fences measured" [ "$(grep -Ec ' [lsm]fence +[0-9.]+ ' "$T/out")" = 3 ] ;;
*)
	check "... the fences skipped, saying why" grep -q 'x86 instructions' "$T/out" ;;
esac
check "... cycles said to be derived, not counted" grep -q 'cycles derived from the measured [0-9]* MHz, not counted' "$T/out"
check "... none of them among Other results" sh -c "! sed -n '/^Other results/,\$p' '$T/out' | grep -q 'lock\.'"

kb run --only lock.atomic_add,lock.mutex --json --no-store $FAST
check "run --json: valid, two results measured" sh -c "[ $rc = 0 ] && \"$JC\" run <'$T/out' | grep -q 'results 2 ok 2'"
check "... in ns" [ "$(grep -c '"unit": "ns"' "$T/out")" = 2 ]

kb export --db "$DB" --format csv
check "export --format csv has the lock rows" \
	sh -c "[ $rc = 0 ] && [ \$(grep -c ',lock\.[a-z_]*,' '$T/out') -ge 9 ]"

# UP against SMP: with one CPU allowed, spread cannot be and is left out.
if [ "$PLATFORM" = posix ]; then
	skip "--cpus 0: the handoff on one CPU only" "the posix platform has no CPU affinity"
else
	kb run --only lock.handoff,lock.atomic_add --cpus 0 --no-store --json $FAST
	check "--cpus 0: the handoff on one CPU only, the atomic measured" \
		sh -c "[ $rc = 0 ] && grep -q '\"placement\": \"same\"' '$T/out' && ! grep -q '\"placement\": \"spread\"' '$T/out' && \"$JC\" run <'$T/out' | grep -q 'results 2 ok 2'"
fi

# --- wakeup latency ---------------------------------------------------------
kb run --only wake.timer,wake.msg --label W --db "$DB" $FAST
check "run --only wake.timer,wake.msg exits 0" [ "$rc" = 0 ]
check "run prints the wakeup table, p50 to max" \
	grep -Eq '^OS +Figure +p50 +p90 +p99 +p99\.9 +max +policy' "$T/out"
check "... wake.timer's row with its policy" grep -Eq ' wake\.timer +([0-9.]+ +){5}SCHED_(FIFO|OTHER)' "$T/out"
needs "futex" check "... wake.msg's row" grep -Eq ' wake\.msg +([0-9.]+ +){5}SCHED_OTHER' "$T/out"

kb run --only wake.timer --json --no-store $FAST
check "run --json of wake.timer: valid" sh -c "[ $rc = 0 ] && \"$JC\" run <'$T/out' >/dev/null"
for k in p50 p90 p99 p999 max; do
	check "... the key $k, a number" grep -Eq "\"$k\": [0-9]" "$T/out"
done
check "... its histogram, buckets with counts" grep -q '"histogram": \[' "$T/out"
check "... the policy and the interval in its values" \
	sh -c "grep -Eq '\"policy\": \"SCHED_(FIFO|OTHER)\"' '$T/out' && grep -q '\"interval_us\": 1000' '$T/out'"
check "... the samples are the wakeups (one iteration each)" grep -q '"iterations": 1,' "$T/out"

# SCHED_FIFO made to fail: measured under SCHED_OTHER, and said.
KBENCH_INJECT=sched_setscheduler:eio:0 kb run --only wake.timer --json --no-store $FAST
check "SCHED_FIFO refused: still measured" sh -c "[ $rc = 0 ] && \"$JC\" run <'$T/out' | grep -q 'ok 1'"
check "... under SCHED_OTHER, the refusal in its values" \
	sh -c "grep -q '\"policy\": \"SCHED_OTHER\"' '$T/out' && grep -q '\"fifo_refused\": \"' '$T/out'"
# No permission: a user namespace takes root's right to real-time away.
if [ "$PLATFORM" != posix ] && unshare -U true 2>/dev/null; then
	unshare -U "$KB" run --only wake.timer --label NOPERM --db "$DB" $FAST >"$T/out" 2>"$T/err"
	rc=$?
	check "no permission for SCHED_FIFO: still measured" [ "$rc" = 0 ]
	check "... said under the table" \
		grep -q 'wake.timer: SCHED_FIFO refused (no permission for SCHED_FIFO), measured under SCHED_OTHER' "$T/out"
else
	why="no user namespaces here"
	[ "$PLATFORM" = posix ] && why="the posix platform has no SCHED_FIFO"
	skip "no permission for SCHED_FIFO: still measured" "$why"
	skip "... said under the table" "$why"
fi

# Bad input: one line each.
kb run --only wake.timer --parallel 2 --no-store --json $FAST
check "a distribution with --parallel 2 is skipped, saying why" \
	grep -q 'a distribution is measured one copy at a time' "$T/out"
kb run --only 'lock.nosuch' --no-store $FAST
check "an unknown lock row: exit 1 or 2, one line" \
	sh -c "[ $rc = 1 ] || [ $rc = 2 ]; [ \$(wc -l <'$T/err') = 1 ] && grep -q \"unknown benchmark 'lock.nosuch'\" '$T/err'"

# --- run --events ---------------------------------------------------------------
if [ "$PLATFORM" = posix ]; then
	kb run --only sys.null --events --json --no-store --tmpdir $T/tmp --max-time 0.05 --replicas 1
	check "--events under posix: measured, no counters said once" \
		sh -c "[ $rc = 0 ] && [ \$(grep -c -- '--events' '$T/err') = 1 ] && grep -q 'no event counters' '$T/err'"
else
	kb run --only vm.page_fault_anon --events --json --no-store --tmpdir $T/tmp --max-time 0.1 --replicas 1
	check "--events: the run measured" sh -c "[ $rc = 0 ] && \"$JC\" run <'$T/out' | grep -q 'ok 1'"
	check "... the software events per operation in its values" \
		sh -c "grep -Eq '\"ev_context_switches\": [0-9]' '$T/out' && grep -Eq '\"ev_migrations\": [0-9]' '$T/out'"
	pf=$(grep -Eo '"ev_page_faults": [0-9.e+-]+' "$T/out" | awk '{ print $2 }')
	check "... one page fault counted per page faulted in (counted, not timed: $pf)" \
		awk -v v="${pf:-0}" 'BEGIN { exit !(v >= 0.8 && v <= 1.25) }'
	absent=0
	for e in cycles instructions cache_misses branch_misses; do
		if ! grep -q "\"ev_$e\": " "$T/out"; then
			absent=1
			w=$(echo "$e" | tr _ ' ')
			check "... $e absent: said on stderr, not stored as zero" grep -q "$w" "$T/err"
		fi
	done
	check "... what is absent said once" [ "$(grep -c -- '--events' "$T/err")" -le "$absent" ]
fi

kb export --db "$DB" --format csv
check "export --format csv: the percentiles as the last columns, wake.timer's filled" \
	sh -c "[ $rc = 0 ] && head -1 '$T/out' | grep -q ',reason,p50,p90,p99,p999,tasks,linear,efficiency\$' && grep ',wake\.timer,' '$T/out' | grep -Eq ',[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,[0-9.e+-]+,,,\$'"

kb summary --db "$DB"
check "summary shows both tables from the store" \
	sh -c "[ $rc = 0 ] && grep -q '^Locking - ns' '$T/out' && grep -q '^Wakeup latency - us' '$T/out'"

echo "1..$n"
