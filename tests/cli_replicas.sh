#!/bin/sh
# Command-line tests of replicas and the sentinel (issue 12): a run measures
# each instance as --replicas replicas (8, quick 4, a curve 3),
# each sample says where and when it ran, the run has a sentinel timeline
# two points a replica, show prints the replicas and the timeline, and an
# interrupted run keeps the replicas it finished.  Short budgets; timings are
# never asserted.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--max-time 0.2 --tmpdir $T/tmp --quiet"
DB="$T/rep.db"

kb run --only 'sys.null,sys.fstat' --json --db "$DB" $FAST
check "a run of two instances exits 0" [ "$rc" = 0 ]
"$JC" run <"$T/out" >"$T/jc" 2>&1
check "its JSON is sane" grep -q '^runs 1 results 2 ok 2$' "$T/jc"
# One point before the first replica, then one before and one after each.
check "8 replicas each, a sentinel point before and after each, every sample placed" \
	grep -Eq '^replicas 8 sentinel 33 where 2 drifted [0-2]$' "$T/jc"
check "the samples carry their CPU and steal time" \
	sh -c "grep -q '\"where\": \\[' '$T/out' && grep -Eq '\"cpu\": -?[0-9]' '$T/out' && grep -Eq '\"steal_ns\": ([0-9]|null)' '$T/out'"
check "each replica has the sentinel around it" grep -Eq '"sentinel_sys_ns": [0-9]' "$T/out"

kb run --only sys.null --replicas 1 --json --no-store $FAST
"$JC" run <"$T/out" >"$T/jc" 2>&1
check "--replicas 1: one block, two sentinel points around it" \
	grep -Eq '^replicas 1 sentinel 3 where 1 drifted 0$' "$T/jc"
kb run --suite quick --only sys.null --json --no-store $FAST
"$JC" run <"$T/out" >"$T/jc" 2>&1
check "the quick suite takes 4 replicas" grep -Eq '^replicas 4 sentinel 9 ' "$T/jc"
kb run --only sys.null --replicas 0 --no-store $FAST
check "--replicas 0 is a usage error naming the range" \
	sh -c "[ $rc = 2 ] && grep -q 'replicas: 0 is out of range (1 to 100)' '$T/err'"
kb run --only mem.lat.curve --size 64k --json --no-store $FAST
"$JC" run <"$T/out" >"$T/jc" 2>&1
check "a curve takes 3 replicas" grep -Eq '^replicas 3 sentinel 7 ' "$T/jc"

# --- show -------------------------------------------------------------------
kb show sys.null --db "$DB"
check "show lists the 8 replicas" [ "$(grep -Ec '^ +[1-8]  [0-9]' "$T/out")" = 8 ]
check "show gives the drift" grep -q '^drift: ' "$T/out"
kb show sentinel --db "$DB"
check "show sentinel exits 0" [ "$rc" = 0 ]
check "show sentinel names the run and counts its points" \
	sh -c "grep -q '^sentinel - the machine' '$T/out' && grep -q '^33 points over ' '$T/out'"
check "show sentinel gives both operations' medians" \
	sh -c "grep -q '^getppid: median ' '$T/out' && grep -q '^adds:    median ' '$T/out'"
kb show sentinel --db "$DB" --json
"$JC" run <"$T/out" >"$T/jc" 2>&1
check "show sentinel --json: the run, no result, its timeline" grep -Eq '^replicas 0 sentinel 33 ' "$T/jc"
kb show sentinel 99 --db "$DB"
check "show sentinel of an unknown run: one line, exit 1" sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ]"

# --- compare on replicas -----------------------------------------------------
"$KB" run --only sys.fstat --label A --db "$DB" $FAST >/dev/null 2>&1
"$KB" run --only sys.fstat --label B --db "$DB" $FAST >/dev/null 2>&1
kb compare A B --db "$DB"
check "one run a side: the replicas compared, marked ~, the change's interval after" grep -Eq '^sys\.fstat .*~ +[-+][0-9.]+\.\.[-+][0-9.]+$' "$T/out"
check "compare says how far the machine moved" grep -Eq '^sentinel: B against A: getppid [-+][0-9.]+%, adds [-+][0-9.]+%' "$T/out"

# --- Ctrl-C between rounds ----------------------------------------------------
IDB="$T/int.db"
# sig.install hangs (the test hook) in the first round, once the others have
# a replica each: the signal comes mid-run, whatever the machine's pace.
KBENCH_TEST_HANG=sig.install "$KB" run --only 'sys.null,sys.fstat,sig.install' --db "$IDB" --max-time 0.05 \
	--watchdog 600 --tmpdir "$T/tmp" --quiet >/dev/null 2>"$T/err" &
pid=$!
wait_for eval "ls '$T'/tmp/*/hanging >/dev/null 2>&1"
kill -INT "$pid"
wait "$pid"; rc=$?
check "SIGINT mid-run exits 130" [ "$rc" = 130 ]
check "SIGINT says how many replicas were not measured" grep -Eq 'stored, [1-9][0-9]* of 24 replicas not measured' "$T/err"
kb export --db "$IDB"
check "the results measured are stored, with the replicas taken" \
	sh -c "\"$JC\" export <'$T/out' | grep -Eq '^replicas [1-6] '"
wait_for eval "[ -z \"\$(ls -A '$T/tmp')\" ]"
check "SIGINT leaves no temporary file" [ -z "$(ls -A "$T/tmp")" ]

# --- every replica in kbench-worker executed afresh -----------------------------
# A forked child would carry kbench's heap, which grows with the results a
# run keeps, and make fork slower run after run, and kbench's libraries,
# which make it slower still (core/runner.c).  The instance hangs (the
# test hook), so its process can be looked at.
MARK="fresh-$$"
KBENCH_TEST_HANG=sys.fstat "$KB" run --only sys.fstat --no-store --label "$MARK" \
	--watchdog 600 --tmpdir "$T/tmp" --quiet >/dev/null 2>"$T/err" &
pid=$!
# The preludes' workers come and go in milliseconds; the hanging one stays,
# and says so with its file.
wait_for eval "ls '$T'/tmp/*/hanging >/dev/null 2>&1"
worker=$(pgrep -f -- "--kbench-worker .*$MARK" | head -1)
check "the replica runs in a worker started by exec, kbench's command line after it" \
	sh -c "[ -n '$worker' ] && tr '\\0' ' ' </proc/$worker/cmdline | grep -q -- '^kbench-worker --kbench-worker [0-9]* [0-9]* -\\?[0-9]* $pid -- run --only sys.fstat'"
check "the worker is kbench-worker, beside kbench" \
	sh -c "[ -n '$worker' ] && [ \"\$(readlink /proc/$worker/exe)\" = \"\$(dirname \"\$(readlink -f '$KB')\")/kbench-worker\" ]"
check "the worker has read and closed its request (an unlinked file in the instance's directory)" \
	sh -c "[ -n '$worker' ] && ! ls -l /proc/$worker/fd | grep -q '\\.worker\\.'"
kill -TERM "$pid"
wait "$pid"
check "killed while hanging, kbench leaves no worker and no file" no_leftovers "$MARK"
"$(dirname "$KB")/kbench-worker" --kbench-worker 1 2 3 >"$T/out" 2>"$T/err"
rc=$?
check "a worker started by hand says so in one line, exit 2" \
	sh -c "[ $rc = 2 ] && [ $(lines "$T/err") = 1 ] && grep -q 'not to be run by hand' '$T/err'"

# --- run --runs auto ------------------------------------------------------------
ADB="$T/auto.db"
kb run --only sys.null --runs auto --target 50 --db "$ADB" $FAST
# Timings are never asserted: where a busy machine (or a sanitizer) keeps sys.null from 50%
# in 3 runs, more follow, or none when its figure was not measured.
check "--runs auto: at least 3 runs, as many stored as it says it made" sh -c "[ $rc = 0 ] &&
	runs=\$('$KB' runs --db '$ADB' | grep -c '^  *[0-9]') &&
	said=\$(sed -n 's/^after \\([0-9]*\\) runs .*/\\1/p' '$T/out') &&
	grep -q '^runs auto: [01] of 1 figures would see a change of 50% against a side' '$T/out' &&
	[ \$runs = \"\$said\" ] && [ \$runs -ge 3 ]"
check "--runs auto: without a label measured twice, it says the sittings' spread is unknown" \
	grep -q '^how far sittings differ on this host is not known' "$T/out"
kb run --only sys.null --runs auto --target 0.1 --max-runs 4 --no-store $FAST
check "--runs auto: a target out of reach stops at --max-runs, and says which figure" sh -c "[ $rc = 0 ] &&
	grep -q '^not there yet, within --max-runs (1): sys.null (' '$T/out' && grep -q '^after 4 runs (from the 4th on' '$T/out'"
"$KB" run --only sys.null --db "$ADB" $FAST >/dev/null 2>&1
kb run --only sys.null --runs auto --target 50 --db "$ADB" $FAST
check "--runs auto: the label measured in two sittings, the history knows how far they differ" \
	sh -c "[ $rc = 0 ] && grep -q '^runs auto: ' '$T/out' && ! grep -q 'is not known' '$T/out'"
kb run --only sys.null --target 5 --no-store $FAST
check "--target without --runs auto: one line, exit 2" \
	sh -c "[ $rc = 2 ] && grep -q 'go with --runs auto' '$T/err' && [ \$(wc -l <'$T/err') = 1 ]"
for bad in 1e2 ' 2' autox; do
	kb run --only sys.null --runs "$bad" --no-store $FAST
	check "--runs '$bad' is refused: one line, exit 2" \
		sh -c "[ $rc = 2 ] && grep -q 'neither a count from 1 to 1000 nor auto' '$T/err'"
done
kb run --only sys.null --runs auto --max-runs 2 --no-store $FAST
check "--max-runs below 3 is refused" sh -c "[ $rc = 2 ] && grep -q 'max-runs: 2 is out of range' '$T/err'"

echo "1..$n"
