#!/bin/sh
# Command-line tests of how a run ends (issue 13): a run stopped by SIGINT,
# SIGTERM or SIGHUP is stored as interrupted (no finish time), one stopped
# before anything was stored leaves no run, a run whose store fails on a
# full disk still prints what it measured, and the environment's mistakes
# (a file-size limit, a full stdout, a wrong TMPDIR or KBENCH_TINY) each
# give one line.  Timings are never asserted: the signals are sent once the
# database shows the run has got where the test needs it.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--max-time 0.05 --tmpdir $T/tmp --quiet"

# stored DB: how many results the database holds in all
stored() { "$KB" runs --db "$1" 2>/dev/null | awk '$1 ~ /^[0-9]+$/ { s += $5 } END { print s + 0 }'; }
has_results() { [ "$(stored "$1")" -gt 0 ]; }

# --- SIGINT, SIGTERM, SIGHUP in the middle of a run -------------------------
for sig in INT TERM HUP; do
	DB="$T/$sig.db"
	MARK="sig-$sig-$$"
	# A 0.01% precision is never met: each of the 7 instances takes its whole
	# second, over 8 rounds, so the run is far from done when a result shows.
	"$KB" run --only 'sys.*' --db "$DB" --label "$MARK" --max-time 1 --precision 0.01 \
		--tmpdir "$T/tmp" --quiet >"$T/out" 2>"$T/err" &
	pid=$!
	wait_for has_results "$DB"
	kill -$sig $pid
	wait $pid; rc=$?
	want=$(sig_exit $sig)
	check "SIG$sig: exit $want (128 + the signal)" [ "$rc" = $want ]
	wait_for no_leftovers "$MARK"
	check "SIG$sig: no process or temporary file left" no_leftovers "$MARK"
	kb runs --db "$DB"
	check "SIG$sig: runs marks the run interrupted" grep -q "$MARK .*; interrupted$" "$T/out"
	kb runs --db "$DB" --json
	check "SIG$sig: runs --json has no finish time" grep -q '"finished": null' "$T/out"
	check "SIG$sig: runs --json says interrupted" grep -q '"state": "interrupted"' "$T/out"
	kb summary "$MARK" --db "$DB"
	check "SIG$sig: a figure from fewer replicas than planned says it is partial" \
		grep -qE 'partial: [0-9]+ of [0-9]+ replicas, the run was interrupted' "$T/out"
	kb summary "$MARK" --db "$DB" --json
	check "SIG$sig: the results measured before it are kept" \
		sh -c "\"$JC\" run <\"$T/out\" | grep -q 'results [1-9]'"
done

# --- Ctrl-Z: the instance stops with kbench, and is measured again ----------
# cputicks MARK: the CPU time (clock ticks) the processes of MARK have used
cputicks() {
	for p in $(pgrep -f "$1"); do
		sed 's/.*) //' /proc/$p/stat 2>/dev/null | awk '{ print $12 + $13 }'
	done | awk '{ s += $1 } END { print s + 0 }'
}
DB="$T/tstp.db"
MARK="tstp-$$"
"$KB" run --only sys.null,sys.fstat --db "$DB" --label "$MARK" --max-time 1 --precision 0.01 \
	--json --tmpdir "$T/tmp" --quiet >"$T/out" 2>"$T/err" &
pid=$!
wait_for has_results "$DB"
kb runs --db "$DB" --json
check "runs --json says a run in progress is being measured" grep -q '"state": "being measured"' "$T/out"
kill -TSTP $pid
# kbench stopped, and then the worker it stops (the janitor, in a session
# of its own, sleeps in poll).
stopped() {
	grep -q '^State:.*T' /proc/$pid/status || return 1
	for p in $(pgrep -f -- "--kbench-worker .*$MARK"); do
		grep -q '^State:.*T' /proc/$p/status 2>/dev/null || return 1
	done
}
wait_for stopped
c0=$(cputicks "$MARK")
sleep 1
c1=$(cputicks "$MARK")
check "SIGTSTP: kbench is stopped" grep -q '^State:.*T' /proc/$pid/status
check "SIGTSTP: the benchmark in progress is stopped too (no CPU used)" [ "$c0" = "$c1" ]
kill -CONT $pid
wait $pid; rc=$?
check "SIGCONT: the run goes on and finishes (exit 0)" [ "$rc" = 0 ]
"$JC" run <"$T/out" >"$T/jc" 2>&1
check "SIGCONT: every replica measured, the stopped one again" grep -q '^replicas 8 ' "$T/jc"
check "SIGTSTP and SIGCONT: no process or file left" no_leftovers "$MARK"

# --- SIGKILL of kbench: no chance to say anything, but nothing left either --
DB="$T/kill.db"
MARK="kill-$$"
"$KB" run --only 'sys.*,fs.create.0k' --db "$DB" --label "$MARK" --max-time 1 --precision 0.01 \
	--tmpdir "$T/tmp" --quiet >"$T/out" 2>"$T/err" &
pid=$!
wait_for has_results "$DB"
kill -KILL $pid
wait $pid 2>/dev/null
check "SIGKILL: the janitor leaves no process or file" wait_for no_leftovers "$MARK"
kb runs --db "$DB"
check "SIGKILL: the run is marked interrupted, its finished results kept" \
	grep -Eq "$MARK .* [1-9][0-9]*  .*; interrupted$" "$T/out"

# A run that finished has its finish time, in the store and in run --json.
DB="$T/done.db"
kb run --only sys.null --db "$DB" --json $FAST
check "a finished run's JSON has its finish time" grep -Eq '"finished": "20[0-9-]+T' "$T/out"
kb runs --db "$DB" --json
check "a finished run is stored with its finish time" grep -Eq '"finished": "20[0-9-]+T' "$T/out"
check "runs --json says it finished" grep -q '"state": "finished"' "$T/out"
kb runs --db "$DB"
check "a finished run is not marked interrupted" sh -c "! grep -q interrupted '$T/out'"

# --- interrupted before anything was stored: no empty run -------------------
DB="$T/empty.db"
MARK="empty-$$"
# The first instance hangs, so nothing can be stored before the signal.
KBENCH_TEST_HANG=sys.null "$KB" run --only sys.null,sys.fstat --db "$DB" --label "$MARK" \
	--watchdog 600 --tmpdir "$T/tmp" --quiet >"$T/out" 2>"$T/err" &
pid=$!
wait_for eval "\"$KB\" runs --db '$DB' | grep -q '$MARK'"
kill -TERM $pid
wait $pid; rc=$?
check "interrupted before a result (SIGTERM): exit 143" [ "$rc" = 143 ]
check "interrupted before a result: it says none was stored" \
	grep -q 'interrupted by signal 15: 0 results stored' "$T/err"
kb runs --db "$DB"
check "interrupted before a result: no empty run is left" sh -c "! grep -q '$MARK' '$T/out'"
check "interrupted before a result: no process or file left" no_leftovers "$MARK"

# --- the store fails in the middle of a run: what was measured is printed --
FS="$T/fs"
mkdir "$FS"
if mount -t tmpfs -o size=2m tmpfs "$FS" 2>/dev/null; then
	DB="$FS/full.db"
	"$KB" run --only 'sys.*' --db "$DB" --label full --max-time 1 --precision 0.01 \
		--tmpdir "$T/tmp" --quiet >"$T/out" 2>"$T/err" &
	pid=$!
	wait_for eval "\"$KB\" runs --db '$DB' | grep -q ' full '"
	dd if=/dev/zero of="$FS/fill" bs=4k 2>/dev/null
	wait $pid; rc=$?
	check "a full disk mid-run: exit 1" [ "$rc" = 1 ]
	check "a full disk mid-run: the store's error is said" grep -q 'database or disk is full' "$T/err"
	check "a full disk mid-run: the figures measured are printed (the Processor table's row)" \
		grep -Eq ' full +[0-9]+ +[0-9.]+' "$T/out"
	check "a full disk mid-run: it says they are not all stored" \
		grep -q 'the figures above were measured but not all stored' "$T/err"
	check "a full disk mid-run: no process or temporary file left" no_leftovers "$T/tmp"
	rm -f "$FS/fill"
	umount "$FS"
else
	ok "a full disk mid-run # SKIP cannot mount a tmpfs (not root?)"
fi

# --- the environment's mistakes, one line each ------------------------------
(ulimit -f 8; exec "$KB" run --only sys.null --db "$T/ulimit.db" $FAST) >"$T/out" 2>"$T/err"; rc=$?
check "over ulimit -f: exit 1, not killed by SIGXFSZ" [ "$rc" = 1 ]
check "over ulimit -f: one line saying why" sh -c "[ \$(wc -l <'$T/err') = 1 ] && grep -q 'db' '$T/err'"
check "over ulimit -f: it names the file-size limit" grep -q 'the file-size limit (ulimit -f) of [0-9]* bytes was reached' "$T/err"
check "over ulimit -f: the database it could not make is not left, nor its -wal and -shm" \
	sh -c "[ ! -e '$T/ulimit.db' ] && [ ! -e '$T/ulimit.db-wal' ] && [ ! -e '$T/ulimit.db-shm' ]"
"$KB" export --db "$T/INT.db" >"$T/exp.json" 2>/dev/null
(ulimit -f 8; exec "$KB" import "$T/exp.json" --db "$T/ulimit-import.db") >"$T/out" 2>"$T/err"; rc=$?
check "import over ulimit -f: exit 1, nothing left" \
	sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && [ -z \"\$(ls '$T' | grep ulimit-import)\" ]"
"$KB" --help >/dev/full 2>"$T/err"; rc=$?
check "--help to a full stdout: exit 1" [ "$rc" = 1 ]
check "--help to a full stdout: says so" grep -q 'cannot write the output' "$T/err"
"$KB" run --help >/dev/full 2>"$T/err"; rc=$?
check "run --help to a full stdout: exit 1" [ "$rc" = 1 ]
TMPDIR="$T/nonexistent" "$KB" run --only sys.null --no-store --quiet >"$T/out" 2>"$T/err"; rc=$?
check "a bad TMPDIR is named as TMPDIR, not --tmpdir" \
	sh -c "[ $rc = 1 ] && grep -q \"TMPDIR '$T/nonexistent'\" '$T/err' && ! grep -q -- --tmpdir '$T/err'"
KBENCH_TINY="$T/no-tiny" "$KB" run --only proc.exec --no-store $FAST >"$T/out" 2>"$T/err"; rc=$?
check "a wrong KBENCH_TINY fails proc.exec, not a silent skip" \
	sh -c "[ $rc = 1 ] && grep -q \"proc.exec: fail: KBENCH_TINY '$T/no-tiny'\" '$T/out'"
# A libtirpc that lacks a function kbench calls: a skip naming it, both times.
if command -v cc >/dev/null 2>&1 && mkdir "$T/fake" &&
	printf 'int svc_run(void) { return 0; }\nint svc_sendreply(void) { return 0; }\n' >"$T/fake/t.c" &&
	cc -shared -fPIC -Wl,-soname,libtirpc.so.3 -o "$T/fake/libtirpc.so.3" "$T/fake/t.c" 2>/dev/null; then
	LD_LIBRARY_PATH="$T/fake" "$KB" run --only 'ipc.rpc_udp.lat,ipc.rpc_tcp.lat' --placement none --no-store $FAST \
		>"$T/out" 2>"$T/err"; rc=$?
	check "a libtirpc without a needed function: not a crash" sh -c "[ $rc = 0 ] || [ $rc = 1 ]"
	check "a libtirpc without a needed function: both skip naming it" \
		[ "$(grep -c 'skip: cannot load libtirpc.so.3: .*undefined symbol: svcerr_decode' "$T/out")" = 2 ]
else
	ok "a libtirpc without a needed function # SKIP no C compiler"
fi

echo "1..$n"
