# Shared by the command-line tests of the PostgreSQL store (issue 18): a
# server to store into.  Sourced after lib.sh; defines
#   pg_setup     KBENCH_TEST_PG set to the server's postgresql:// URI:
#                the one given in KBENCH_TEST_PG, or a throwaway server
#                started here; status 1 with PG_WHY saying why (for skip)
#   pg_teardown  the server started here stopped and its directory gone;
#                nothing for a given server; safe twice and from a trap
#   pg_stop      the server started here stopped (a crash: -m immediate)
#   pg_start     and started again on the same port with the same data
#   pg_psql SQL  SQL run by psql on the server, rows unaligned with '|'
#                between fields; no SQL reads it from stdin
# The throwaway server is Debian's postgresql (installed here when it is
# missing and we may, as root or through sudo -n), whichever version is in
# /usr/lib/postgresql, run as user postgres when we are root (initdb
# refuses root).  It listens on 127.0.0.1 alone, on a free port, trusts
# 127.0.0.1 alone, keeps its socket in its own directory and runs with
# fsync off: a test's data must outlive a crash of the server, never one
# of the machine.  Its directory is a mktemp of its own in TMPDIR, not in
# lib.sh's $T, which user postgres cannot enter.  Debian's own cluster
# (main, on 5432, which installing the package creates) is left alone.
# The PG* variables are left alone too, for the tests of what libpq makes
# of them; pg_psql ignores them.  Sourcing this replaces lib.sh's EXIT
# trap with one that also calls pg_teardown, and makes HUP, INT and TERM
# exit through it, so no server outlives its test; a test that sets a
# trap of its own calls pg_teardown in it.  Variables of its own start
# with _pg.
# apt.sh beside this file: the tests' directory (lib.sh exports it as
# KBENCH_TESTS, for a shell started elsewhere that sources this one).
. "${KBENCH_TESTS:-$(dirname "$0")}/apt.sh"
KBENCH_TEST_PG=${KBENCH_TEST_PG:-}
PG_WHY=
# The server's programs (initdb, pg_ctl, psql), its directory (data/,
# log, the socket), its port and the milliseconds pg_setup took; PG_DIR
# is empty unless a server was started here.
PG_BIN=
PG_DIR=
PG_PORT=
PG_SETUP_MS=
# The longest pg_ctl may wait for the server to start or stop, in seconds.
PG_TIMEOUT=${PG_TIMEOUT:-30}

trap 'pg_teardown; rm -rf ${T:+"$T"}' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# _pg_fail REASON: PG_WHY set and said on stderr, status 1.
_pg_fail() {
	PG_WHY=$1
	echo "pg.sh: $PG_WHY" >&2
	return 1
}

# Milliseconds of wall clock; GNU date's %N, else whole seconds.
_pg_ms() {
	_pgn=$(date +%s%N)
	case $_pgn in
	*[!0-9]*) echo $(($(date +%s) * 1000)) ;;
	*) echo $((_pgn / 1000000)) ;;
	esac
}

# _pg_find: PG_BIN set to the newest installed server's bin directory.
_pg_find() {
	PG_BIN=$(for _pgd in /usr/lib/postgresql/*/bin; do
		[ -x "$_pgd/initdb" ] && [ -x "$_pgd/pg_ctl" ] && [ -x "$_pgd/psql" ] && echo "$_pgd"
	done | sort -t/ -k5,5n | tail -n 1)
	[ -n "$PG_BIN" ]
}

# _pg_install PACKAGE: Debian's PACKAGE installed (tests/apt.sh); status 1
# with PG_WHY set when it cannot be.
_pg_install() {
	apt_install "$1" || { _pg_fail "$APT_WHY"; return 1; }
}

# _pg_as COMMAND...: COMMAND run in PG_DIR as the server's owner (postgres
# when we are root), so that it can read its working directory.
_pg_as() {
	if [ "$(id -u)" = 0 ]; then
		(cd "$PG_DIR" && runuser -u postgres -- "$@")
	else
		(cd "$PG_DIR" && "$@")
	fi
}

# _pg_free PORT: status 0 when nothing listens on TCP port PORT (as far as
# ss can tell; without ss every port looks free and a start that fails to
# bind tries another).
_pg_free() {
	command -v ss >/dev/null 2>&1 || return 0
	[ -z "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]
}

# _pg_port: a random port from 20000 to 59999 that nothing listens on:
# below Linux's ephemeral range (32768 up) would be safer from clients'
# ports, but too few for two tests at once to pick differently.
_pg_port() {
	while :; do
		_pgp=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
		_pgp=$((_pgp % 40000 + 20000))
		_pg_free "$_pgp" && break
	done
	echo "$_pgp"
}

# _pg_ctl_start: pg_ctl start, waiting until the server takes connections.
_pg_ctl_start() {
	_pg_as "$PG_BIN/pg_ctl" start -w -t "$PG_TIMEOUT" -D "$PG_DIR/data" \
		-l "$PG_DIR/log" >>"$PG_DIR/pg_ctl.out" 2>&1
}

# _pg_last: the server log's last error, or pg_ctl's last line.
_pg_last() {
	{ grep -E 'FATAL|ERROR|could not' "$PG_DIR/log" 2>/dev/null ||
		tail -n 1 "$PG_DIR/pg_ctl.out" 2>/dev/null; } | tail -n 1 | cut -c1-200
}

pg_setup() {
	PG_WHY=
	if [ -n "$KBENCH_TEST_PG" ] && [ -z "$PG_DIR" ]; then
		# A server someone gave: used as it is, but it has to answer.
		if ! _pg_find && ! command -v psql >/dev/null 2>&1; then
			_pg_install postgresql-client || return 1
		fi
		_pgerr=$(pg_psql 'select 1' 2>&1 >/dev/null) ||
			{ _pg_fail "the server given ($KBENCH_TEST_PG) does not answer: $(echo "$_pgerr" | head -n 1)"; return 1; }
		return 0
	fi
	[ -n "$PG_DIR" ] && return 0
	_pgt0=$(_pg_ms)
	if ! _pg_find; then
		_pg_install postgresql || return 1
		_pg_find || { _pg_fail "postgresql installed, but no /usr/lib/postgresql/*/bin/initdb"; return 1; }
	fi
	if [ "$(id -u)" = 0 ]; then
		_pguser=postgres
		command -v runuser >/dev/null 2>&1 ||
			{ _pg_fail "no runuser to run initdb as user postgres (initdb refuses root)"; return 1; }
		id postgres >/dev/null 2>&1 || { _pg_fail "no user postgres to run the server as"; return 1; }
	else
		_pguser=$(id -un)
	fi
	PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/kbench-pg.XXXXXX") ||
		{ PG_DIR=; _pg_fail "cannot make a directory for the server"; return 1; }
	[ "$_pguser" = postgres ] && chown postgres: "$PG_DIR"
	# No fsync anywhere (initdb's -N too), no locale to depend on.
	if ! _pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U "$_pguser" -A trust -E UTF8 \
		--no-locale -N >"$PG_DIR/initdb.out" 2>&1; then
		_pg_fail "initdb failed: $(tail -n 1 "$PG_DIR/initdb.out" | cut -c1-200)"
		pg_teardown
		return 1
	fi
	cat >"$PG_DIR/data/pg_hba.conf" <<EOF
# kbench's test server (tests/pg.sh): anyone on 127.0.0.1, no one else.
host all all 127.0.0.1/32 trust
EOF
	echo "include 'kbench.conf'" >>"$PG_DIR/data/postgresql.conf"
	# fsync off, but not synchronous_commit: a commit still reaches the
	# kernel before it returns, so that what a test committed survives
	# pg_stop's crash, as a real server's would.
	# Two tests at once may find the same free port and one of them lose
	# the race to bind it: that one tries another port, up to 10 times.
	_pgtry=0
	while :; do
		PG_PORT=$(_pg_port)
		cat >"$PG_DIR/data/kbench.conf" <<EOF
listen_addresses = '127.0.0.1'
port = $PG_PORT
unix_socket_directories = '$PG_DIR'
fsync = off
full_page_writes = off
EOF
		[ "$_pguser" = postgres ] && chown postgres: "$PG_DIR/data/pg_hba.conf" "$PG_DIR/data/kbench.conf"
		: >"$PG_DIR/log"
		[ "$_pguser" = postgres ] && chown postgres: "$PG_DIR/log"
		_pg_ctl_start && break
		_pgtry=$((_pgtry + 1))
		if ! grep -q 'already in use' "$PG_DIR/log" || [ "$_pgtry" -ge 10 ]; then
			_pg_fail "the server did not start on 127.0.0.1:$PG_PORT: $(_pg_last)"
			pg_teardown
			return 1
		fi
	done
	# A database of kbench's own, made through initdb's postgres.
	KBENCH_TEST_PG="postgresql://$_pguser@127.0.0.1:$PG_PORT/postgres"
	if ! _pgerr=$(pg_psql 'create database kbench' 2>&1 >/dev/null); then
		_pg_fail "cannot create database kbench: $(echo "$_pgerr" | head -n 1)"
		pg_teardown
		return 1
	fi
	KBENCH_TEST_PG="postgresql://$_pguser@127.0.0.1:$PG_PORT/kbench"
	export KBENCH_TEST_PG
	PG_SETUP_MS=$(($(_pg_ms) - _pgt0))
	return 0
}

pg_teardown() {
	[ -n "$PG_DIR" ] || return 0
	if [ -f "$PG_DIR/data/postmaster.pid" ]; then
		_pgpid=$(head -n 1 "$PG_DIR/data/postmaster.pid")
		if ! _pg_as "$PG_BIN/pg_ctl" stop -m immediate -w -t 10 -D "$PG_DIR/data" \
			>>"$PG_DIR/pg_ctl.out" 2>&1; then
			# A server that will not stop is ended, and its directory
			# removed only once it is gone.
			case $_pgpid in
			*[!0-9]* | '') ;;
			*) kill -KILL "$_pgpid" 2>/dev/null ;;
			esac
			_pgi=0
			while kill -0 "$_pgpid" 2>/dev/null && [ "$_pgi" -lt 50 ]; do
				sleep 0.1
				_pgi=$((_pgi + 1))
			done
		fi
	fi
	rm -rf "$PG_DIR"
	PG_DIR=
	PG_PORT=
	KBENCH_TEST_PG=
	return 0
}

pg_stop() {
	[ -n "$PG_DIR" ] || { _pg_fail "no server started here to stop (the server was given)"; return 1; }
	_pg_as "$PG_BIN/pg_ctl" stop -m immediate -w -t "$PG_TIMEOUT" -D "$PG_DIR/data" \
		>>"$PG_DIR/pg_ctl.out" 2>&1 ||
		{ _pg_fail "pg_ctl stop failed: $(tail -n 1 "$PG_DIR/pg_ctl.out")"; return 1; }
}

pg_start() {
	[ -n "$PG_DIR" ] || { _pg_fail "no server started here to start (the server was given)"; return 1; }
	_pg_ctl_start ||
		{ _pg_fail "the server did not start again on 127.0.0.1:$PG_PORT: $(_pg_last)"; return 1; }
}

# pg_psql [SQL [PSQL-ARG...]]: in a subshell without PG* variables, so
# that a test's own (PGHOST pointing nowhere, PGPASSWORD) do not reach it,
# and without ~/.psqlrc; a server that does not answer fails in 5 s.
pg_psql() {
	[ -n "$KBENCH_TEST_PG" ] || { echo "pg_psql: no server (pg_setup first)" >&2; return 2; }
	(
		for _pgv in $(env | sed -n 's/^\(PG[A-Za-z0-9_]*\)=.*/\1/p'); do
			unset "$_pgv"
		done
		_pgpsql=psql
		[ -n "$PG_BIN" ] && _pgpsql=$PG_BIN/psql
		PGCONNECT_TIMEOUT=5
		export PGCONNECT_TIMEOUT
		if [ $# = 0 ]; then
			exec "$_pgpsql" -X -q -A -t -v ON_ERROR_STOP=1 -d "$KBENCH_TEST_PG"
		fi
		_pgsql=$1
		shift
		exec "$_pgpsql" -X -q -A -t -v ON_ERROR_STOP=1 -d "$KBENCH_TEST_PG" -c "$_pgsql" "$@"
	)
}
