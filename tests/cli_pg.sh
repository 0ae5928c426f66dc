#!/bin/sh
# Tests of tests/pg.sh, the throwaway PostgreSQL server the store's tests
# (issue 18) stand on: pg_setup brings one up on 127.0.0.1 and a free port
# and pg_psql reaches it whatever PG* says, pg_stop stops it and pg_start
# brings it back on the same port with its data, pg_teardown leaves no
# process and no directory, and neither does a test that fails or is
# killed.  A server given in KBENCH_TEST_PG (tests/run.sh gives the one it
# started for the whole run) is used as it is and left alone; then the
# rest test a server of this file's own all the same, since that is what
# they are for, or skip saying so when no postgresql is installed to start
# one (the given server may be another machine's).  Where no server can be
# had (no postgresql, and none can be installed) the tests skip, saying
# why.  kbench's own tests of the store follow here later.
# TAP output like tests/cli.sh.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
PGSH="$(cd "$(dirname "$0")" && pwd)/pg.sh"

# alive PID: a process, not a zombie left for init to reap.
alive() {
	_s=$(ps -o stat= -p "$1" 2>/dev/null) && case $_s in Z*) false ;; esac
}
# stopped DIR PID: no process of the server in DIR (postmaster PID); gone
# DIR PID: and the directory removed.
stopped() { ! alive "$2" && ! pgrep -f -- "$1/data" >/dev/null 2>&1; }
gone() { stopped "$1" "$2" && [ ! -e "$1" ]; }
# The server's postmaster, from its pid file.
postmaster() { head -n 1 "$PG_DIR/data/postmaster.pid" 2>/dev/null; }

given=$KBENCH_TEST_PG
if [ -n "$given" ]; then
	if pg_setup; then
		ok "pg_setup takes the server given"
		check "a given server is used as it is" [ "$KBENCH_TEST_PG:$PG_DIR" = "$given:" ]
		check "pg_psql reaches the server given" [ "$(pg_psql 'select 1')" = 1 ]
		pg_teardown
		check "pg_teardown leaves a given server alone" \
			[ "$KBENCH_TEST_PG:$(pg_psql 'select 1')" = "$given:1" ]
	else
		notok "pg_setup takes the server given" "$PG_WHY"
	fi
	if ! _pg_find; then
		skip "the rest start and stop a server of their own" \
			"the server was given ($given), and no postgresql is installed here to start one"
		echo "1..$n"
		exit 0
	fi
	# From here on, as if none had been given.
	KBENCH_TEST_PG=
fi
if ! pg_setup; then
	# No server to be had here (none installed, none installable) is a
	# skip; a server that is there and fails to start is a failure.
	case $PG_WHY in
	no\ *installed* | apt-get\ install*) skip "pg_setup starts a server" "$PG_WHY" ;;
	*) notok "pg_setup starts a server" "$PG_WHY" ;;
	esac
	echo "1..$n"
	exit 0
fi
ok "pg_setup starts a server"
check "pg_psql 'select 1' answers 1" [ "$(pg_psql 'select 1')" = 1 ]
check "pg_psql ignores the test's PG* variables" \
	[ "$(PGHOST=nowhere.invalid PGPORT=1 PGUSER=nobody PGDATABASE=none PGSERVICE=none \
		PGPASSWORD=x PGOPTIONS='-c search_path=x'; export PGHOST PGPORT PGUSER PGDATABASE \
		PGSERVICE PGPASSWORD PGOPTIONS; pg_psql 'select current_database()')" = kbench ]
check "pg_psql reads SQL from stdin" [ "$(echo 'select 2 + 2;' | pg_psql)" = 4 ]

echo "# pg_setup took $PG_SETUP_MS ms ($("$PG_BIN/postgres" --version))"
case $KBENCH_TEST_PG in
postgresql://*@127.0.0.1:"$PG_PORT"/kbench) ok "KBENCH_TEST_PG is the server's URI" ;;
*) notok "KBENCH_TEST_PG is the server's URI" "KBENCH_TEST_PG=$KBENCH_TEST_PG PG_PORT=$PG_PORT" ;;
esac
check "KBENCH_TEST_PG is exported" [ "$(sh -c 'echo "$KBENCH_TEST_PG"')" = "$KBENCH_TEST_PG" ]
check "the server listens on 127.0.0.1 alone" [ "$(pg_psql 'show listen_addresses')" = 127.0.0.1 ]
check "the server runs with fsync off" [ "$(pg_psql 'show fsync')" = off ]
check "the server keeps its socket in its own directory" \
	[ "$(pg_psql 'show unix_socket_directories')" = "$PG_DIR" ]
check "the server trusts 127.0.0.1 alone" \
	[ "$(pg_psql "select string_agg(type || ' ' || address, ',') from pg_hba_file_rules")" = \
		"host 127.0.0.1" ]
as_owner() { # the postmaster runs as postgres when we are root, else as us
	_u=$(ps -o user= -p "$(postmaster)")
	if [ "$(id -u)" = 0 ]; then [ "$_u" = postgres ]; else [ "$_u" = "$(id -un)" ]; fi
}
check "the server runs as postgres when we are root, else as us" as_owner

pg_psql 'create table t (x int); insert into t values (42)' >/dev/null
port=$PG_PORT
dir=$PG_DIR
pid=$(postmaster)
check "pg_stop exits 0" pg_stop
check "pg_stop leaves no server process" stopped "$dir" "$pid"
pg_psql 'select 1' >/dev/null 2>"$T/psql.err"
rc=$?
check "psql fails while the server is stopped" [ "$rc" != 0 ]
check "refused, not waited out" grep -qi 'refused' "$T/psql.err"
check "pg_start exits 0" pg_start
check "pg_start keeps the port" [ "$PG_PORT:$(pg_psql 'show port')" = "$port:$port" ]
check "pg_start keeps the data" [ "$(pg_psql 'select x from t')" = 42 ]

pid=$(postmaster)
check "the server has a postmaster" alive "$pid"
pg_teardown
check "pg_teardown leaves no process and no directory" gone "$dir" "$pid"
check "pg_teardown empties KBENCH_TEST_PG" [ -z "$KBENCH_TEST_PG" ]
check "pg_teardown a second time exits 0" pg_teardown
pg_stop 2>/dev/null
rc=$?
check "pg_stop without a server fails saying why" [ "$rc:${PG_WHY:+why}" = 1:why ]

# A test that fails (exits 1) or is killed (TERM) after pg_setup: its trap
# stops the server and removes the directory.  The child writes where its
# server is, then fails or waits to be killed.
for how in exit TERM; do
	mkdir "$T/$how"
	T="$T/$how" PGSH="$PGSH" how=$how sh -c '
		. "$PGSH"
		pg_setup || exit 3
		echo "$PG_DIR $(head -n 1 "$PG_DIR/data/postmaster.pid")" >"$T/where.tmp"
		mv "$T/where.tmp" "$T/../$how.where"
		[ "$how" = exit ] && exit 1
		while :; do sleep 0.1; done' >"$T/$how.out" 2>&1 &
	child=$!
	wait_for eval "[ -s '$T/$how.where' ] || ! kill -0 $child 2>/dev/null"
	[ "$how" = TERM ] && kill -TERM "$child" 2>/dev/null
	wait "$child"
	rc=$?
	# No file: the child never had a server, and gone fails on the "."
	cdir=. cpid=0
	read -r cdir cpid <"$T/$how.where" 2>/dev/null
	check "a test that ends by $how (status $rc) leaves no server and no directory" \
		gone "$cdir" "$cpid"
done

echo "1..$n"
