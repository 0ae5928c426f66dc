/*
 * Conformance of db.h's two engines: the same tests run against SQLite,
 * on a temporary file each, and against PostgreSQL, the server in
 * $KBENCH_TEST_PG (tests/run.sh starts one when none is given), each in
 * a schema of this process's own (kbtest_<pid>), dropped before and after
 * every test.  Whatever the store may ask of one engine it may ask of the
 * other with the same answer: schema text in SQLite's types, '?'
 * parameters, int64 and doubles exactly, NaN as NULL, rows, changes,
 * versions, transactions and their lock, errors, ON CONFLICT.  Then what
 * only PostgreSQL has: the session's settings, a connection the server
 * ends mid-session, and (with no server needed) connecting where nothing
 * answers, which must fail in one line within 5 s.  Without
 * $KBENCH_TEST_PG the PostgreSQL group skips, saying why.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <float.h>
#include <math.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "store/db.h"

/* A test's connection. */
struct fx {
	struct db *db;		/* the connection under test */
	enum db_engine engine;	/* which engine it is */
	char path[64];		/* the SQLite file, mkstemp'd; "" on PostgreSQL */
};

static const char *pg_uri;	/* $KBENCH_TEST_PG; NULL: the PostgreSQL group skips */
static char pg_schema[32];	/* kbtest_<pid>: all a PostgreSQL test makes is in it */

/*
 * The schema the tests share, in SQLite's types as the store writes
 * them, with what db_ddl must get right on PostgreSQL: an INTEGER PRIMARY
 * KEY in both cases, a type's name inside a literal (which must stay as
 * it is), CHECK, DEFAULT, REFERENCES with a cascade, both kinds of index,
 * and a '?' in a quoted name and in a comment.
 */
static const char test_schema[] =
	"CREATE TABLE hosts (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL,\n"
	"  kind TEXT NOT NULL DEFAULT 'REAL INTEGER' CHECK (kind IN ('REAL INTEGER', 'box'))\n"
	");\n"
	"CREATE UNIQUE INDEX hosts_name ON hosts(name);\n"
	"CREATE TABLE vals (\n"
	"  id integer  primary\n key,\n"
	"  host_id INTEGER NOT NULL REFERENCES hosts(id) ON DELETE CASCADE,\n"
	"  n INTEGER,\n"
	"  x REAL DEFAULT -1,\n"
	"  s TEXT,\n"
	"  \"a?b\" TEXT -- a name with a '?' in it, and a comment: why?\n"
	");\n"
	"CREATE INDEX vals_host_id ON vals(host_id);\n";

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void exec_ok(struct db *db, const char *sql)
{
	if (db_exec(db, sql) < 0)
		fail_msg("%s: %s", sql, db_errmsg(db));
}

static void ddl_ok(struct db *db, const char *sql)
{
	if (db_ddl(db, sql) < 0)
		fail_msg("%s: %s", sql, db_errmsg(db));
}

static struct db_stmt *prep(struct db *db, const char *sql)
{
	struct db_stmt *st = db_prepare(db, sql);

	if (!st)
		fail_msg("%s: %s", sql, db_errmsg(db));
	return st;
}

/* sql's one row's first column, as an int64. */
static int64_t one_int(struct db *db, const char *sql)
{
	struct db_stmt *st = prep(db, sql);
	int64_t v;

	if (db_step(st) != DB_ROW)
		fail_msg("%s: no row: %s", sql, db_errmsg(db));
	v = db_column_int64(st, 0);
	assert_int_equal(db_step(st), DB_DONE);
	db_finalize(st);
	return v;
}

/* The same, as text, copied into buf (n bytes); "(null)" for NULL. */
static const char *one_text(struct db *db, const char *sql, char *buf, size_t n)
{
	struct db_stmt *st = prep(db, sql);
	const char *v;

	if (db_step(st) != DB_ROW)
		fail_msg("%s: no row: %s", sql, db_errmsg(db));
	v = db_column_text(st, 0);
	snprintf(buf, n, "%s", v ? v : "(null)");
	db_finalize(st);
	return buf;
}

/* Whether s holds what, in any case: the engines' words differ in case. */
static int has(const char *s, const char *what)
{
	size_t n = strlen(what);

	for (; *s; s++)
		if (!strncasecmp(s, what, n))
			return 1;
	return 0;
}

/* A message as db.h promises it: there, and one line. */
static void assert_one_line(const char *msg)
{
	assert_non_null(msg);
	assert_true(msg[0] != '\0');
	assert_null(strchr(msg, '\n'));
}

/* The PostgreSQL session of a test: in the process's own schema, empty. */
static void pg_enter(struct db *db)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE; CREATE SCHEMA %s;"
		 " SET search_path TO %s", pg_schema, pg_schema, pg_schema);
	exec_ok(db, sql);
}

static struct db *pg_connect(void)
{
	char err[256];
	struct db *db = db_pg_open(pg_uri, err);

	if (!db)
		fail_msg("cannot connect to %s: %s", pg_uri, err);
	return db;
}

static int setup_sqlite(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char err[256];
	int fd;

	if (!f)
		return -1;
	f->engine = DB_SQLITE;
	snprintf(f->path, sizeof(f->path), "/tmp/kbench-test-db-XXXXXX");
	fd = mkstemp(f->path);
	if (fd < 0) {
		free(f);
		return -1;
	}
	close(fd);
	f->db = db_sqlite_open(f->path, DB_SQLITE_READWRITE | DB_SQLITE_CREATE, 1000, err);
	if (!f->db) {
		print_message("# cannot open %s: %s\n", f->path, err);
		unlink(f->path);
		free(f);
		return -1;
	}
	/* As the store does: REFERENCES are only enforced with it. */
	if (db_exec(f->db, "PRAGMA foreign_keys = ON") < 0) {
		db_close(f->db);
		unlink(f->path);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown_sqlite(void **state)
{
	struct fx *f = *state;

	db_close(f->db);
	unlink(f->path);
	free(f);
	return 0;
}

/* No server: no fixture, and the test skips (main has said why). */
static int setup_pg(void **state)
{
	struct fx *f;
	char err[256];

	*state = NULL;
	if (!pg_uri)
		return 0;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	f->engine = DB_PG;
	f->db = db_pg_open(pg_uri, err);
	if (!f->db) {
		print_message("# cannot connect to %s: %s\n", pg_uri, err);
		free(f);
		return -1;
	}
	pg_enter(f->db);
	*state = f;
	return 0;
}

/* The schema dropped, on a new connection if the test broke its own. */
static int teardown_pg(void **state)
{
	struct fx *f = *state;
	char sql[96], err[256];
	struct db *db;
	int rc = 0;

	if (!f)
		return 0;
	snprintf(sql, sizeof(sql), "DROP SCHEMA IF EXISTS %s CASCADE", pg_schema);
	if (db_exec(f->db, sql) < 0) {
		db = db_pg_open(pg_uri, err);
		rc = db && db_exec(db, sql) == 0 ? 0 : -1;
		if (rc < 0)
			print_message("# cannot drop %s: %s\n", pg_schema, db ? db_errmsg(db) : err);
		db_close(db);
	}
	db_close(f->db);
	free(f);
	return rc;
}

/* The fixture, or the test skipped when there is no server. */
static struct fx *fixture(void **state)
{
	struct fx *f = *state;

	if (!f)
		skip();
	return f;
}

/* A second connection to the same database, which waits 100 ms at most for a lock. */
static struct db *other(struct fx *f)
{
	char err[256], sql[128];
	struct db *db;

	if (f->engine == DB_SQLITE) {
		db = db_sqlite_open(f->path, DB_SQLITE_READWRITE, 100, err);
		if (!db)
			fail_msg("cannot open %s again: %s", f->path, err);
		return db;
	}
	db = pg_connect();
	snprintf(sql, sizeof(sql), "SET search_path TO %s; SET lock_timeout TO '100ms'", pg_schema);
	exec_ok(db, sql);
	return db;
}

/* A host named name, its id by INSERT ... RETURNING id. */
static int64_t add_host(struct db *db, const char *name)
{
	struct db_stmt *st = prep(db, "INSERT INTO hosts (name) VALUES (?) RETURNING id");
	int64_t id;

	assert_int_equal(db_bind_text(st, 1, name), 0);
	if (db_step(st) != DB_ROW)
		fail_msg("insert of host %s: %s", name, db_errmsg(db));
	id = db_column_int64(st, 0);
	assert_int_equal(db_step(st), DB_DONE);
	db_finalize(st);
	return id;
}

/* Rows n = 1 to count in vals, of a host of their own. */
static void add_rows(struct db *db, int count)
{
	int64_t host = add_host(db, "rows");
	struct db_stmt *st = prep(db, "INSERT INTO vals (host_id, n) VALUES (?, ?)");

	assert_int_equal(db_begin(db, 0), 0);
	for (int i = 1; i <= count; i++) {
		assert_int_equal(db_bind_int64(st, 1, host), 0);
		assert_int_equal(db_bind_int64(st, 2, i), 0);
		assert_int_equal(db_step(st), DB_DONE);
		db_reset(st);
	}
	assert_int_equal(db_commit(db), 0);
	db_finalize(st);
}

/* A statement that must fail as it runs, with a message holding what (any case). */
static void step_fails(struct db *db, struct db_stmt *st, const char *what)
{
	assert_int_equal(db_step(st), -1);
	assert_one_line(db_errmsg(db));
	if (!has(db_errmsg(db), what))
		fail_msg("expected \"%s\" in: %s", what, db_errmsg(db));
	assert_false(db_busy(db));
	db_reset(st);
}

static void test_ddl(void **state)
{
	struct fx *f = fixture(state);
	struct db_stmt *st;
	char buf[64];

	ddl_ok(f->db, test_schema);
	/* Ids numbered by the database, from 1. */
	assert_int_equal(add_host(f->db, "a"), 1);
	assert_int_equal(add_host(f->db, "b"), 2);
	/* The literal kept its words: a DEFAULT and a CHECK that still agree. */
	assert_string_equal(one_text(f->db, "SELECT kind FROM hosts WHERE id = 1", buf, sizeof(buf)),
			    "REAL INTEGER");
	st = prep(f->db, "INSERT INTO hosts (name, kind) VALUES (?, ?)");
	assert_int_equal(db_bind_text(st, 1, "c"), 0);
	assert_int_equal(db_bind_text(st, 2, "nope"), 0);
	step_fails(f->db, st, "check");
	assert_int_equal(db_bind_text(st, 1, "a"), 0);
	assert_int_equal(db_bind_text(st, 2, "box"), 0);
	step_fails(f->db, st, "unique");
	db_finalize(st);
	st = prep(f->db, "INSERT INTO vals (host_id, n) VALUES (?, 1)");
	assert_int_equal(db_bind_int64(st, 1, 99), 0);
	step_fails(f->db, st, "foreign key");
	assert_int_equal(db_bind_int64(st, 1, 2), 0);
	assert_int_equal(db_step(st), DB_DONE);
	db_finalize(st);
	/* DEFAULT -1 on a REAL, and the cascade. */
	assert_int_equal(one_int(f->db, "SELECT x FROM vals"), -1);
	exec_ok(f->db, "DELETE FROM hosts WHERE id = 2");
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM vals"), 0);
	if (f->engine == DB_PG) {
		/* The types the rewrite gave, column by column. */
		static const char *const want[] = {
			"id bigint YES", "host_id bigint NO", "n bigint NO", "x double precision NO",
			"s text NO", "a?b text NO",
		};
		int i = 0;

		st = prep(f->db, "SELECT column_name || ' ' || data_type || ' ' || is_identity"
				 " FROM information_schema.columns WHERE table_schema = current_schema()"
				 " AND table_name = 'vals' ORDER BY ordinal_position");
		while (db_step(st) == DB_ROW) {
			assert_true(i < 6);
			assert_string_equal(db_column_text(st, 0), want[i++]);
		}
		assert_int_equal(i, 6);
		db_finalize(st);
	}
}

static void test_returning(void **state)
{
	struct fx *f = fixture(state);
	struct db_stmt *st;

	ddl_ok(f->db, test_schema);
	st = prep(f->db, "INSERT INTO hosts (name) VALUES (?) RETURNING id, name");
	assert_int_equal(db_bind_text(st, 1, "one"), 0);
	assert_int_equal(db_step(st), DB_ROW);
	assert_int_equal(db_column_int64(st, 0), 1);
	assert_string_equal(db_column_text(st, 1), "one");
	assert_int_equal(db_step(st), DB_DONE);
	assert_int_equal(db_changes(f->db), 1);
	db_reset(st);
	assert_int_equal(db_bind_text(st, 1, "two"), 0);
	assert_int_equal(db_step(st), DB_ROW);
	assert_int_equal(db_column_int64(st, 0), 2);
	assert_int_equal(db_step(st), DB_DONE);
	db_finalize(st);
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM hosts"), 2);
}

static void test_int64(void **state)
{
	static const int64_t v[] = {
		0, 1, -1, INT64_MAX, INT64_MIN, 9007199254740993LL, -9007199254740993LL,
		1234567890123456789LL, 4294967296LL,
	};
	struct fx *f = fixture(state);
	size_t nv = sizeof(v) / sizeof(v[0]), i = 0;
	struct db_stmt *st;
	int64_t host;
	char text[24];

	ddl_ok(f->db, test_schema);
	host = add_host(f->db, "h");
	st = prep(f->db, "INSERT INTO vals (host_id, n) VALUES (?, ?)");
	for (i = 0; i < nv; i++) {
		assert_int_equal(db_bind_int64(st, 1, host), 0);
		assert_int_equal(db_bind_int64(st, 2, v[i]), 0);
		assert_int_equal(db_step(st), DB_DONE);
		db_reset(st);
	}
	db_finalize(st);
	st = prep(f->db, "SELECT n, id FROM vals ORDER BY id");
	for (i = 0; db_step(st) == DB_ROW; i++) {
		assert_true(i < nv);
		assert_true(db_column_int64(st, 0) == v[i]);
		snprintf(text, sizeof(text), "%lld", (long long)v[i]);
		assert_string_equal(db_column_text(st, 0), text);
		assert_false(db_column_null(st, 0));
	}
	assert_int_equal(i, nv);
	db_finalize(st);
	/* And compared on the server: a bound int64 finds its row. */
	st = prep(f->db, "SELECT count(*) FROM vals WHERE n = ?");
	assert_int_equal(db_bind_int64(st, 1, INT64_MIN), 0);
	assert_int_equal(db_step(st), DB_ROW);
	assert_int_equal(db_column_int64(st, 0), 1);
	db_finalize(st);
}

static void test_real(void **state)
{
	const double v[] = {
		1.0 / 3, 1e-300, -1e300, 0.1, DBL_MAX, DBL_MIN, M_PI, -2.5, 0.0,
		(double)INFINITY, -(double)INFINITY, (double)NAN,
	};
	struct fx *f = fixture(state);
	size_t nv = sizeof(v) / sizeof(v[0]), i;
	struct db_stmt *st;
	int64_t host;

	ddl_ok(f->db, test_schema);
	host = add_host(f->db, "h");
	st = prep(f->db, "INSERT INTO vals (host_id, x) VALUES (?, ?)");
	for (i = 0; i < nv; i++) {
		assert_int_equal(db_bind_int64(st, 1, host), 0);
		assert_int_equal(db_bind_real(st, 2, v[i]), 0);
		if (db_step(st) != DB_DONE)
			fail_msg("insert of %.17g: %s", v[i], db_errmsg(f->db));
		db_reset(st);
	}
	db_finalize(st);
	st = prep(f->db, "SELECT x FROM vals ORDER BY id");
	for (i = 0; db_step(st) == DB_ROW; i++) {
		double x = db_column_real(st, 0);

		assert_true(i < nv);
		if (isnan(v[i])) {
			/* NaN went in as NULL and comes out as NaN. */
			assert_true(db_column_null(st, 0));
			assert_true(isnan(x));
		} else if (memcmp(&x, &v[i], sizeof(x)) != 0) {
			fail_msg("row %zu: %.17g came back as %.17g", i, v[i], x);
		}
	}
	assert_int_equal(i, nv);
	db_finalize(st);
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM vals WHERE x IS NULL"), 1);
	/* A bound third compared on the server finds exactly its row. */
	st = prep(f->db, "SELECT count(*) FROM vals WHERE x = ?");
	assert_int_equal(db_bind_real(st, 1, 1.0 / 3), 0);
	assert_int_equal(db_step(st), DB_ROW);
	assert_int_equal(db_column_int64(st, 0), 1);
	db_finalize(st);
}

static void test_text(void **state)
{
	static const char *const v[] = {
		"", "plain", "Grüße, 世界 ✓", "it's a \"quote\"", "what? ?? '?' $1",
		"back\\slash", "line\nbreak\ttab", "-- not a comment /* nor this */",
	};
	struct fx *f = fixture(state);
	size_t nv = sizeof(v) / sizeof(v[0]), i;
	struct db_stmt *st;
	int64_t host;

	ddl_ok(f->db, test_schema);
	host = add_host(f->db, "h");
	st = prep(f->db, "INSERT INTO vals (host_id, s, \"a?b\") VALUES (?, ?, ?)");
	for (i = 0; i < nv; i++) {
		assert_int_equal(db_bind_int64(st, 1, host), 0);
		assert_int_equal(db_bind_text(st, 2, v[i]), 0);
		assert_int_equal(db_bind_text(st, 3, v[nv - 1 - i]), 0);
		assert_int_equal(db_step(st), DB_DONE);
		db_reset(st);
	}
	db_finalize(st);
	st = prep(f->db, "SELECT s, \"a?b\" FROM vals ORDER BY id");
	for (i = 0; db_step(st) == DB_ROW; i++) {
		assert_true(i < nv);
		assert_string_equal(db_column_text(st, 0), v[i]);
		assert_string_equal(db_column_text(st, 1), v[nv - 1 - i]);
	}
	assert_int_equal(i, nv);
	db_finalize(st);
	/* One parameter: the other '?' are in a literal, a name and comments. */
	st = prep(f->db, "SELECT \"a?b\", 'what?', 'it''s?' FROM vals /* why? */"
			 " WHERE s = ? -- and this?");
	assert_int_equal(db_bind_text(st, 1, "Grüße, 世界 ✓"), 0);
	assert_int_equal(db_bind_text(st, 2, "x"), -1);
	assert_one_line(db_errmsg(f->db));
	assert_int_equal(db_step(st), DB_ROW);
	assert_string_equal(db_column_text(st, 0), v[nv - 1 - 2]);
	assert_string_equal(db_column_text(st, 1), "what?");
	assert_string_equal(db_column_text(st, 2), "it's?");
	assert_int_equal(db_step(st), DB_DONE);
	db_finalize(st);
}

static void test_null(void **state)
{
	struct fx *f = fixture(state);
	struct db_stmt *st;
	int64_t host;

	ddl_ok(f->db, test_schema);
	host = add_host(f->db, "h");
	st = prep(f->db, "INSERT INTO vals (host_id, n, x, s, \"a?b\") VALUES (?, ?, ?, ?, ?)");
	assert_int_equal(db_bind_int64(st, 1, host), 0);
	assert_int_equal(db_bind_null(st, 2), 0);
	assert_int_equal(db_bind_real(st, 3, (double)NAN), 0);
	assert_int_equal(db_bind_text(st, 4, NULL), 0);
	assert_int_equal(db_bind_null(st, 5), 0);
	assert_int_equal(db_step(st), DB_DONE);
	db_finalize(st);
	st = prep(f->db, "SELECT n, x, s, \"a?b\", NULL FROM vals");
	assert_int_equal(db_step(st), DB_ROW);
	for (int i = 0; i < 5; i++) {
		assert_true(db_column_null(st, i));
		assert_int_equal(db_column_int64(st, i), 0);
		assert_true(isnan(db_column_real(st, i)));
		assert_null(db_column_text(st, i));
	}
	assert_int_equal(db_step(st), DB_DONE);
	db_finalize(st);
	/* The empty string is not NULL. */
	exec_ok(f->db, "UPDATE vals SET s = ''");
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM vals WHERE s IS NULL"), 0);
}

static void test_rows(void **state)
{
	struct fx *f = fixture(state);
	struct db_stmt *st;

	ddl_ok(f->db, test_schema);
	add_rows(f->db, 5);
	st = prep(f->db, "SELECT n, n * 10 FROM vals WHERE n >= ? ORDER BY n");
	assert_int_equal(db_bind_int64(st, 1, 2), 0);
	for (int want = 2; want <= 5; want++) {
		assert_int_equal(db_step(st), DB_ROW);
		assert_int_equal(db_column_int64(st, 0), want);
		assert_int_equal(db_column_int64(st, 1), want * 10);
	}
	assert_int_equal(db_step(st), DB_DONE);
	/* Reset clears the bindings: n >= NULL holds for no row. */
	db_reset(st);
	assert_int_equal(db_step(st), DB_DONE);
	db_reset(st);
	assert_int_equal(db_bind_int64(st, 1, 4), 0);
	assert_int_equal(db_step(st), DB_ROW);
	assert_int_equal(db_column_int64(st, 0), 4);
	/* Reset half-way: the next run starts from its first row again. */
	db_reset(st);
	assert_int_equal(db_bind_int64(st, 1, 3), 0);
	assert_int_equal(db_step(st), DB_ROW);
	assert_int_equal(db_column_int64(st, 0), 3);
	assert_int_equal(db_step(st), DB_ROW);
	assert_int_equal(db_column_int64(st, 0), 4);
	assert_int_equal(db_step(st), DB_ROW);
	assert_int_equal(db_column_int64(st, 0), 5);
	assert_int_equal(db_step(st), DB_DONE);
	db_finalize(st);
	/* A query with no row is done at once. */
	st = prep(f->db, "SELECT n FROM vals WHERE n > 100");
	assert_int_equal(db_step(st), DB_DONE);
	db_finalize(st);
}

static void test_changes(void **state)
{
	struct fx *f = fixture(state);
	struct db_stmt *st;

	ddl_ok(f->db, test_schema);
	add_rows(f->db, 5);
	st = prep(f->db, "UPDATE vals SET x = ? WHERE n > ?");
	assert_int_equal(db_bind_real(st, 1, 0.5), 0);
	assert_int_equal(db_bind_int64(st, 2, 2), 0);
	assert_int_equal(db_step(st), DB_DONE);
	assert_int_equal(db_changes(f->db), 3);
	db_finalize(st);
	exec_ok(f->db, "DELETE FROM vals WHERE n = 1");
	assert_int_equal(db_changes(f->db), 1);
	/* A query changes nothing, and leaves the count alone. */
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM vals WHERE x = 0.5"), 3);
	assert_int_equal(db_changes(f->db), 1);
	exec_ok(f->db, "UPDATE vals SET x = 1 WHERE n > 100");
	assert_int_equal(db_changes(f->db), 0);
}

static void test_version(void **state)
{
	struct fx *f = fixture(state);
	long long v = -1, tables = -1;

	assert_int_equal(db_version(f->db, &v, &tables), 0);
	assert_int_equal(v, 0);
	assert_int_equal(tables, 0);
	ddl_ok(f->db, "CREATE TABLE t (x INTEGER)");
	assert_int_equal(db_version(f->db, &v, &tables), 0);
	assert_int_equal(v, 0);
	assert_int_equal(tables, 1);
	assert_int_equal(db_set_version(f->db, 3), 0);
	assert_int_equal(db_version(f->db, &v, NULL), 0);
	assert_int_equal(v, 3);
	assert_int_equal(db_set_version(f->db, 12), 0);
	assert_int_equal(db_version(f->db, &v, &tables), 0);
	assert_int_equal(v, 12);
	assert_true(tables >= 1);
	/* Migrated under the lock and rolled back: the version too. */
	assert_int_equal(db_begin(f->db, 1), 0);
	assert_int_equal(db_set_version(f->db, 13), 0);
	assert_int_equal(db_version(f->db, &v, NULL), 0);
	assert_int_equal(v, 13);
	db_rollback(f->db);
	assert_int_equal(db_version(f->db, &v, NULL), 0);
	assert_int_equal(v, 12);
}

static void test_transaction(void **state)
{
	struct fx *f = fixture(state);

	ddl_ok(f->db, test_schema);
	assert_int_equal(db_begin(f->db, 0), 0);
	add_host(f->db, "gone");
	exec_ok(f->db, "INSERT INTO hosts (name) VALUES ('gone too')");
	db_rollback(f->db);
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM hosts"), 0);
	assert_int_equal(db_begin(f->db, 1), 0);
	add_host(f->db, "kept");
	/* One transaction at a time, as SQLite has it. */
	assert_int_equal(db_begin(f->db, 0), -1);
	assert_one_line(db_errmsg(f->db));
	assert_int_equal(db_commit(f->db), 0);
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM hosts"), 1);
	/* No transaction: nothing to commit, and rollback does nothing. */
	assert_int_equal(db_commit(f->db), -1);
	assert_one_line(db_errmsg(f->db));
	db_rollback(f->db);
	/* A failure in a transaction, then rollback: nothing of it stays. */
	assert_int_equal(db_begin(f->db, 0), 0);
	add_host(f->db, "half");
	assert_int_equal(db_exec(f->db, "INSERT INTO hosts (name) VALUES ('kept')"), -1);
	db_rollback(f->db);
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM hosts"), 1);
	/* PostgreSQL's ids have gaps where SQLite's have none: only that there is one. */
	assert_true(add_host(f->db, "after") > 1);
}

static void test_errors(void **state)
{
	struct fx *f = fixture(state);
	struct db_stmt *st;

	assert_int_equal(db_exec(f->db, "SELEC 1"), -1);
	assert_one_line(db_errmsg(f->db));
	assert_false(db_busy(f->db));
	assert_null(db_prepare(f->db, "SELECT x FROM nosuch WHERE x = ?"));
	assert_one_line(db_errmsg(f->db));
	if (!strstr(db_errmsg(f->db), "nosuch"))
		fail_msg("the message does not name the table: %s", db_errmsg(f->db));
	assert_int_equal(db_ddl(f->db, "CREATE TABLE t (x INTEGER"), -1);
	assert_one_line(db_errmsg(f->db));
	ddl_ok(f->db, "CREATE TABLE t (x INTEGER NOT NULL)");
	assert_int_equal(db_ddl(f->db, "CREATE TABLE t (x INTEGER)"), -1);
	assert_one_line(db_errmsg(f->db));
	st = prep(f->db, "INSERT INTO t (x) VALUES (?)");
	step_fails(f->db, st, "null");
	/* The statement survives its failure. */
	assert_int_equal(db_bind_int64(st, 1, 7), 0);
	assert_int_equal(db_step(st), DB_DONE);
	db_finalize(st);
	assert_int_equal(one_int(f->db, "SELECT x FROM t"), 7);
	/* A statement finalized in a failed transaction, which goes on after the rollback. */
	assert_int_equal(db_begin(f->db, 0), 0);
	st = prep(f->db, "SELECT x FROM t");
	assert_int_equal(db_exec(f->db, "INSERT INTO t (x) VALUES (NULL)"), -1);
	db_finalize(st);
	db_rollback(f->db);
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM t"), 1);
	/* Each statement finalized is gone from the server, that one too: the query's own is left. */
	if (f->engine == DB_PG)
		assert_int_equal(one_int(f->db, "SELECT count(*) FROM pg_prepared_statements"), 1);
}

static void test_conflict(void **state)
{
	struct fx *f = fixture(state);
	struct db_stmt *st;

	ddl_ok(f->db, test_schema);
	st = prep(f->db, "INSERT INTO hosts (name) VALUES (?) ON CONFLICT DO NOTHING");
	assert_int_equal(db_bind_text(st, 1, "twice"), 0);
	assert_int_equal(db_step(st), DB_DONE);
	assert_int_equal(db_changes(f->db), 1);
	db_reset(st);
	assert_int_equal(db_bind_text(st, 1, "twice"), 0);
	assert_int_equal(db_step(st), DB_DONE);
	assert_int_equal(db_changes(f->db), 0);
	db_finalize(st);
	/* With a target and RETURNING: no row the second time. */
	st = prep(f->db, "INSERT INTO hosts (name) VALUES (?) ON CONFLICT (name) DO NOTHING RETURNING id");
	assert_int_equal(db_bind_text(st, 1, "twice"), 0);
	assert_int_equal(db_step(st), DB_DONE);
	db_reset(st);
	assert_int_equal(db_bind_text(st, 1, "once"), 0);
	assert_int_equal(db_step(st), DB_ROW);
	assert_true(db_column_int64(st, 0) > 1);
	assert_int_equal(db_step(st), DB_DONE);
	db_finalize(st);
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM hosts WHERE name = 'twice'"), 1);
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM hosts"), 2);
}

/* db_begin(db, 1) by two connections: the second waits, then is told it is busy. */
static void test_busy(void **state)
{
	struct fx *f = fixture(state);
	struct db *b;

	ddl_ok(f->db, test_schema);
	b = other(f);
	assert_int_equal(db_begin(f->db, 1), 0);
	add_host(f->db, "first");
	assert_int_equal(db_begin(b, 1), -1);
	assert_one_line(db_errmsg(b));
	if (!db_busy(b))
		fail_msg("not busy: %s", db_errmsg(b));
	db_rollback(b);
	assert_int_equal(db_commit(f->db), 0);
	assert_int_equal(db_begin(b, 1), 0);
	add_host(b, "second");
	assert_int_equal(db_commit(b), 0);
	assert_int_equal(one_int(f->db, "SELECT count(*) FROM hosts"), 2);
	db_close(b);
}

/* What the session is, whatever PG* said. */
static void test_pg_session(void **state)
{
	struct fx *f = fixture(state);
	struct db *db;
	char buf[64], uri[512];

	(void)f;
	setenv("PGTZ", "Europe/Paris", 1);
	setenv("PGCLIENTENCODING", "LATIN1", 1);
	db = pg_connect();
	unsetenv("PGTZ");
	unsetenv("PGCLIENTENCODING");
	assert_string_equal(one_text(db, "SHOW TimeZone", buf, sizeof(buf)), "UTC");
	assert_string_equal(one_text(db, "SHOW client_encoding", buf, sizeof(buf)), "UTF8");
	assert_string_equal(one_text(db, "SHOW application_name", buf, sizeof(buf)), "kbench");
	db_close(db);
	/* libpq's variables are libpq's: PGAPPNAME is honoured, and so is the URI's own. */
	setenv("PGAPPNAME", "kbtest", 1);
	db = pg_connect();
	unsetenv("PGAPPNAME");
	assert_string_equal(one_text(db, "SHOW application_name", buf, sizeof(buf)), "kbtest");
	db_close(db);
	snprintf(uri, sizeof(uri), "%s%sapplication_name=kburi&connect_timeout=7", pg_uri,
		 strchr(pg_uri, '?') ? "&" : "?");
	{
		char err[256];

		db = db_pg_open(uri, err);
		if (!db)
			fail_msg("%s: %s", uri, err);
	}
	assert_string_equal(one_text(db, "SHOW application_name", buf, sizeof(buf)), "kburi");
	db_close(db);
}

/*
 * The server ends the connection (as pg_ctl stop does, or a crash): every
 * call fails at once with a message, none crashes, none hangs.
 */
static void test_pg_broken(void **state)
{
	struct fx *f = fixture(state);
	struct db *a = pg_connect();
	struct db_stmt *st = prep(a, "SELECT 1"), *q;
	long long v;
	int64_t pid = one_int(a, "SELECT pg_backend_pid()");
	double t0;
	int i;

	q = prep(f->db, "SELECT pg_terminate_backend(?)");
	assert_int_equal(db_bind_int64(q, 1, pid), 0);
	assert_int_equal(db_step(q), DB_ROW);
	assert_int_equal(db_column_int64(q, 0), 1);
	db_finalize(q);
	q = prep(f->db, "SELECT count(*) FROM pg_stat_activity WHERE pid = ?");
	for (i = 0; i < 500; i++) {
		assert_int_equal(db_bind_int64(q, 1, pid), 0);
		assert_int_equal(db_step(q), DB_ROW);
		if (db_column_int64(q, 0) == 0)
			break;
		db_reset(q);
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	}
	db_finalize(q);
	assert_true(i < 500);

	t0 = now();
	assert_int_equal(db_exec(a, "SELECT 1"), -1);
	assert_one_line(db_errmsg(a));
	print_message("# a connection the server ended: %s\n", db_errmsg(a));
	assert_int_equal(db_step(st), -1);
	assert_one_line(db_errmsg(a));
	assert_null(db_prepare(a, "SELECT 2"));
	assert_one_line(db_errmsg(a));
	assert_int_equal(db_begin(a, 1), -1);
	assert_int_equal(db_commit(a), -1);
	db_rollback(a);
	assert_int_equal(db_version(a, &v, NULL), -1);
	assert_int_equal(db_set_version(a, 1), -1);
	assert_int_equal(db_ddl(a, "CREATE TABLE t (x REAL)"), -1);
	assert_one_line(db_errmsg(a));
	assert_false(db_busy(a));
	db_reset(st);
	db_finalize(st);
	db_close(a);
	assert_true(now() - t0 < 3);
}

/* A port nothing listens on: one bound to find it free, then closed. */
static int closed_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	close(fd);
	return ntohs(sa.sin_port);
}

/*
 * A port that takes connections and never answers, as a server stuck or
 * behind a firewall that drops: the kernel completes the handshake into
 * the backlog, and nobody accepts.
 */
static int silent_port(int *fd)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);

	*fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(*fd >= 0);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(*fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(*fd, 8), 0);
	assert_int_equal(getsockname(*fd, (struct sockaddr *)&sa, &len), 0);
	return ntohs(sa.sin_port);
}

/* db_pg_open of conninfo, which must fail in one line: how long it took. */
static double open_fails(const char *conninfo, char *err)
{
	double t0 = now();
	struct db *db = db_pg_open(conninfo, err);

	if (db) {
		db_close(db);
		fail_msg("%s: connected", conninfo);
	}
	assert_one_line(err);
	return now() - t0;
}

static void test_pg_refused(void **state)
{
	char uri[128], err[256];
	double t;

	(void)state;
	snprintf(uri, sizeof(uri), "postgresql://kbench@127.0.0.1:%d/kbench", closed_port());
	t = open_fails(uri, err);
	print_message("# %s: %s\n", uri, err);
	assert_true(t < 2);
	/* Not even a connection string. */
	open_fails("host=127.0.0.1 port", err);
	open_fails("postgresql://[", err);
}

/*
 * Nobody answers: db_pg_open gives up after 5 s, or what the string or
 * PGCONNECT_TIMEOUT says (2 s, libpq's least), those two in a child at the
 * same time, so that the test takes 5 s rather than 9.  libpq 15 counts
 * in whole seconds of time(), so 5 s is 4 to 5.
 */
static void test_pg_timeout(void **state)
{
	const char *saved = getenv("PGCONNECT_TIMEOUT");
	char uri[128], err[256], *keep = saved ? strdup(saved) : NULL;
	int fd, port = silent_port(&fd), status;
	double t;
	pid_t child;

	(void)state;
	unsetenv("PGCONNECT_TIMEOUT");
	fflush(stdout);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		int bad = 0;

		snprintf(uri, sizeof(uri), "host=127.0.0.1 port=%d user=kbench connect_timeout=2", port);
		t = open_fails(uri, err);
		if (t < 0.9 || t > 4) {
			fprintf(stderr, "%s: gave up after %.1f s: %s\n", uri, t, err);
			bad = 1;
		}
		setenv("PGCONNECT_TIMEOUT", "2", 1);
		snprintf(uri, sizeof(uri), "postgresql://kbench@127.0.0.1:%d/kbench", port);
		t = open_fails(uri, err);
		if (t < 0.9 || t > 4) {
			fprintf(stderr, "PGCONNECT_TIMEOUT=2 %s: gave up after %.1f s: %s\n", uri, t, err);
			bad = 1;
		}
		_exit(bad);
	}
	snprintf(uri, sizeof(uri), "postgresql://kbench@127.0.0.1:%d/kbench", port);
	t = open_fails(uri, err);
	print_message("# %s: %.1f s: %s\n", uri, t, err);
	assert_int_equal(waitpid(child, &status, 0), child);
	close(fd);
	if (keep) {
		setenv("PGCONNECT_TIMEOUT", keep, 1);
		free(keep);
	}
	assert_true(t >= 3.9 && t < 7.5);
	if (!has(err, "timeout"))
		fail_msg("the message does not say it timed out: %s", err);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

#define DB_TESTS(setup, teardown) \
	cmocka_unit_test_setup_teardown(test_ddl, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_returning, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_int64, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_real, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_text, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_null, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_rows, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_changes, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_version, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_transaction, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_errors, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_conflict, setup, teardown), \
	cmocka_unit_test_setup_teardown(test_busy, setup, teardown)

int main(void)
{
	const struct CMUnitTest sqlite_tests[] = {
		DB_TESTS(setup_sqlite, teardown_sqlite),
	};
	const struct CMUnitTest pg_tests[] = {
		DB_TESTS(setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_pg_session, setup_pg, teardown_pg),
		cmocka_unit_test_setup_teardown(test_pg_broken, setup_pg, teardown_pg),
	};
	/* No server needed: libpq alone. */
	const struct CMUnitTest libpq_tests[] = {
		cmocka_unit_test(test_pg_refused),
		cmocka_unit_test(test_pg_timeout),
	};
	const char *why = getenv("KBENCH_TEST_PG_WHY");
	int rc = 0;

	pg_uri = getenv("KBENCH_TEST_PG");
	if (pg_uri && !*pg_uri)
		pg_uri = NULL;
	snprintf(pg_schema, sizeof(pg_schema), "kbtest_%ld", (long)getpid());
	rc |= cmocka_run_group_tests_name("sqlite", sqlite_tests, NULL, NULL);
	if (!pg_uri)
		print_message("# skip postgresql: KBENCH_TEST_PG is not set%s%s%s\n",
			      why && *why ? " (" : "", why && *why ? why : "", why && *why ? ")" : "");
	rc |= cmocka_run_group_tests_name("postgresql", pg_tests, NULL, NULL);
	rc |= cmocka_run_group_tests_name("libpq", libpq_tests, NULL, NULL);
	return rc;
}
