# Shared by the command-line test files (sourced, with BUILD set): a private
# temporary directory $T with an empty $T/tmp for kbench's --tmpdir, a
# clean environment, and TAP helpers.  Each file ends with: echo "1..$n".
set -u
KB=$(cd "$BUILD" && pwd)/kbench
# The tests' directory, for the helpers sourced from it (apt.sh, pg.sh),
# also from a shell a test starts elsewhere.
KBENCH_TESTS=$(cd "$(dirname "$0")" && pwd)
export KBENCH_TESTS
JC=$(cd "$BUILD" && pwd)/jsoncheck
T=$(mktemp -d "${TMPDIR:-/tmp}/kbench-cli.XXXXXX")
# The databases db_for made on the test server go with $T.
lib_cleanup() {
	if [ -s "$T/pg-databases" ]; then
		while read -r d; do
			psql "$KBENCH_TEST_PG" -qXc "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1
		done <"$T/pg-databases"
	fi
	[ -s "$T/bin-dirs" ] && xargs rm -rf <"$T/bin-dirs"
	rm -rf "$T"
}
trap lib_cleanup EXIT
mkdir "$T/tmp"
unset KBENCH_DB KBENCH_INJECT KBENCH_INJECT_PEER KBENCH_INJECT_SELF KBENCH_INJECT_GUARD KBENCH_TEST_HANG \
	KBENCH_TEST_MEM_SKIP
export HOME="$T/home" XDG_DATA_HOME=""

n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
# skip NAME REASON: a test of what this build's platform lacks, neither
# passed nor failed; PLATFORM is the platform file built (linux, posix)
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
PLATFORM=$(sed -n 's/^#define KB_PLATFORM "\(.*\)"$/\1/p' "$BUILD/config.h" 2>/dev/null)
# needs WHAT check NAME CONDITION...: the check, or under the posix platform,
# which offers no WHAT (CPU affinity, file system types), a skip saying so
needs() {
	what=$1; shift
	if [ "$PLATFORM" = posix ]; then skip "$2" "the posix platform has no $what"; else "$@"; fi
}
notok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
# check NAME CONDITION...: the condition is a shell command; a failure shows
# what kbench said, and the status and reason lines of its JSON if any
check() {
	name=$1; shift
	if "$@"; then
		ok "$name"
	else
		notok "$name" "failed: $*" "stderr: $(head -c 400 "$T/err" 2>/dev/null)" \
			"stdout: $(grep -m3 -E '"(status|reason)"' "$T/out" 2>/dev/null | tr '\n' ' ')"
	fi
}
# run kbench, capturing stdout, stderr and status
kb() { "$KB" "$@" >"$T/out" 2>"$T/err"; rc=$?; }
# The exit status of a process that ended on signal NAME: 128 + its number.
sig_exit() { case $1 in HUP) echo 129 ;; INT) echo 130 ;; TERM) echo 143 ;; KILL) echo 137 ;; esac; }
lines() { wc -l <"$1" | tr -d ' '; }
no_leftovers() { # MARK: no process with MARK in its command line, tmp dir empty
	! pgrep -f "$1" >/dev/null 2>&1 && [ -z "$(ls -A "$T/tmp")" ]
}
# wait_for CONDITION...: run the condition (a shell command) every 0.05 s
# until it holds, for at most WAIT_MAX polls; its last status.  A check
# waits for what it checks (a process gone, a line printed, a file made),
# never a fixed time: a passing check waits as long as its condition takes
# and no longer, and only a real failure meets the bound, which is far
# past the longest wait kbench itself allows (its janitor's three grace
# periods of 5 s) on a machine busy with other work.
WAIT_MAX=${KBENCH_TEST_WAIT_POLLS:-1200}
wait_for() {
	_w=0
	until "$@"; do
		[ "$_w" -ge "$WAIT_MAX" ] && return 1
		sleep 0.05
		_w=$((_w + 1))
	done
}
# clear_leftovers PATTERN: after a check of leftovers, whatever it left is
# killed and the tmp dir emptied, so that one check's failure cannot fail
# the checks after it.
clear_leftovers() {
	pkill -KILL -f "$1" 2>/dev/null
	wait_for eval "! pgrep -f '$1' >/dev/null"
	rm -rf "$T/tmp" && mkdir "$T/tmp"
}
# A copy of kbench and its companions that any user may run, for the checks
# that run kbench as another user (nobody): a checkout in a private
# directory (root's home, mktemp -d) is closed to them.  Made by
# kb_for_others on first use, in a directory of its own under /tmp that
# goes with $T.  Sets KBO; fails with KBO_WHY saying why when it cannot.
KBO=""
KBO_WHY=""
kb_for_others() {
	[ -n "$KBO" ] && return 0
	_d=$(mktemp -d /tmp/kbench-cli-bin.XXXXXX) || { KBO_WHY="cannot make a directory in /tmp"; return 1; }
	echo "$_d" >>"$T/bin-dirs"
	chmod 755 "$_d"
	for _f in kbench kbench-worker kbench-tiny; do
		[ -f "$BUILD/$_f" ] || continue
		cp "$BUILD/$_f" "$_d/" && chmod 755 "$_d/$_f" || { KBO_WHY="cannot copy $_f to $_d"; return 1; }
	done
	KBO=$_d/kbench
}
# The golden files, and golden NAME FILE: $T/out compared with FILE there
# (KBENCH_GOLDEN_UPDATE=1 writes it instead, for an intended change).
GOLD="$KBENCH_TESTS/golden"
golden() { # NAME GOLDEN-FILE: compare $T/out with it (or write it when updating)
	if [ "${KBENCH_GOLDEN_UPDATE:-}" = 1 ]; then
		cp "$T/out" "$GOLD/$2"
	fi
	if cmp -s "$T/out" "$GOLD/$2"; then
		ok "$1"
	else
		notok "$1" "$(diff "$GOLD/$2" "$T/out" | head -20)"
	fi
}

# db_for NAME: an empty database for this test, named for --db: a file
# under $T, or with KBENCH_TEST_BACKEND=pg a new database on the test
# server (KBENCH_TEST_PG, which tests/run.sh starts), by its URI, dropped
# when the test ends; so the store's tests run on both backends with the
# same code.  Fails, saying why on stdout, when the server cannot make one.
db_for() {
	if [ "${KBENCH_TEST_BACKEND:-sqlite}" != pg ]; then
		echo "$T/$1.db"
		return 0
	fi
	if [ -z "${KBENCH_TEST_PG:-}" ]; then
		echo "no PostgreSQL server for the tests (KBENCH_TEST_PG is not set)"
		return 1
	fi
	d="kbt_$$_$(echo "$1" | tr -c 'a-z0-9_\n' _)"
	if ! psql "$KBENCH_TEST_PG" -qXc "CREATE DATABASE $d" >"$T/pg-create.err" 2>&1; then
		echo "cannot create database $d: $(head -1 "$T/pg-create.err")"
		return 1
	fi
	echo "$d" >>"$T/pg-databases"
	echo "${KBENCH_TEST_PG%/*}/$d"
}
