#!/bin/sh
# Command-line tests: kbench as a user meets it, against a temporary
# database and temporary directory.  Prints TAP lines ("ok N - name",
# "not ok N - name"); tests/run.sh counts them.
#
# Each check runs kbench and asserts on its exit status, its output and what
# it leaves behind (database files, temporary files, processes).  Timings are
# never asserted: the machine is shared.  Benchmarks run with tiny budgets
# (--max-time 0.2) so the whole file takes well under a minute.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
FAST="--max-time 0.2 --tmpdir $T/tmp --quiet"

# --- help and usage --------------------------------------------------------
kb --help;			check "help exits 0" [ "$rc" = 0 ]
check "help lists run" grep -q '^  run ' "$T/out"
kb;				check "no command is a usage error (2)" [ "$rc" = 2 ]
kb frobnicate;			check "unknown command exits 2" [ "$rc" = 2 ]
check "unknown command names it" grep -q "unknown command 'frobnicate'" "$T/err"
kb run --help;			check "run --help shows --precision" grep -q -- '--precision PCT' "$T/out"
kb --version;			check "--version" grep -q '^kbench [0-9]' "$T/out"

# --- list and sysinfo ------------------------------------------------------
kb list;			check "list exits 0" [ "$rc" = 0 ]
check "list has the 12 Processor, Processes ids" [ "$(grep -c -E '^(sys|sig|proc)\.' "$T/out")" -ge 12 ]
check "list has a header and fits 80 columns" sh -c \
	"head -1 '$T/out' | grep -q '^benchmark  *unit  *better  *suites' && [ \$(LC_ALL=C.UTF-8 wc -L <'$T/out') -le 80 ]"
kb list --json;			check "list --json is valid" sh -c "\"$JC\" list <\"$T/out\" >/dev/null"
kb list --suite nosuch;		check "list unknown suite exits 2" [ "$rc" = 2 ]
kb sysinfo;			check "sysinfo shows the clock source" grep -qi 'clock' "$T/out"
kb sysinfo --json;		check "sysinfo --json is valid" sh -c "\"$JC\" sysinfo <\"$T/out\" >/dev/null"

# --- a run, stored and summarised -----------------------------------------
DB="$T/db/results.db"
kb run --only sys.null --db "$DB" --json $FAST
check "run of one instance exits 0" [ "$rc" = 0 ]
check "run --json has one sane result" sh -c "\"$JC\" run <\"$T/out\" | grep -q 'runs 1 results 1 ok 1'"
check "run left no temporary files" [ -z "$(ls -A "$T/tmp")" ]
check "run created the db (and its directory)" [ -f "$DB" ]
kb summary --db "$DB"
check "summary exits 0" [ "$rc" = 0 ]
check "summary prints the lmbench table" grep -q '^Processor, Processes - times in microseconds' "$T/out"
check "summary row carries the label" grep -q "$(uname -s) " "$T/out"
kb summary --db "$DB" --json
check "summary --json round-trips the result" sh -c "\"$JC\" run <\"$T/out\" | grep -q 'results 1 ok 1'"
kb run --only 'sig.*' --db "$DB" --label my-kernel --runs 2 $FAST
check "two labelled runs exit 0" [ "$rc" = 0 ]
kb summary my-kernel --db "$DB" --json
check "summary selects by label" sh -c "\"$JC\" run <\"$T/out\" | grep -q 'runs 2 results 4'"
kb summary 1 --db "$DB" --json
check "summary selects by run id" sh -c "\"$JC\" run <\"$T/out\" | grep -q 'runs 1 results 1'"
kb summary no-such-label --db "$DB"
check "summary of an unknown label fails with one line" [ "$rc" = 1 ]
check "summary of an unknown label fails with one line (message)" [ "$(lines "$T/err")" = 1 ]
KBENCH_DB="$DB" "$KB" summary >/dev/null 2>&1
check "KBENCH_DB names the database" [ $? = 0 ]

# --- bad input: one line, exit 1 or 2, nothing written -------------------
NEW="$T/new/x.db"
kb run --only nosuch.bench --db "$NEW" $FAST
check "unknown id exits 2" [ "$rc" = 2 ]
check "unknown id names it" grep -q "unknown benchmark 'nosuch.bench'" "$T/err"
check "unknown id creates no db" [ ! -e "$NEW" ]
check "unknown id creates no db (message)" [ ! -e "$T/new" ]
kb run --runs 0 --db "$NEW";	check "--runs 0 exits 2" [ "$rc" = 2 ]
check "--runs 0 says the range" grep -q 'out of range' "$T/err"
kb run --precision abc --db "$NEW"; check "--precision abc exits 2" [ "$rc" = 2 ]
check "--precision abc: one line and a hint" [ "$(lines "$T/err")" -le 2 ]
check "--precision abc: one line and a hint (message)" grep -q "'abc' is not a number" "$T/err"
# One reading of numbers and lists for every option: a count is digits alone,
# a real is decimal (no blank, hex, inf or nan), a list has no empty item.
for bad in "run --runs 1e2" "run --runs +2" "run --runs ' 2'" "run --runs '2 '" "run --max-time inf" \
	"run --max-time 0x1p3" "run --max-time ' 1'" "run --only 'sys.null,'" "run --only ',sys.null'" \
	"run --placement 'same,,spread'" "run --cpus '0,'" "time --copies ' 2' -- true" \
	"time --copies '2,' -- true" "time --jobs 0x2 -- true" "clocks --sources 'tsc,'" \
	"contest --loads 'noload,'"; do
	eval "kb $bad --db '$NEW'"
	check "$bad: refused, one line, exit 2" sh -c "[ $rc = 2 ] && [ \$(wc -l <'$T/err') = 1 ]"
done
kb run --max-time; 		check "missing option value exits 2" [ "$rc" = 2 ]
kb run --bogus;			check "unknown option exits 2" [ "$rc" = 2 ]
kb run --suite nosuch;		check "unknown suite exits 2" [ "$rc" = 2 ]
kb run --db "$NEW" --no-store;	check "--db with --no-store exits 2" [ "$rc" = 2 ]
check "no bad-input case created a db" [ ! -e "$NEW" ]
kb run --only sys.fstat --db /proc/kbench-no/x.db $FAST
check "unwritable db exits 1 with one line" [ "$rc" = 1 ]
check "unwritable db exits 1 with one line (message)" [ "$(lines "$T/err")" = 1 ]
check "unwritable db names the path" grep -q "cannot open db '/proc/kbench-no/x.db'" "$T/err"
printf 'this is not a database\n' >"$T/text.db"
cp "$T/text.db" "$T/text.orig"
kb run --only sys.fstat --db "$T/text.db" $FAST
check "a non-SQLite db exits 1" [ "$rc" = 1 ]
check "a non-SQLite db exits 1 (message)" grep -q 'not a database' "$T/err"
check "the non-SQLite file is unchanged" cmp -s "$T/text.db" "$T/text.orig"
kb summary --db "$T/none.db"
check "summary of a missing db fails and creates nothing" [ "$rc" = 1 ]
check "summary of a missing db fails and creates nothing (message)" [ ! -e "$T/none.db" ]
# --tmpdir that is missing, not a directory, or not writable: one line, exit 1
kb run --only sys.fstat --tmpdir "$T/no/such/dir" --no-store --quiet
check "a missing --tmpdir exits 1" [ "$rc" = 1 ]
check "a missing --tmpdir: one line" [ "$(lines "$T/err")" = 1 ]
check "a missing --tmpdir (message)" grep -q -- "--tmpdir '$T/no/such/dir': No such file" "$T/err"
: >"$T/plain"
kb run --only sys.fstat --tmpdir "$T/plain" --no-store --quiet
check "a --tmpdir that is a file exits 1" [ "$rc" = 1 ]
check "a --tmpdir that is a file (message)" grep -q "is not a directory" "$T/err"
# Read-only: a read-only tmpfs where mounting is allowed (root), else /sys,
# where even root cannot make a directory.
RO=/sys
mkdir "$T/ro" && mount -t tmpfs -o ro,size=64k tmpfs "$T/ro" 2>/dev/null && RO=$T/ro
kb run --only sys.fstat --tmpdir "$RO" --no-store --quiet
check "a read-only --tmpdir exits 1" [ "$rc" = 1 ]
check "a read-only --tmpdir: one line" [ "$(lines "$T/err")" = 1 ]
check "a read-only --tmpdir (message)" grep -q "is not writable" "$T/err"
[ "$RO" = /sys ] || umount "$T/ro"

# --- benchmarks that fail loudly ------------------------------------------
KBENCH_INJECT=write:eio:50 "$KB" run --only sys.write --no-store $FAST >"$T/out" 2>"$T/err"; rc=$?
check "an injected write error fails the run (exit 1)" [ "$rc" = 1 ]
check "the failure names the error" grep -q 'sys.write: fail: .*Input/output error' "$T/out"
KBENCH_INJECT=read:short:50 "$KB" run --only sys.read --no-store --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "a short read fails the run" [ "$rc" = 1 ]
check "a short read fails the run (message)" grep -q '"status": "fail"' "$T/out"
KBENCH_TINY=/bin/false "$KB" run --only proc.exec --no-store $FAST >"$T/out" 2>"$T/err"; rc=$?
check "a program that exits wrongly fails proc.exec" [ "$rc" = 1 ]
check "a program that exits wrongly fails proc.exec (message)" grep -q 'proc.exec: fail: exec child exited 1' "$T/out"

# --- what other work used the CPUs for, named at the end -------------------
# A CPU-bound loop under a name of its own (a copy of sh) runs beside a run
# of a few seconds: the run ends with a warning that names it.  Not a figure:
# only that a process that took a CPU all along is among those named.
cp "$(command -v sh)" "$T/kbhog"
"$T/kbhog" -c 'while :; do :; done' &
hog=$!
kb run --only sys.null,sys.fstat --no-store --max-time 1 --replicas 2 --tmpdir "$T/tmp"
kill "$hog"
wait "$hog" 2>/dev/null
needs "process table" check "a run beside a CPU-bound loop ends with a warning naming it" \
	grep -Eq '^kbench: warning: other work used [0-9.]+ of the [0-9]+ CPUs? while kbench measured \(.*kbhog [0-9.]+ s' "$T/err"
kb run --only sys.null --no-store --max-time 0.05 --replicas 1 --tmpdir "$T/tmp"
check "no warning of the load average that what ran before left" sh -c "! grep -q 'load average' '$T/err'"

# --- watchdog --------------------------------------------------------------
MARK="wd-$$"
KBENCH_TEST_HANG=sys.null "$KB" run --only sys.null,sys.fstat --no-store --watchdog 1 --label "$MARK" --json $FAST >"$T/out" 2>"$T/err"; rc=$?
check "a hung benchmark is killed by the watchdog (exit 1)" [ "$rc" = 1 ]
check "the watchdog kill is reported as a failure" grep -q '"reason": "watchdog: still running after 1 s, killed"' "$T/out"
check "the run goes on after a watchdog kill" sh -c "\"$JC\" run <\"$T/out\" | grep -q 'results 2 ok 1'"
check "the watchdog left no process or file" no_leftovers "$MARK"

# --- Ctrl-C in the middle of a run ----------------------------------------
MARK="int-$$"
IDB="$T/int.db"
# It cannot finish before the signal: sig.catch, after the sys.* instances
# (one replica each), hangs until a watchdog of 10 minutes; the signal goes
# once it hangs (its file "hanging" made), and kbench must end long before
# the watchdog would: it kills the replica rather than wait for it.
KBENCH_TEST_HANG=sig.catch "$KB" run --only 'sys.*,sig.*' --db "$IDB" --label "$MARK" --replicas 1 \
	--max-time 0.05 --watchdog 600 --tmpdir "$T/tmp" --quiet >"$T/out" 2>"$T/err" &
pid=$!
wait_for eval "ls '$T'/tmp/*/hanging >/dev/null 2>&1"
kill -INT "$pid"
wait_for eval "! kill -0 $pid 2>/dev/null"
check "SIGINT ends a run whose benchmark hangs, without waiting for the watchdog" sh -c "! kill -0 $pid 2>/dev/null"
wait "$pid"; rc=$?
check "SIGINT exits 130" [ "$rc" = 130 ]
check "SIGINT says what was stored" grep -q 'interrupted by signal 2: [1-9][0-9]* results\? stored' "$T/err"
wait_for no_leftovers "$MARK"
check "SIGINT leaves no process or temporary file" no_leftovers "$MARK"
said=$(sed -n 's/.*signal 2: \([0-9]*\) results\{0,1\} stored.*/\1/p' "$T/err")
kb summary "$MARK" --db "$IDB" --json
check "results finished before SIGINT are stored" sh -c "\"$JC\" run <\"$T/out\" | grep -q 'results [1-9]'"
check "exactly the finished results are stored" sh -c "\"$JC\" run <\"$T/out\" | grep -q 'results $said ok'"

# The progress line on a terminal: ESC[K where TERM may take it, spaces
# where it is dumb or unset (script(1) gives kbench a terminal).
if command -v script >/dev/null 2>&1; then
	for term in dumb xterm; do
		TERM=$term script -qec "'$KB' run --only sys.null,sys.stat --max-time 0.1 --replicas 2 --no-store >/dev/null" \
			/dev/null >"$T/tty.$term" 2>&1
	done
	check "TERM=dumb: the progress line, and no escape sequence in it" sh -c \
		"grep -q '2/4. sys.stat' '$T/tty.dumb' && ! grep -q \"\$(printf '\\033')\" '$T/tty.dumb'"
	check "TERM=xterm: the line erased with ESC[K" grep -q "$(printf '\033')\[K\[2/4\]" "$T/tty.xterm"
else
	skip "the progress line on a terminal" "no script(1)"
fi
# A number beyond an option's range says so, signed or too long for a long.
kb ab --seed 18446744073709551615 --a true --b true --only sys.null --no-store
check "--seed 18446744073709551615: out of range, exit 2" sh -c "[ $rc = 2 ] && grep -q 'ab: --seed: 18446744073709551615 is out of range (0 to 2147483647)' '$T/err'"
kb run --runs auto --target -5 --only sys.null --no-store
check "--target -5: out of range, exit 2" sh -c "[ $rc = 2 ] && grep -q 'run: --target: -5 is out of range (0.1 to 50)' '$T/err'"
kb run --replicas 1.5 --only sys.null --no-store
check "--replicas 1.5: not a whole number, exit 2" sh -c "[ $rc = 2 ] && grep -q \"'1.5' is not a whole number\" '$T/err'"
echo "1..$n"
