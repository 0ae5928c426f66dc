#!/bin/sh
# Every wait on a store is bounded and a signal ends it: a SQLite file
# another process holds locked, a PostgreSQL table another session holds
# locked, a PostgreSQL server process stopped (SIGSTOP) while kbench talks
# to it, a server that accepts the connection and never answers.  Without a signal each gives one line that says what was waited
# for, exit 1; with SIGINT or SIGTERM kbench ends with 128 + the signal
# while the other side still holds on (no timing is asserted: the order
# is), what it stored before staying.  A server of this file's own
# (tests/pg.sh), since the tests stop its processes.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
FAST="--max-time 0.05 --replicas 1 --tmpdir $T/tmp --quiet"
# alive PID: whether the process is still there (the lock still held).
alive() { kill -0 "$1" 2>/dev/null; }
# locked WHAT DB MESSAGE SIG STORE: with $holder holding DB's lock, a run
# gives up with MESSAGE in one line (exit 1), and another ends at once on
# SIG (exit 128 + it), sent once it waits for the lock, both while the lock
# is still held.
# waiting_sqlite PID: kbench has the database open (and so waits on its lock).
waiting_sqlite() { ls -l "/proc/$1/fd" 2>/dev/null | grep -q "$T/s.db\$"; }
# waiting_pg PID: kbench's session waits on a lock.
waiting_pg() {
	[ "$(pg_psql "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'kbench' AND wait_event_type = 'Lock'")" -ge 1 ] 2>/dev/null
}
locked() {
	kb run --only sys.null $FAST --db "$2"
	check "$1 locked by another: exit 1" [ "$rc" = 1 ]
	check "$1: one line that says whose lock it waited for, and how long" grep -q "$3" "$T/err"
	check "$1: it gave up while the lock was still held" alive $holder
	"$KB" run --only sys.null $FAST --db "$2" >"$T/out" 2>"$T/err" &
	pid=$!
	# Until it waits for the lock (waiting_sqlite, waiting_pg).
	wait_for "waiting_$5" $pid
	kill -"$4" $pid
	wait $pid
	rc=$?
	check "$1 locked, SIG$4: exit $(sig_exit "$4")" [ "$rc" = "$(sig_exit "$4")" ]
	check "$1 locked, SIG$4: at once, the lock still held" alive $holder
}

kb run --only sys.null $FAST --db "$T/s.db"
check "a SQLite store to lock" [ "$rc" = 0 ]
# hold_sqlite SECONDS: another process holds the file's write lock that long.
hold_sqlite() {
	python3 -c "
import sqlite3, sys, time
c = sqlite3.connect('$T/s.db', isolation_level=None)
c.execute('BEGIN EXCLUSIVE')
print('locked', flush=True)
time.sleep($1)" >"$T/lock" &
	holder=$!
	wait_for grep -q locked "$T/lock" 2>/dev/null
}

if command -v python3 >/dev/null 2>&1; then
	hold_sqlite 60
	locked SQLite "$T/s.db" "database is locked: another process held its lock for 5.0 s" INT sqlite
	check "and it says so" grep -q "interrupted by signal 2 while waiting for the store" "$T/err"
	kill $holder 2>/dev/null
	wait $holder 2>/dev/null
	kb runs --db "$T/s.db"
	check "the store as it was: its one run, nothing half-written" grep -q '^1 run in 1 set under 1 label' "$T/out"
else
	for t in "SQLite locked: exit 1" "its line" "before the lock went" "Ctrl-C: 130" "at once" "says so" "store as it was"; do
		skip "$t" "no python3 to hold a SQLite lock"
	done
fi

KBENCH_STORE_TIMEOUT=soon kb runs --db "$T/s.db"
check "KBENCH_STORE_TIMEOUT not a number: a usage error" sh -c "[ $rc = 2 ] && grep -q KBENCH_STORE_TIMEOUT '$T/err'"

# A server that accepts the connection and never answers (a listener of
# python3's): Ctrl-C while run, ab and contest connect ends them at once,
# exit 130, rather than after ?connect_timeout=20.  "At once": within 10 s
# of the signal, half the timeout; the signal is sent once the listener has
# taken the connection.  Without a signal the timeout gives up, one line.
if command -v python3 >/dev/null 2>&1; then
	python3 -c "
import socket, sys
s = socket.socket()
s.bind(('127.0.0.1', 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
held = []
while True:
    c, _ = s.accept()
    held.append(c)
    print('accepted', flush=True)" >"$T/silent" &
	silent=$!
	wait_for eval "[ -s '$T/silent' ]"
	SILENT="postgresql://kb@127.0.0.1:$(head -1 "$T/silent")/kbench?connect_timeout=20"
	for cmd in run ab contest; do
		case $cmd in
		run) args="--only sys.null $FAST" ;;
		ab) args="--only sys.null --max-time 0.05 --tmpdir $T/tmp --quiet --rounds 2 --a true" ;;
		contest) args="--workload true --loads noload --runs 1 --tmpdir $T/tmp --quiet" ;;
		esac
		before=$(grep -c accepted "$T/silent")
		"$KB" $cmd $args --db "$SILENT" >"$T/out" 2>"$T/err" &
		pid=$!
		wait_for eval "[ \$(grep -c accepted '$T/silent') -gt $before ]"
		kill -INT $pid
		t0=$(date +%s)
		wait $pid
		rc=$?
		t1=$(date +%s)
		check "$cmd, a server that never answers, Ctrl-C while connecting: exit 130" [ "$rc" = 130 ]
		check "$cmd, Ctrl-C while connecting: within 10 s, not after the 20 s timeout" [ $((t1 - t0)) -lt 10 ]
		check "$cmd, Ctrl-C while connecting: says it was interrupted" \
			grep -q "interrupted by signal 2 while waiting for the store" "$T/err"
	done
	kb runs --db "postgresql://kb@127.0.0.1:$(head -1 "$T/silent")/kbench?connect_timeout=1"
	check "a server that never answers: the connect timeout gives up, one line, exit 1" \
		sh -c "[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'no answer from the server in 2 s (connect_timeout)' '$T/err'"
	kill $silent 2>/dev/null
	wait $silent 2>/dev/null
else
	skip "Ctrl-C while connecting to a server that never answers" "no python3 for a listener"
fi

KBENCH_TEST_PG=
if ! pg_setup; then
	skip "kbench on a stalled PostgreSQL server" "$PG_WHY"
	echo "1..$n"
	exit 0
fi
URI=$KBENCH_TEST_PG
kb run --only sys.null $FAST --db "$URI"
check "a PostgreSQL store to stall" [ "$rc" = 0 ]

# Another session holds the results table for a minute.
pg_psql "BEGIN; LOCK TABLE results IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60);" >/dev/null 2>&1 &
holder=$!
pg_locked() {
	[ "$(pg_psql "SELECT count(*) FROM pg_locks WHERE mode = 'AccessExclusiveLock' AND relation = 'results'::regclass")" = 1 ]
}
wait_for pg_locked
locked PostgreSQL "$URI" "another session held a lock kbench needs for 5.0 s" TERM pg
pg_psql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()" >/dev/null
wait $holder 2>/dev/null

# kbench's own server process stopped between its results.  backend: the
# process serving kbench, once kbench has connected and measured a little.
backend_pid() { pg_psql "SELECT pid FROM pg_stat_activity WHERE application_name = 'kbench'"; }
backend() {
	wait_for eval '[ -n "$(backend_pid)" ]'
	backend_pid
}
# stalled SIG ENV...: a run whose server process is stopped (SIGSTOP) once it
# has connected; SIG (or none: -) sent to kbench 1.5 s later, a moment for it
# to reach the store (the checks hold wherever the signal finds it: exit
# 143 and "interrupted"); its status in rc.
stalled() {
	sig=$1
	shift
	env "$@" "$KB" run --only 'sys.null,sys.fstat' --max-time 0.3 --replicas 3 --tmpdir "$T/tmp" \
		--quiet --label stalled --db "$URI" >"$T/out" 2>"$T/err" &
	pid=$!
	b=$(backend)
	kill -STOP $b
	if [ "$sig" != - ]; then
		sleep 1.5
		kill -"$sig" $pid
	fi
	wait $pid
	rc=$?
	kill -CONT $b
}
stalled - KBENCH_STORE_TIMEOUT=1
check "its server process stopped: exit 1" [ "$rc" = 1 ]
check "one line: no answer, nor to the cancel" grep -q "no answer from the server in 1 s, nor to the cancel" "$T/err"
stalled TERM
check "its server process stopped, SIGTERM: exit 143 without waiting for the server" [ "$rc" = 143 ]
check "and it says it was interrupted" grep -q "interrupted by signal 15" "$T/err"
kb runs --db "$URI"
# Whether the stop came while it opened the store or later, the run made first is there.
check "the store still reads, the runs before kept" sh -c "[ $rc = 0 ] && grep -qE '^[0-9]+ runs? in ' '$T/out'"

echo "1..$n"
