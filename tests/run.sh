#!/bin/sh
# Run every test: the cmocka unit tests (as TAP) and the command-line tests,
# then print one closing line "N passed, N failed".  Exit 1 if any failed.
# A test program that crashes or exits non-zero without reporting a failed
# test counts as one failure, so a crash can never pass silently.
# Usage: sh tests/run.sh BUILD-DIR [TEST...]   (run from the repository root)
# TEST names a unit test program or command-line test file to run, a glob
# ('test_*', 'cli_ipc'); none runs them all.  KBENCH_TESTS_OUT names tests
# left out (CI's sanitizer pass, for time), each said once at the end.  KBENCH_TEST_PG names a
# PostgreSQL server to test against; without it one is started here.
set -u
BUILD=${1:-build}
[ $# -gt 0 ] && shift
patterns="$*"
wanted() { # NAME: whether it is one of the tests asked for and not left out
	set -f
	for p in ${KBENCH_TESTS_OUT:-}; do
		case $1 in $p) set +f; return 1 ;; esac
	done
	set +f
	[ -z "$patterns" ] && return 0
	set -f
	for p in $patterns; do
		case $1 in $p) set +f; return 0 ;; esac
	done
	set +f
	return 1
}
cd "$(dirname "$0")/.." || exit 1
passed=0
failed=0
out=$(mktemp)

# A PostgreSQL server for the tests that may use one (issue 18): a unit
# test whose program names KBENCH_TEST_PG, a command-line test whose
# script or lib.sh (which they all source) does.  Unless one is given, a
# throwaway server (tests/pg.sh) for the whole run, exported to every test
# and stopped at the end, interrupted or not (pg.sh's HUP, INT and TERM
# traps exit through EXIT's).  Where none can be had, the tests run
# without one, and their PostgreSQL parts skip saying why, from
# KBENCH_TEST_PG_WHY.
. tests/pg.sh
trap 'pg_teardown; rm -f "$out"' EXIT
uses_pg() { # NAME FILE...: whether test NAME is wanted and one of the files names the server
	_n=$1
	shift
	[ -f "$1" ] && wanted "$_n" && grep -q KBENCH_TEST_PG "$@"
}
need_pg=0
for t in "$BUILD"/test_*; do
	uses_pg "$(basename "$t")" "$t" && need_pg=1
done
for t in tests/cli*.sh; do
	uses_pg "$(basename "$t" .sh)" "$t" tests/lib.sh && need_pg=1
done
if [ "$need_pg" = 1 ] && [ -z "$KBENCH_TEST_PG" ]; then
	if pg_setup; then
		echo "pg: a server for the tests on 127.0.0.1:$PG_PORT, started in $PG_SETUP_MS ms"
	else
		KBENCH_TEST_PG_WHY="no server could be started: $PG_WHY"
		export KBENCH_TEST_PG_WHY
		echo "pg: no server for the tests: $PG_WHY"
	fi
fi

tally() { # NAME: count the TAP lines in $out, given the program's status $rc
	# A skipped test ("ok N # SKIP", or cmocka 1.1's "not ok N # SKIP") is
	# neither passed nor failed; it is shown with its reason.
	s=$(grep -Ec '^(not )?ok .*# SKIP' "$out")
	p=$(grep '^ok ' "$out" | grep -vc '# SKIP')
	f=$(grep '^not ok ' "$out" | grep -vc '# SKIP')
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		f=1
		echo "not ok - $1 exited with status $rc"
	fi
	# Every test skipped (a PostgreSQL pass without a server) is no failure.
	if [ "$p" = 0 ] && [ "$f" = 0 ] && [ "$s" = 0 ]; then
		f=1
		echo "not ok - $1 ran no test"
	fi
	# A failure shows the program's whole output (its first 80 lines): cmocka
	# prints a failed check's message on lines of its own, without the "# ";
	# and every failed check after those, with the lines that say why.
	if [ "$f" != 0 ]; then
		{ head -80 "$out"; tail -n +81 "$out" | grep -A4 '^not ok '; } | grep -v "^ok " |
			sed "s|^|$1: |"
	else
		grep -E "^# |# SKIP" "$out" | grep -v "^# ok" | sed "s|^|$1: |"
	fi
	# How long it took, so that what CI's time goes to can be read off its log.
	secs="$(($(date +%s) - started)) s"
	if [ "$s" = 0 ]; then
		echo "$1: $p passed, $f failed ($secs)"
	else
		echo "$1: $p passed, $f failed, $s skipped ($secs)"
	fi
	passed=$((passed + p))
	failed=$((failed + f))
}

for t in "$BUILD"/test_*; do
	[ -f "$t" ] && [ -x "$t" ] || continue
	wanted "$(basename "$t")" || continue
	started=$(date +%s)
	CMOCKA_MESSAGE_OUTPUT=TAP "$t" >"$out" 2>&1
	rc=$?
	tally "$(basename "$t")"
done
for t in tests/cli*.sh; do
	wanted "$(basename "$t" .sh)" || continue
	started=$(date +%s)
	sh "$t" "$BUILD" >"$out" 2>&1
	rc=$?
	tally "$(basename "$t" .sh)"
done
# The store's tests once more on PostgreSQL (issue 18: both backends, the
# same test code), shown as NAME[pg]: a unit test whose program reads
# KBENCH_TEST_BACKEND, a command-line test that takes its database from
# lib.sh's db_for.  Without a server their PostgreSQL pass skips, saying why.
# KBENCH_TEST_PG_PASS=0 leaves the pass out (CI's sanitizer build, for time:
# test_db and cli_pg_store still take the PostgreSQL engine through it).
[ "${KBENCH_TEST_PG_PASS:-1}" = 0 ] && patterns_pg=none || patterns_pg=
for t in "$BUILD"/test_*; do
	[ -z "$patterns_pg" ] || break
	[ -f "$t" ] && [ -x "$t" ] || continue
	wanted "$(basename "$t")" && grep -q KBENCH_TEST_BACKEND "$t" || continue
	started=$(date +%s)
	KBENCH_TEST_BACKEND=pg CMOCKA_MESSAGE_OUTPUT=TAP "$t" >"$out" 2>&1
	rc=$?
	tally "$(basename "$t")[pg]"
done
for t in tests/cli*.sh; do
	[ -z "$patterns_pg" ] || break
	wanted "$(basename "$t" .sh)" && grep -q 'db_for ' "$t" || continue
	started=$(date +%s)
	KBENCH_TEST_BACKEND=pg sh "$t" "$BUILD" >"$out" 2>&1
	rc=$?
	tally "$(basename "$t" .sh)[pg]"
done

[ -n "${KBENCH_TESTS_OUT:-}" ] && echo "left out (KBENCH_TESTS_OUT): $KBENCH_TESTS_OUT"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
