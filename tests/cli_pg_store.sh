#!/bin/sh
# Command-line tests of kbench's store on a PostgreSQL server that fails
# (issue 18): unreachable, refusing the password, stopped in the middle of
# a run, holding a schema from a newer kbench or another program's tables.
# Each gives one clear line and exit status 1, within 5 s where the
# network is what fails, and nothing half-written: a run stopped by its
# store keeps the results it finished.  A server of this file's own
# (tests/pg.sh), since the tests stop it and change who it lets in.
BUILD=${1:-build}
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg.sh"
FAST="--max-time 0.05 --replicas 2 --tmpdir $T/tmp --quiet"
# kb_bounded ARGS: kb, killed after a minute (status 124 then): a command
# that would hang fails its check instead of the whole test.
kb_bounded() { timeout 60 "$KB" "$@" >"$T/out" 2>"$T/err"; rc=$?; }

KBENCH_TEST_PG=
if ! pg_setup; then
	skip "kbench on a PostgreSQL server" "$PG_WHY"
	echo "1..$n"
	exit 0
fi
URI=$KBENCH_TEST_PG
BASE=${URI%/*}

# Nobody listens: refused at once, one line.  "At once": with a connect
# timeout of ten minutes it still returns (an outer bound of a minute would
# have killed it, status 124, had it waited for the timeout).
PGCONNECT_TIMEOUT=600 kb_bounded runs --db "postgresql://kb@127.0.0.1:1/kbench"
check "a port nobody listens on: one line, exit 1, at once (no wait for the timeout)" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q \"cannot open db 'postgresql://kb@127.0.0.1:1/kbench'\" '$T/err'"
# An address nothing answers (packets dropped, or no route): given up on its
# own, by kbench's default connect timeout and by PGCONNECT_TIMEOUT.
kb_bounded runs --db "postgresql://kb@10.255.255.1/kbench"
check "an address nothing answers: one line, exit 1, given up (kbench's connect timeout)" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ]"
PGCONNECT_TIMEOUT=1 kb_bounded runs --db "postgresql://kb@10.255.255.1/kbench"
check "an address nothing answers, PGCONNECT_TIMEOUT=1: one line, exit 1" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ]"

# A role with a password, the server asking for it on 127.0.0.1.
pg_psql "create role kbpw login password 's3cret'; grant all on database kbench to kbpw" >/dev/null
pg_psql "alter database kbench owner to kbpw" >/dev/null
{ echo "host all kbpw 127.0.0.1/32 scram-sha-256"; cat "$PG_DIR/data/pg_hba.conf"; } >"$T/hba"
cat "$T/hba" >"$PG_DIR/data/pg_hba.conf"
pg_psql "select pg_reload_conf()" >/dev/null
PW_URI="postgresql://kbpw:wrong@127.0.0.1:$PG_PORT/kbench"
kb import "$(dirname "$0")/fixtures/kernels.json" --db "$PW_URI"
check "a refused password: one line, exit 1, that says so" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'password authentication failed' '$T/err'"
check "and the password is not in the message" sh -c "! grep -q wrong '$T/err'"
PGPASSWORD=s3cret kb import "$(dirname "$0")/fixtures/kernels.json" --db "postgresql://kbpw@127.0.0.1:$PG_PORT/kbench"
check "the password from PGPASSWORD, as libpq reads it: the fixture imports" [ "$rc" = 0 ]
PGPASSWORD=s3cret kb summary 2.5.47 --db "postgresql://kbpw@127.0.0.1:$PG_PORT/kbench"
check "and reads back" sh -c "[ $rc = 0 ] && grep -q '^testbox ' '$T/out'"

kb import "$(dirname "$0")/fixtures/kernels.json" --db "postgresql://kbpw:s3cret@127.0.0.1:$PG_PORT/kbench"
check "the password in the URI: it connects, and no line repeats it" sh -c \
	"[ $rc = 0 ] && grep -q 'added to postgresql://kbpw@127.0.0.1:$PG_PORT/kbench' '$T/err' && ! grep -q s3cret '$T/err' '$T/out'"
kb summary nosuch --db "postgresql://kbpw:s3cret@127.0.0.1:$PG_PORT/kbench"
check "nor an error's line" sh -c "[ $rc = 1 ] && grep -q 'nosuch' '$T/err' && ! grep -q s3cret '$T/err'"
# A password among the URI's parameters, as libpq takes one too: the
# parameters are not shown at all ("?..."), a passfile's path neither.
kb import "$(dirname "$0")/fixtures/kernels.json" --db "postgresql://kbpw@127.0.0.1:$PG_PORT/kbench?connect_timeout=5&password=s3cret"
check "a password in the URI's parameters: it connects, and no line repeats it" sh -c \
	"[ $rc = 0 ] && grep -q 'postgresql://kbpw@127.0.0.1:$PG_PORT/kbench?\.\.\.' '$T/err' && ! grep -q 's3cret\|connect_timeout' '$T/err' '$T/out'"
kb summary nosuch --db "postgresql://kbpw@127.0.0.1:$PG_PORT/kbench?password=s3cret"
check "nor an error's line" sh -c "[ $rc = 1 ] && grep -q 'nosuch' '$T/err' && ! grep -q s3cret '$T/err'"
kb summary --db "postgresql://kbpw:x@127.0.0.1:$PG_PORT/kbench?password=wrong&passfile=$T/no/such/pgpass"
check "nor a refused connection's, the passfile's path neither" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && ! grep -q 'wrong\|pgpass' '$T/err'"

# Malformed URIs: a password with '/' or '@' in it is hidden whole, and a
# scheme in capitals is a URI still, not a file of that name.
for u in "postgresql://kbpw:pw/with/slash@127.0.0.1:$PG_PORT/kbench" \
	"postgresql://kbpw:p@ss@127.0.0.1:$PG_PORT/kbench"; do
	kb summary --db "$u"
	check "a password with / or @ ('$u'): one line, exit 1, none of it shown" sh -c \
		"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && ! grep -q 'slash\|pw/\|ss@\|p@' '$T/err'"
done
(cd "$T" && PGPASSWORD=s3cret "$KB" summary 2.5.47 --db "POSTGRESQL://kbpw@127.0.0.1:$PG_PORT/kbench" >"$T/out" 2>"$T/err")
check "a scheme in capitals connects, no file made" sh -c \
	"[ \$? = 0 ] && grep -q '^testbox ' '$T/out' && [ ! -e '$T/POSTGRESQL:' ]"

# A schema from a newer kbench: refused by readers and writers, left as it is.
pg_psql "update kbench_schema set version = 99" >/dev/null
kb summary --db "$URI"
check "a newer kbench's schema: summary refuses it in one line" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'made by a newer kbench (schema 99' '$T/err'"
kb run --only sys.null $FAST --db "$URI"
check "run refuses it before measuring" sh -c \
	"[ $rc = 1 ] && grep -q 'newer kbench' '$T/err' && ! grep -q 'sys.null' '$T/out'"
check "and it is left as it was" [ "$(pg_psql 'select version from kbench_schema')" = 99 ]
pg_psql "update kbench_schema set version = (select max(version) from kbench_schema) - 91" >/dev/null

# Another program's tables and no kbench schema: not kbench's to write into.
pg_psql "create database other" >/dev/null
KBENCH_TEST_PG="$BASE/other" pg_psql "create table accounts (id int)" >/dev/null
kb run --only sys.null $FAST --db "$BASE/other"
tables=$(KBENCH_TEST_PG="$BASE/other" pg_psql "select count(*) from pg_tables where schemaname = 'public'")
check "a database of another program's: refused in one line, untouched" sh -c \
	"[ $rc = 1 ] && [ \$(wc -l <'$T/err') = 1 ] && grep -q 'not a kbench database' '$T/err' && [ '$tables' = 1 ]"

# The server stopped in the middle of a run: the run stops at its next
# write, saying so in one line, and what it finished is there when the
# server is back.
pg_psql "create database live" >/dev/null
LIVE="$BASE/live"
"$KB" run --only 'sys.null,sys.read,sys.write,sys.stat,sys.fstat,sys.open_close' --max-time 0.5 \
	--replicas 2 --tmpdir "$T/tmp" --quiet --label live --db "$LIVE" >"$T/live.out" 2>"$T/live.err" &
pid=$!
live_results() { [ "$(KBENCH_TEST_PG=$LIVE pg_psql "select count(*) from results" 2>/dev/null)" -ge 1 ] 2>/dev/null; }
wait_for live_results
pg_stop
# It must notice on its own (bounded: a run that hangs on the dead server fails here).
wait_for eval "! kill -0 $pid 2>/dev/null"
kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
wait "$pid"
live_rc=$?
check "a run whose server stops: exit 1, by itself" [ "$live_rc" = 1 ]
check "and its store's failure in one line, then how much was stored" sh -c \
	"grep -q \"cannot .* db '$LIVE'\" '$T/live.err' && grep -q 'run stopped' '$T/live.err'"
pg_start
kb runs live --db "$LIVE"
check "the server back: the run is there, interrupted" sh -c "[ $rc = 0 ] && grep -q '; interrupted' '$T/out'"
check "each result it kept is whole: its samples all there" \
	[ "$(KBENCH_TEST_PG=$LIVE pg_psql 'select count(*) from results r where n <> (select count(*) from samples s where s.result_id = r.id)')" = 0 ]
check "and at least the one finished before the stop" \
	[ "$(KBENCH_TEST_PG=$LIVE pg_psql 'select count(*) from results')" -ge 1 ]
pg_teardown
echo "1..$n"
