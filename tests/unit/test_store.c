/*
 * Unit tests for the results database: a run written and read back field
 * by field (values, placement and copies included), a timed job's jobs
 * and per-copy usage, run selection, migration of version 1, 2 and 7
 * files made by hand, rows the loader
 * must refuse, refusal of files kbench must not touch (checked byte for
 * byte), the default path rules, two writers on one database at once and
 * eight creating one, reading what cannot be written, and runs deleted
 * while they are measured.
 *
 * The same tests run on both backends (issue 18): on SQLite by default,
 * each in its own directory under /tmp, removed afterwards; with
 * KBENCH_TEST_BACKEND=pg (tests/run.sh's second pass) on PostgreSQL, the
 * server in $KBENCH_TEST_PG, each in a database of its own created for it
 * and dropped afterwards.  What the tests read and write behind the
 * store's back goes through db.h, so the same SQL inspects both.  A test
 * of SQLite's file handling (files made by hand, paths, permissions)
 * skips on PostgreSQL saying so; without a server every test skips there.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "core/catalog.h"
#include "core/result.h"
#include "store/db.h"
#include "store/store.h"

/* The backend under test, from the environment main reads. */
static int on_pg;		/* KBENCH_TEST_BACKEND=pg: the tests run on PostgreSQL */
static const char *pg_uri;	/* $KBENCH_TEST_PG; NULL on pg: every test skips */

/* The most databases a test makes on PostgreSQL: f->db and those of fixture_db. */
#define FIXTURE_PG_DBS 4

/* A private directory and a database inside it (a file or a PostgreSQL database), per test. */
struct fixture {
	char dir[64];		/* mkdtemp'd, on both backends: some tests write files */
	char db[PATH_MAX];	/* dir/sub/dir/results.db (tests mkdir -p), or fixture()'s URI on pg */
	char pgdb[FIXTURE_PG_DBS][48];	/* the databases made on PostgreSQL, dropped by teardown */
	int npgdb;		/* how many of pgdb are in use */
};

/* A connection to $KBENCH_TEST_PG, where the fixture creates and drops its databases. */
static struct db *pg_admin(void)
{
	char err[256];
	struct db *db = db_pg_open(pg_uri, err);

	if (!db)
		print_message("# cannot connect to %s: %s\n", pg_uri, err);
	return db;
}

/*
 * A new PostgreSQL database, kbts_<pid>_<counter>, recorded in f for
 * teardown; its URI into buf: $KBENCH_TEST_PG with that database instead
 * of the one its path names (or none).  0 or -1.
 */
static int fixture_pg_create(struct fixture *f, char *buf, size_t len)
{
	static int counter;
	const char *auth, *path, *query;
	char sql[96], *name;
	struct db *db;
	int rc;

	if (!store_is_uri(pg_uri)) {
		print_message("# KBENCH_TEST_PG is not a postgresql:// URI: %s\n", pg_uri);
		return -1;
	}
	if (f->npgdb == FIXTURE_PG_DBS)
		return -1;
	name = f->pgdb[f->npgdb];
	snprintf(name, sizeof(f->pgdb[0]), "kbts_%ld_%d", (long)getpid(), ++counter);
	/* postgresql://[userinfo@]host[:port][/dbname][?params] */
	auth = strstr(pg_uri, "://") + 3;
	query = auth + strcspn(auth, "?");
	path = auth + strcspn(auth, "/?");
	if (snprintf(buf, len, "%.*s/%s%s", (int)(path - pg_uri), pg_uri, name, query) >= (int)len)
		return -1;
	db = pg_admin();
	if (!db)
		return -1;
	snprintf(sql, sizeof(sql), "CREATE DATABASE %s", name);
	rc = db_exec(db, sql);
	if (rc < 0)
		print_message("# %s: %s\n", sql, db_errmsg(db));
	else
		f->npgdb++;
	db_close(db);
	return rc;
}

static int rm_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	return remove(path);
}

/*
 * The test's databases dropped (the test has closed its stores, or died
 * leaving them open, which WITH (FORCE) ends), then its directory.
 */
static int teardown(void **state)
{
	struct fixture *f = *state;
	struct db *db;
	char sql[96];
	int rc;

	if (!f)
		return 0;
	rc = nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	if (f->npgdb) {
		db = pg_admin();
		if (!db)
			rc = -1;
		for (int i = 0; db && i < f->npgdb; i++) {
			snprintf(sql, sizeof(sql), "DROP DATABASE IF EXISTS %s WITH (FORCE)", f->pgdb[i]);
			if (db_exec(db, sql) < 0) {
				print_message("# %s: %s\n", sql, db_errmsg(db));
				rc = -1;
			}
		}
		db_close(db);
	}
	free(f);
	return rc;
}

/*
 * The test's directory; on SQLite the database is a file in it, on
 * PostgreSQL fixture() makes one when the test first asks, so that a test
 * of SQLite's files skips before that.
 */
static int setup(void **state)
{
	struct fixture *f;

	*state = NULL;
	if (on_pg && !pg_uri)
		return 0;	/* fixture() skips the test */
	f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/kbench-test-store-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	if (!on_pg)
		snprintf(f->db, sizeof(f->db), "%s/sub/dir/results.db", f->dir);
	*state = f;
	return 0;
}

/*
 * The fixture, its database made on PostgreSQL; or the test skipped:
 * PostgreSQL asked for, and no server (main said why).
 */
static struct fixture *fixture(void **state)
{
	struct fixture *f = *state;

	if (!f)
		skip();
	if (on_pg && !f->db[0] && fixture_pg_create(f, f->db, sizeof(f->db)) < 0)
		fail_msg("cannot create the test's PostgreSQL database");
	return f;
}

/*
 * Another database for the test beside f->db, new and empty: the file
 * dir/NAME.db, or on PostgreSQL a database of its own.
 */
static void fixture_db(struct fixture *f, const char *name, char *buf, size_t len)
{
	if (!on_pg) {
		snprintf(buf, len, "%s/%s.db", f->dir, name);
		return;
	}
	if (fixture_pg_create(f, buf, len) < 0)
		fail_msg("cannot create a PostgreSQL database for %s", name);
}

/*
 * The fixture of a test of SQLite's files, which PostgreSQL has none of:
 * the test skipped there, saying why in one line.
 */
static struct fixture *sqlite_only(void **state, const char *test, const char *why)
{
	if (on_pg) {
		print_message("# skip %s: SQLite's files: %s\n", test, why);
		skip();
	}
	return fixture(state);
}

/* A file's whole content, malloc'd; *len set. */
static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n >= 0);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

static int exists(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0;
}

/* No -wal, -shm or -journal beside the file: SQLite did not write there. */
static void assert_no_sidecars(const char *path)
{
	static const char *const ext[] = {"-wal", "-shm", "-journal"};
	char buf[PATH_MAX];

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", path, ext[i]);
		assert_false(exists(buf));
	}
}

/* The file still holds exactly `before` (nb bytes); frees before. */
static void assert_untouched(const char *path, char *before, size_t nb)
{
	size_t na;
	char *after = slurp(path, &na);

	assert_int_equal(na, nb);
	assert_memory_equal(before, after, nb);
	free(before);
	free(after);
}

/*
 * A connection to a database behind the store's back, as another program
 * would make one: db_pg_open for a URI, else the SQLite file (created if
 * missing), there with foreign keys on, as PostgreSQL always has them.
 */
static struct db *raw_open(const char *name)
{
	char err[256];
	struct db *db = store_is_uri(name) ? db_pg_open(name, err)
		: db_sqlite_open(name, DB_SQLITE_READWRITE | DB_SQLITE_CREATE, 5000, err);

	if (!db)
		fail_msg("cannot open %s: %s", name, err);
	if (db_engine(db) == DB_SQLITE && db_exec(db, "PRAGMA foreign_keys = ON") < 0)
		fail_msg("cannot turn on foreign keys in %s: %s", name, db_errmsg(db));
	return db;
}

/* sql prepared on db, at its first row. */
static struct db_stmt *raw_row(struct db *db, const char *sql)
{
	struct db_stmt *st = db_prepare(db, sql);

	if (!st)
		fail_msg("raw sql failed: %s: %s", sql, db_errmsg(db));
	if (db_step(st) != DB_ROW)
		fail_msg("raw sql gave no row: %s: %s", sql, db_errmsg(db));
	return st;
}

/* Raw SQL against a database, bypassing the store; several statements separated by ';'. */
static void raw_exec(const char *path, const char *sql)
{
	struct db *db = raw_open(path);

	if (db_exec(db, sql) < 0)
		fail_msg("raw sql failed: %s: %s", sql, db_errmsg(db));
	db_close(db);
}

/* A one-row, one-column integer query. */
static long long raw_int(const char *path, const char *sql)
{
	struct db *db = raw_open(path);
	struct db_stmt *st = raw_row(db, sql);
	long long v = db_column_int64(st, 0);

	db_finalize(st);
	db_close(db);
	return v;
}

/* A one-row, one-column text query; malloc'd, "" for NULL. */
static char *raw_text(const char *path, const char *sql)
{
	struct db *db = raw_open(path);
	struct db_stmt *st = raw_row(db, sql);
	const char *t = db_column_text(st, 0);
	char *v = strdup(t ? t : "");

	assert_non_null(v);
	db_finalize(st);
	db_close(db);
	return v;
}

/*
 * Every row of a query of ncols columns, malloc'd: each column's text
 * followed by '|' (NULL as "NULL"), each row by a newline.  What the store
 * left, joined in C rather than by either engine's string functions.
 */
static char *raw_rows(const char *path, const char *sql, int ncols)
{
	struct db *db = raw_open(path);
	struct db_stmt *st = db_prepare(db, sql);
	char *out = NULL;
	size_t len;
	FILE *fp = open_memstream(&out, &len);
	int rc;

	if (!st)
		fail_msg("raw sql failed: %s: %s", sql, db_errmsg(db));
	assert_non_null(fp);
	while ((rc = db_step(st)) == DB_ROW) {
		for (int i = 0; i < ncols; i++) {
			const char *t = db_column_text(st, i);

			fprintf(fp, "%s|", t ? t : "NULL");
		}
		fputc('\n', fp);
	}
	if (rc < 0)
		fail_msg("raw sql failed: %s: %s", sql, db_errmsg(db));
	assert_int_equal(fclose(fp), 0);
	db_finalize(st);
	db_close(db);
	return out;
}

/* The schema's version, as db.h reads it: PRAGMA user_version, or PostgreSQL's kbench_schema. */
static long long raw_version(const char *path)
{
	struct db *db = raw_open(path);
	long long v;

	if (db_version(db, &v, NULL) < 0)
		fail_msg("cannot read the version of %s: %s", path, db_errmsg(db));
	db_close(db);
	return v;
}


static void make_run(struct run_info *run, const char *label)
{
	memset(run, 0, sizeof(*run));
	snprintf(run->label, sizeof(run->label), "%s", label);
	snprintf(run->host, sizeof(run->host), "testbox");
	snprintf(run->os, sizeof(run->os), "Linux 6.18.44");
	run->mhz = 2893.5;
}

/* A measured result with distinct values in every field; samples if nsamples. */
static void make_result(struct result *r, const char *id, size_t nsamples)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->id, sizeof(r->id), "%s", id);
	snprintf(r->unit, sizeof(r->unit), "us");
	r->better = BETTER_LOWER;
	r->status = RES_OK;
	r->median = 0.1234567890123;
	r->ci_low = 0.12;
	r->ci_high = 0.13;
	r->min = 0.1;
	r->max = 0.2;
	r->mean = 0.125;
	r->stddev = 1e-3;
	r->cv = 0.008;
	r->p5 = 0.11;
	r->p95 = 0.19;
	r->n = nsamples ? nsamples : 40;
	r->iterations = 1ull << 40;
	r->stop = STOP_PRECISION;
	r->interference = 0.03;
	r->overhead = 0.002;
	r->wall_s = 1.75;
	/* What result_init gives a benchmark that is not between processes. */
	r->placement = PLACE_NA;
	r->parallel = 1;
	r->aggregate = (double)NAN;
	r->drift = (double)NAN;
	if (nsamples) {
		r->samples = malloc(nsamples * sizeof(*r->samples));
		assert_non_null(r->samples);
		for (size_t i = 0; i < nsamples; i++)
			r->samples[i] = 0.1 + (double)i / 3.0;
	}
}

/* Append a value to r, a number or (text non-NULL) a text. */
static void add_value(struct result *r, const char *key, double num, const char *text)
{
	struct bench_value *v;

	assert_true(r->nvalues < BENCH_MAX_VALUES);
	v = &r->values[r->nvalues++];
	memset(v, 0, sizeof(*v));
	snprintf(v->key, sizeof(v->key), "%s", key);
	v->num = text ? (double)NAN : num;
	if (text)
		snprintf(v->text, sizeof(v->text), "%s", text);
}

/* Equal, counting two NaNs as equal (NaN is how "no figure" round-trips). */
static void assert_same_double(double a, double b)
{
	if (isnan(a) || isnan(b)) {
		assert_true(isnan(a) && isnan(b));
		return;
	}
	assert_true(a == b);
}

static void assert_same_result(const struct result *want, const struct result *got,
			       int want_samples)
{
	assert_string_equal(got->id, want->id);
	assert_string_equal(got->unit, want->unit);
	assert_int_equal(got->better, want->better);
	assert_int_equal(got->status, want->status);
	assert_same_double(got->median, want->median);
	assert_same_double(got->ci_low, want->ci_low);
	assert_same_double(got->ci_high, want->ci_high);
	assert_same_double(got->min, want->min);
	assert_same_double(got->max, want->max);
	assert_same_double(got->mean, want->mean);
	assert_same_double(got->stddev, want->stddev);
	assert_same_double(got->cv, want->cv);
	assert_same_double(got->p5, want->p5);
	assert_same_double(got->p95, want->p95);
	assert_int_equal(got->n, want->n);
	assert_true(got->iterations == want->iterations);
	assert_int_equal(got->stop, want->stop);
	assert_same_double(got->interference, want->interference);
	assert_same_double(got->overhead, want->overhead);
	assert_same_double(got->wall_s, want->wall_s);
	assert_string_equal(got->reason, want->reason);
	assert_int_equal(got->placement, want->placement);
	assert_int_equal(got->parallel, want->parallel);
	assert_int_equal(got->jobs, want->jobs);
	assert_same_double(got->aggregate, want->aggregate);
	assert_same_double(got->drift, want->drift);
	assert_int_equal(got->drifted, want->drifted);
	assert_int_equal(got->nreplicas, want->nreplicas);
	for (size_t i = 0; i < want->nreplicas; i++) {
		const struct result_replica *a = &want->replicas[i], *b = &got->replicas[i];

		assert_same_double(b->median, a->median);
		assert_same_double(b->lo, a->lo);
		assert_same_double(b->hi, a->hi);
		assert_int_equal(b->n, a->n);
		assert_same_double(b->t0, a->t0);
		assert_same_double(b->t1, a->t1);
		assert_int_equal(b->stop, a->stop);
		assert_same_double(b->sentinel_sys, a->sentinel_sys);
		assert_same_double(b->sentinel_user, a->sentinel_user);
	}
	assert_int_equal(got->nvalues, want->nvalues);
	for (size_t i = 0; i < want->nvalues; i++) {
		assert_string_equal(got->values[i].key, want->values[i].key);
		assert_same_double(got->values[i].num, want->values[i].num);
		assert_string_equal(got->values[i].text, want->values[i].text);
	}
	assert_int_equal(got->nbuckets, want->nbuckets);
	for (size_t i = 0; i < want->nbuckets; i++) {
		assert_same_double(got->buckets[i].lo, want->buckets[i].lo);
		assert_same_double(got->buckets[i].hi, want->buckets[i].hi);
		assert_true(got->buckets[i].count == want->buckets[i].count);
	}
	assert_int_equal(got->npoints, want->npoints);
	for (size_t i = 0; i < want->npoints; i++) {
		assert_string_equal(got->points[i].series, want->points[i].series);
		assert_same_double(got->points[i].x, want->points[i].x);
		assert_same_double(got->points[i].y, want->points[i].y);
		assert_same_double(got->points[i].lo, want->points[i].lo);
		assert_same_double(got->points[i].hi, want->points[i].hi);
		assert_int_equal(got->points[i].noisy, want->points[i].noisy);
	}
	/* A kind whose tables are made from its samples (timed jobs) always has them. */
	if (catalog_prefixed(want->id) && catalog_prefixed(want->id)->tables_need_samples)
		want_samples = 1;
	if (!want_samples || !want->samples) {
		assert_null(got->samples);
		assert_null(got->usage);	/* beside the samples, or not at all */
		return;
	}
	assert_non_null(got->samples);
	for (size_t i = 0; i < want->n; i++)
		assert_same_double(got->samples[i], want->samples[i]);
	if (!want->usage) {
		assert_null(got->usage);
	} else {
		assert_non_null(got->usage);
		for (size_t i = 0; i < want->n; i++) {
			const struct result_usage *a = &want->usage[i], *b = &got->usage[i];

			assert_int_equal(b->copy, a->copy);
			assert_int_equal(b->status, a->status);
			assert_same_double(b->start, a->start);
			assert_same_double(b->user_s, a->user_s);
			assert_same_double(b->sys_s, a->sys_s);
			assert_same_double(b->maxrss_kb, a->maxrss_kb);
			assert_same_double(b->minflt, a->minflt);
			assert_same_double(b->majflt, a->majflt);
			assert_same_double(b->nvcsw, a->nvcsw);
			assert_same_double(b->nivcsw, a->nivcsw);
			assert_same_double(b->inblock, a->inblock);
			assert_same_double(b->oublock, a->oublock);
			assert_same_double(b->orphans, a->orphans);
		}
	}
	if (!want->where) {
		assert_null(got->where);
		return;
	}
	assert_non_null(got->where);
	for (size_t i = 0; i < want->n; i++) {
		assert_same_double(got->where[i].t, want->where[i].t);
		assert_same_double(got->where[i].steal_ns, want->where[i].steal_ns);
		assert_int_equal(got->where[i].cpu, want->where[i].cpu);
		assert_int_equal(got->where[i].replica, want->where[i].replica);
	}
}

static int is_iso8601_utc(const char *s)
{
	int y, mo, d, h, mi, se;
	char z;

	return strlen(s) == 20 &&
	       sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &se, &z) == 7 &&
	       z == 'Z' && y >= 2000 && mo >= 1 && mo <= 12;
}

static void test_round_trip(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "";
	struct run_info run, *runs;
	struct result res[3];
	struct store *st;
	char sql[PATH_MAX + 128];
	int n;

	st = store_open(f->db, err);
	assert_non_null(st);
	make_run(&run, "Linux 6.18.44 mitigations=off");
	run.sysinfo_json = strdup("{\"cpu\": \"Xeon\", \"smt\": true}");
	assert_int_equal(store_run_begin(st, &run, err), 0);
	assert_true(run.id > 0);
	assert_true(is_iso8601_utc(run.started));

	make_result(&res[0], "ipc.pipe.lat", 0);
	/* Between processes, one copy: a placement, values, and no aggregate. */
	res[0].placement = PLACE_SPREAD;
	add_value(&res[0], "msg_size", 4096, NULL);
	add_value(&res[0], "transport", 0, "unix stream");
	add_value(&res[0], "offset", -0.5e-300, NULL);
	make_result(&res[1], "fs.create.0k", 0);
	res[1].status = RES_SKIP;
	res[1].stop = STOP_NONE;
	res[1].n = 0;
	res[1].iterations = 0;
	res[1].median = res[1].ci_low = res[1].ci_high = (double)NAN;
	res[1].interference = -1;
	snprintf(res[1].reason, sizeof(res[1].reason), "no space left on '/tmp'");
	make_result(&res[2], "mem.bw.read", 25);
	res[2].better = BETTER_HIGHER;
	res[2].status = RES_NOISY;
	res[2].stop = STOP_MAX_TIME;
	snprintf(res[2].unit, sizeof(res[2].unit), "MB/s");
	res[2].samples[3] = -0.0;
	res[2].iterations = UINT64_MAX;	/* beyond int64: the bits must survive */
	/* Four copies at once, and a full table of values (the most a result holds). */
	res[2].parallel = 4;
	res[2].aggregate = 41234.5;
	for (int i = 0; i < BENCH_MAX_VALUES; i++) {
		char key[24];

		snprintf(key, sizeof(key), "v%d", i);
		if (i % 2)
			add_value(&res[2], key, 0, "text value as long as can be: 39 bytes.");
		else
			add_value(&res[2], key, i * 1.5, NULL);
	}
	assert_int_equal(strlen(res[2].values[1].text), sizeof(res[2].values[1].text) - 1);
	/* Measured as replicas (issue 12): where each sample ran, each replica's figure. */
	res[2].where = calloc(25, sizeof(*res[2].where));
	res[2].replicas = calloc(2, sizeof(*res[2].replicas));
	assert_non_null(res[2].where);
	assert_non_null(res[2].replicas);
	for (int i = 0; i < 25; i++)
		res[2].where[i] = (struct result_sample){ .t = 0.5 + i * 0.01, .cpu = i % 2,
							  .steal_ns = i == 3 ? (double)NAN : i * 1e7,
							  .replica = i / 13 };
	res[2].nreplicas = 2;
	res[2].replicas[0] = (struct result_replica){ .median = 0.2, .lo = 0.19, .hi = 0.21, .n = 13,
						      .t0 = 0.5, .t1 = 0.62, .stop = STOP_PRECISION,
						      .sentinel_sys = 201.5, .sentinel_user = 0.33 };
	res[2].replicas[1] = (struct result_replica){ .median = 0.3, .lo = 0.29, .hi = 0.31, .n = 12,
						      .t0 = 40.1, .t1 = 40.2, .stop = STOP_MAX_TIME,
						      .sentinel_sys = (double)NAN, .sentinel_user = 0.34 };
	res[2].drift = 0.03;
	res[2].drifted = 1;
	/* res[0] is stored, then rewritten after another replica: one row, the same id. */
	int64_t id0 = 0, id0_first;
	assert_int_equal(store_result_put(st, run.id, &id0, &res[1], err), 0);
	id0_first = id0;
	assert_int_equal(store_result_put(st, run.id, &id0, &res[0], err), 0);
	assert_true(id0 == id0_first);
	for (int i = 1; i < 3; i++)
		assert_int_equal(store_result_add(st, run.id, &res[i], err), 0);
	/* The sentinel's timeline, replaced whole each time. */
	struct sentinel_point sen[3] = { { 0.0, 1, 190.5, 0.41 }, { 1.5, 0, (double)NAN, 0.42 },
					 { 3.0, -1, 201.0, (double)NAN } };
	assert_int_equal(store_sentinel_put(st, run.id, sen, 1, err), 0);
	assert_int_equal(store_sentinel_put(st, run.id, sen, 3, err), 0);
	assert_int_equal(store_run_end(st, run.id, err), 0);

	/* Loaded with samples, then without. */
	for (int want = 1; want >= 0; want--) {
		n = store_runs_load(st, NULL, 0, want, &runs, err);
		if (n != 1)
			fail_msg("load: %d: %s", n, err);
		assert_true(runs[0].id == run.id);
		assert_string_equal(runs[0].label, run.label);
		assert_string_equal(runs[0].started, run.started);
		assert_string_equal(runs[0].host, run.host);
		assert_string_equal(runs[0].os, run.os);
		assert_same_double(runs[0].mhz, run.mhz);
		assert_string_equal(runs[0].sysinfo_json, run.sysinfo_json);
		assert_int_equal(runs[0].nresults, 3);
		assert_int_equal(runs[0].nsentinel, 3);
		for (int i = 0; i < 3; i++) {
			assert_same_double(runs[0].sentinel[i].t, sen[i].t);
			assert_int_equal(runs[0].sentinel[i].cpu, sen[i].cpu);
			assert_same_double(runs[0].sentinel[i].sys_ns, sen[i].sys_ns);
			assert_same_double(runs[0].sentinel[i].user_ns, sen[i].user_ns);
		}
		for (int i = 0; i < 3; i++)
			assert_same_result(&res[i], &runs[0].results[i], want);
		store_runs_free(runs, (size_t)n);
	}
	/* The levels alone (a history): each result's figures, none of its children. */
	n = store_runs_load(st, NULL, 0, STORE_LOAD_LEVELS, &runs, err);
	if (n != 1)
		fail_msg("load levels: %d: %s", n, err);
	assert_string_equal(runs[0].label, run.label);
	assert_int_equal(runs[0].nresults, 3);
	assert_int_equal(runs[0].nsentinel, 0);
	for (int i = 0; i < 3; i++) {
		assert_string_equal(runs[0].results[i].id, res[i].id);
		assert_same_double(runs[0].results[i].median, res[i].median);
		assert_int_equal(runs[0].results[i].status, res[i].status);
		assert_int_equal(runs[0].results[i].nvalues, 0);
		assert_int_equal(runs[0].results[i].nreplicas, 0);
		assert_null(runs[0].results[i].samples);
	}
	store_runs_free(runs, (size_t)n);

	/* The end time is stamped, and the schema is where it should be. */
	snprintf(sql, sizeof(sql), "SELECT length(finished) FROM runs WHERE id = %lld",
		 (long long)run.id);
	assert_int_equal(raw_int(f->db, sql), 20);
	assert_int_equal(raw_version(f->db), STORE_SCHEMA_VERSION);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM samples"), 25);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_values"), 3 + BENCH_MAX_VALUES);
	/* The indexes kbench creates, not those of its keys and UNIQUE constraints. */
	assert_int_equal(raw_int(f->db, on_pg ?
		"SELECT count(*) FROM pg_indexes i WHERE schemaname = current_schema() AND NOT EXISTS"
		" (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)" :
		"SELECT count(*) FROM sqlite_master WHERE type = 'index'"
		" AND name NOT LIKE 'sqlite_autoindex%'"), 10);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM results"), 3);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_replicas"), 2);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM sentinels"), 3);
	/* A run is given an identity of 32 hex digits, and is a set of its own. */
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM runs WHERE id = %lld AND length(uuid) = 32"
		 " AND ltrim(uuid, '0123456789abcdef') = '' AND set_uuid = uuid", (long long)run.id);
	assert_int_equal(raw_int(f->db, sql), 1);
	assert_int_equal((int)strlen(run.uuid), 32);
	/* As documented: placement by name, NaN as NULL, a text value without a number. */
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM results WHERE placement = 'spread'"
					" AND parallel = 1 AND aggregate IS NULL"), 1);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM results WHERE placement = ''"
					" AND parallel = 4 AND aggregate = 41234.5"), 1);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_values WHERE key = 'transport'"
					" AND num IS NULL AND text = 'unix stream'"), 1);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_values WHERE key = 'msg_size'"
					" AND num = 4096 AND text IS NULL"), 1);

	/*
	 * A result for a run that is not there is refused by the foreign key,
	 * and said as what it means: the run was deleted since it began.
	 */
	assert_int_equal(store_result_add(st, run.id + 100, &res[0], err), -1);
	assert_non_null(strstr(err, "cannot add result 'ipc.pipe.lat' to db '"));
	assert_non_null(strstr(err, "was deleted while it was being measured"));
	/* Nothing of the refused result was kept, its values included. */
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_values"), 3 + BENCH_MAX_VALUES);
	assert_int_equal(store_run_end(st, run.id + 100, err), -1);
	assert_non_null(strstr(err, "was deleted while it was being measured"));

	for (int i = 0; i < 3; i++)
		result_free(&res[i]);
	run_info_free(&run);
	store_close(st);
}

/*
 * A timed job as kbench time stores it (issue 14): two copies a run and
 * two runs, so four samples of real time in seconds, each beside the usage
 * of its copy and where it ran (replica: the run; t: the copy's finish);
 * jobs is the -j value.  Each run's first copy does not know its blocks
 * read (NaN), which must come back so, and the last copy exited 1.
 */
static void make_timed(struct result *r, int jobs)
{
	make_result(r, "time.make", 4);
	snprintf(r->unit, sizeof(r->unit), "s");
	r->iterations = 1;
	r->parallel = 2;
	r->jobs = jobs;
	r->where = calloc(4, sizeof(*r->where));
	r->usage = calloc(4, sizeof(*r->usage));
	assert_non_null(r->where);
	assert_non_null(r->usage);
	for (int i = 0; i < 4; i++) {
		r->samples[i] = 30.5 + i * 0.25;
		r->where[i] = (struct result_sample){ .t = 40.0 * (i / 2) + r->samples[i], .cpu = -1,
						      .steal_ns = (double)NAN, .replica = i / 2 };
		r->usage[i] = (struct result_usage){
			.copy = i % 2 + 1, .status = i == 3 ? 256 : 0, .start = 40.0 * (i / 2) + 1e-3 * i,
			.user_s = 50.25 + i, .sys_s = 7.5 + i, .maxrss_kb = 123456 + i,
			.minflt = 1e6 + i, .majflt = i, .nvcsw = 20000 + i, .nivcsw = 3000 + i,
			.inblock = i % 2 ? 8.0 * i : (double)NAN, .oublock = 16.0 * i,
			.orphans = i == 2 };
	}
}

/*
 * Issue 14: a timed job's jobs and per-copy usage are stored with the
 * result and its samples and read back field by field; a result rewritten
 * after another run keeps no stale usage rows; jobs is part of the
 * instance, so -j4 and -j8 are two rows; rows that are not one per sample
 * are refused on load, values the loader could not take back on writing;
 * and the rows go with their run, or with their result however deleted.
 */
static void test_timed_round_trip(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "", sql[256];
	struct run_info run, *runs;
	struct result r[3];
	struct store *st;
	const char *sel[] = {"timed"};
	long long id8;
	int64_t id = 0;
	int n;

	st = store_open(f->db, err);
	assert_non_null(st);
	make_run(&run, "timed");
	assert_int_equal(store_run_begin(st, &run, err), 0);
	/* Stored after its first run (two samples), rewritten whole after the second. */
	make_timed(&r[0], 4);
	r[0].n = 2;
	assert_int_equal(store_result_put(st, run.id, &id, &r[0], err), 0);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_usage"), 2);
	r[0].n = 4;
	assert_int_equal(store_result_put(st, run.id, &id, &r[0], err), 0);
	make_timed(&r[1], 8);
	r[1].usage[0].maxrss_kb = 1e12;	/* larger than any int: a count kept as a double */
	assert_int_equal(store_result_add(st, run.id, &r[1], err), 0);
	/* Any other benchmark: no jobs, no usage. */
	make_result(&r[2], "sys.null", 3);
	assert_int_equal(store_result_add(st, run.id, &r[2], err), 0);
	assert_int_equal(store_run_end(st, run.id, err), 0);

	/* As documented: jobs a column (0 for none), a row a copy, NaN as NULL. */
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM results WHERE jobs = 4 AND parallel = 2"), 1);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM results WHERE jobs = 0"), 1);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_usage"), 8);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM result_usage WHERE result_id = %lld",
		 (long long)id);
	assert_int_equal(raw_int(f->db, sql), 4);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_usage WHERE inblock IS NULL"), 4);
	snprintf(sql, sizeof(sql), "SELECT status * 10 + copy FROM result_usage WHERE result_id = %lld"
		 " AND idx = 3", (long long)id);
	assert_int_equal(raw_int(f->db, sql), 2562);

	/* Loaded with samples (and so usage), then without either. */
	for (int want = 1; want >= 0; want--) {
		n = store_runs_load(st, NULL, 0, want, &runs, err);
		if (n != 1)
			fail_msg("load: %d: %s", n, err);
		assert_int_equal(runs[0].nresults, 3);
		for (int i = 0; i < 3; i++)
			assert_same_result(&r[i], &runs[0].results[i], want);
		assert_true(result_same_instance(&runs[0].results[0], &r[0]));
		assert_false(result_same_instance(&runs[0].results[0], &runs[0].results[1]));
		store_runs_free(runs, (size_t)n);
	}

	/* What would not load back is refused before anything is written. */
	r[2].jobs = -1;
	assert_int_equal(store_result_add(st, run.id, &r[2], err), -1);
	assert_non_null(strstr(err, "cannot add result 'sys.null' to db '"));
	assert_non_null(strstr(err, "jobs -1 is below 0"));
	r[2].jobs = 0;
	r[1].usage[2].copy = 0;
	assert_int_equal(store_result_add(st, run.id, &r[1], err), -1);
	assert_non_null(strstr(err, "usage 3 has copy 0, below 1"));
	r[1].usage[2].copy = 1;
	free(r[1].samples);
	r[1].samples = NULL;
	assert_int_equal(store_result_add(st, run.id, &r[1], err), -1);
	assert_non_null(strstr(err, "usage without samples"));
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM results"), 3);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_usage"), 8);

	/*
	 * A usage row lost: refused, not matched up by guess, and without
	 * samples asked for too (a timed job's tables always load them).
	 */
	id8 = raw_int(f->db, "SELECT id FROM results WHERE jobs = 8");
	snprintf(sql, sizeof(sql), "DELETE FROM result_usage WHERE result_id = %lld AND idx = 1", id8);
	raw_exec(f->db, sql);
	assert_int_equal(store_runs_load(st, NULL, 0, 1, &runs, err), -1);
	assert_non_null(strstr(err, "has usage rows that are not one per sample (4)"));
	assert_int_equal(store_runs_load(st, NULL, 0, 0, &runs, err), -1);
	assert_non_null(strstr(err, "has usage rows that are not one per sample (4)"));

	/* A result deleted by another program with foreign keys on takes its usage along. */
	snprintf(sql, sizeof(sql), "DELETE FROM samples WHERE result_id = %lld;"
		 " DELETE FROM results WHERE id = %lld", id8, id8);
	raw_exec(f->db, sql);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_usage"), 4);
	/* And `runs delete` leaves none behind. */
	assert_int_equal(store_runs_delete(st, sel, 1, err), 1);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_usage"), 0);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM results"), 0);

	for (int i = 0; i < 3; i++)
		result_free(&r[i]);
	run_info_free(&run);
	store_close(st);
}

static void test_load_selectors(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "";
	static const char *const labels[] = {"base", "patched", "base", "7"};
	struct run_info run[4], *runs;
	struct result r;
	struct store *st;
	char idsel[32], buf[PATH_MAX + 64];
	int n;

	st = store_open(f->db, err);
	assert_non_null(st);
	for (int i = 0; i < 4; i++) {
		make_run(&run[i], labels[i]);
		assert_int_equal(store_run_begin(st, &run[i], err), 0);
		make_result(&r, "sys.null", 0);
		r.median = i;
		assert_int_equal(store_result_add(st, run[i].id, &r, err), 0);
		assert_int_equal(store_run_end(st, run[i].id, err), 0);
	}
	/* The same host and OS share one hosts row. */
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM hosts"), 1);

	/* By label: both "base" runs, oldest first. */
	const char *by_label[] = {"base"};
	n = store_runs_load(st, by_label, 1, 0, &runs, err);
	assert_int_equal(n, 2);
	assert_true(runs[0].id == run[0].id && runs[1].id == run[2].id);
	assert_same_double(runs[1].results[0].median, 2);
	assert_null(runs[1].results[0].samples);
	assert_int_equal(runs[1].results[0].n, 40);
	store_runs_free(runs, (size_t)n);

	/* By run id, mixed with a label, overlapping: sorted by id, no duplicates. */
	snprintf(idsel, sizeof(idsel), "%lld", (long long)run[1].id);
	const char *mixed[] = {"patched", "base", idsel};
	n = store_runs_load(st, mixed, 3, 0, &runs, err);
	assert_int_equal(n, 3);
	assert_true(runs[0].id == run[0].id && runs[1].id == run[1].id && runs[2].id == run[2].id);
	assert_string_equal(runs[1].label, "patched");
	store_runs_free(runs, (size_t)n);

	/* Digits are a run id first, a label when no run has that id. */
	const char *digits[] = {"7"};
	n = store_runs_load(st, digits, 1, 0, &runs, err);
	assert_int_equal(n, 1);
	assert_true(runs[0].id == run[3].id);
	store_runs_free(runs, (size_t)n);

	/* Nothing selected at all is fine for an empty selector list. */
	n = store_runs_load(st, NULL, 0, 0, &runs, err);
	assert_int_equal(n, 4);
	store_runs_free(runs, (size_t)n);

	/* An unknown selector is an error naming it, even next to good ones. */
	const char *unknown[] = {"base", "nosuch"};
	runs = run;	/* must come back NULL */
	assert_int_equal(store_runs_load(st, unknown, 2, 1, &runs, err), -1);
	assert_null(runs);
	snprintf(buf, sizeof(buf), "no run or label 'nosuch' in db '%s'", f->db);
	assert_string_equal(err, buf);
	const char *badid[] = {"99999999999999999999999"};
	assert_int_equal(store_runs_load(st, badid, 1, 1, &runs, err), -1);
	assert_non_null(strstr(err, "no run or label '99999999999999999999999'"));

	store_close(st);
}

static void test_empty_db(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "";
	struct run_info *runs;
	struct store *st;

	char wal[PATH_MAX + 8];

	st = store_open(f->db, err);
	assert_non_null(st);
	/* WAL mode, on SQLite: the -wal file sits beside the db while it is open. */
	snprintf(wal, sizeof(wal), "%s-wal", f->db);
	if (!on_pg)
		assert_true(exists(wal));
	assert_int_equal(store_runs_load(st, NULL, 0, 1, &runs, err), 0);
	store_runs_free(runs, 0);
	store_close(st);
	/* Opening again leaves the schema alone. */
	st = store_open_existing(f->db, err);
	assert_non_null(st);
	store_close(st);
	assert_int_equal(raw_version(f->db), STORE_SCHEMA_VERSION);
}

/* Version 1, as the first kbench wrote it: results lacks interference and overhead. */
static const char v1_schema[] =
	"CREATE TABLE hosts (id INTEGER PRIMARY KEY, hostname TEXT NOT NULL, os TEXT NOT NULL,"
	"  UNIQUE (hostname, os));"
	"CREATE TABLE runs (id INTEGER PRIMARY KEY, host_id INTEGER NOT NULL REFERENCES hosts(id),"
	"  label TEXT NOT NULL, started TEXT NOT NULL, finished TEXT, os TEXT NOT NULL, mhz REAL,"
	"  sysinfo TEXT);"
	"CREATE TABLE results (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  bench_id TEXT NOT NULL, unit TEXT NOT NULL,"
	"  better TEXT NOT NULL CHECK (better IN ('lower', 'higher')),"
	"  status TEXT NOT NULL CHECK (status IN ('ok', 'noisy', 'skip', 'fail')),"
	"  median REAL, ci_low REAL, ci_high REAL, min REAL, max REAL,"
	"  mean REAL, stddev REAL, cv REAL, p5 REAL, p95 REAL,"
	"  n INTEGER NOT NULL, iterations INTEGER NOT NULL, stop TEXT NOT NULL,"
	"  wall_s REAL, reason TEXT);"
	"CREATE TABLE samples (result_id INTEGER NOT NULL REFERENCES results(id),"
	"  idx INTEGER NOT NULL, value REAL);"
	"CREATE INDEX results_run_id ON results(run_id);"
	"CREATE INDEX samples_result_id ON samples(result_id);"
	"CREATE INDEX runs_label ON runs(label);"
	"INSERT INTO hosts VALUES (1, 'oldbox', 'FreeBSD 4.11');"
	"INSERT INTO runs VALUES (1, 1, 'fbsd4', '2004-01-02T03:04:05Z', '2004-01-02T03:14:05Z',"
	"  'FreeBSD 4.11', 733.0, NULL);"
	"INSERT INTO results VALUES (1, 1, 'proc.fork', 'us', 'lower', 'ok', 210.5, 208, 213,"
	"  200, 250, 211, 4.5, 0.02, 201, 240, 3, 100, 'precision', 2.5, NULL);"
	"INSERT INTO samples VALUES (1, 0, 209), (1, 1, 210.5), (1, 2, 212);"
	"PRAGMA user_version = 1;";

/* "name|type|notnull|dflt|" for each column of a SQLite table, to compare two schemas; malloc'd. */
static char *table_shape(const char *path, const char *table)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "SELECT name, type, \"notnull\", dflt_value FROM pragma_table_info('%s')",
		 table);
	return raw_rows(path, sql, 4);
}

/*
 * Two databases have the same schema: the same tables and indexes, and each
 * table the same columns, types, NOT NULLs and defaults in the same order.
 * A table's CREATE text is not compared: ALTER TABLE rewrites it its own way.
 */
static void assert_same_schema(const char *a, const char *b)
{
	static const char *const tables[] = {"hosts", "runs", "results", "samples",
					     "result_values", "result_points",
					     "result_replicas", "sentinels", "result_usage"};
	static const char names_sql[] =
		"SELECT group_concat(type || ' ' || name || ' ' || tbl_name, ', ')"
		" FROM (SELECT * FROM sqlite_master ORDER BY type, name)";
	char *n1 = raw_text(a, names_sql), *n2 = raw_text(b, names_sql);

	assert_string_equal(n1, n2);
	free(n1);
	free(n2);
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		char *shape1 = table_shape(a, tables[i]), *shape2 = table_shape(b, tables[i]);

		assert_true(shape1[0] != '\0');
		assert_string_equal(shape1, shape2);
		free(shape1);
		free(shape2);
	}
}

/* What a result from before version 3 loads as: one copy, nothing pinned, no values. */
static void assert_pre_v3_defaults(const struct result *r)
{
	assert_int_equal(r->placement, PLACE_NA);
	assert_int_equal(r->parallel, 1);
	assert_true(isnan(r->aggregate));
	assert_int_equal(r->nvalues, 0);
}

static void test_migrate_v1(void **state)
{
	struct fixture *f = sqlite_only(state, __func__, "a version 1 file made by hand");
	char err[ERRBUF_LEN] = "";
	char v1[PATH_MAX], fresh[PATH_MAX];
	struct run_info *runs, run;
	struct result r;
	struct store *st;
	int n;

	snprintf(v1, sizeof(v1), "%s/v1.db", f->dir);
	raw_exec(v1, v1_schema);
	assert_int_equal(raw_version(v1), 1);

	st = store_open(v1, err);
	assert_non_null(st);
	n = store_runs_load(st, NULL, 0, 1, &runs, err);
	assert_int_equal(n, 1);
	assert_string_equal(runs[0].label, "fbsd4");
	assert_string_equal(runs[0].host, "oldbox");
	assert_string_equal(runs[0].os, "FreeBSD 4.11");
	assert_string_equal(runs[0].started, "2004-01-02T03:04:05Z");
	assert_null(runs[0].sysinfo_json);
	assert_int_equal(runs[0].nresults, 1);
	r = runs[0].results[0];
	assert_string_equal(r.id, "proc.fork");
	assert_same_double(r.median, 210.5);
	assert_same_double(r.interference, -1);	/* unknown: never measured */
	assert_same_double(r.overhead, 0);
	assert_int_equal(r.n, 3);
	assert_same_double(r.samples[2], 212);
	assert_string_equal(r.reason, "");
	assert_pre_v3_defaults(&r);
	/* Version 5 took one block of samples: no replicas, no drift, no sentinel, no where. */
	assert_int_equal(r.nreplicas, 0);
	assert_true(isnan(r.drift));
	assert_false(r.drifted);
	assert_null(r.where);
	assert_int_equal(runs[0].nsentinel, 0);
	/* Version 4 had no identities: the old run gets one, and is its own set. */
	assert_int_equal((int)strlen(runs[0].uuid), 32);
	assert_string_equal(runs[0].set_uuid, runs[0].uuid);
	assert_string_equal(runs[0].finished, "2004-01-02T03:14:05Z");
	store_runs_free(runs, (size_t)n);

	/* The migrated file takes new results with the new columns. */
	make_run(&run, "after");
	assert_int_equal(store_run_begin(st, &run, err), 0);
	make_result(&r, "sys.null", 0);
	assert_int_equal(store_result_add(st, run.id, &r, err), 0);
	store_close(st);
	assert_int_equal(raw_version(v1), STORE_SCHEMA_VERSION);
	assert_int_equal(raw_int(v1, "SELECT count(*) FROM results WHERE interference = 0.03"), 1);

	/* A migrated database looks exactly like a fresh one. */
	snprintf(fresh, sizeof(fresh), "%s/fresh.db", f->dir);
	st = store_open(fresh, err);
	assert_non_null(st);
	store_close(st);
	assert_same_schema(v1, fresh);
}

/*
 * Version 2, exactly as kbench 2 created it: results ends with interference
 * and overhead, and there is no result_values.
 */
static const char v2_schema[] =
	"CREATE TABLE hosts (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  hostname TEXT NOT NULL,\n"
	"  os TEXT NOT NULL,\n"
	"  UNIQUE (hostname, os)\n"
	");\n"
	"CREATE TABLE runs (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  host_id INTEGER NOT NULL REFERENCES hosts(id),\n"
	"  label TEXT NOT NULL,\n"
	"  started TEXT NOT NULL,\n"
	"  finished TEXT,\n"
	"  os TEXT NOT NULL,\n"
	"  mhz REAL,\n"
	"  sysinfo TEXT\n"
	");\n"
	"CREATE TABLE results (\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run_id INTEGER NOT NULL REFERENCES runs(id),\n"
	"  bench_id TEXT NOT NULL,\n"
	"  unit TEXT NOT NULL,\n"
	"  better TEXT NOT NULL CHECK (better IN ('lower', 'higher')),\n"
	"  status TEXT NOT NULL CHECK (status IN ('ok', 'noisy', 'skip', 'fail')),\n"
	"  median REAL, ci_low REAL, ci_high REAL, min REAL, max REAL,\n"
	"  mean REAL, stddev REAL, cv REAL, p5 REAL, p95 REAL,\n"
	"  n INTEGER NOT NULL,\n"
	"  iterations INTEGER NOT NULL,\n"
	"  stop TEXT NOT NULL,\n"
	"  wall_s REAL,\n"
	"  reason TEXT,\n"
	"  interference REAL DEFAULT -1,\n"
	"  overhead REAL DEFAULT 0\n"
	");\n"
	"CREATE TABLE samples (\n"
	"  result_id INTEGER NOT NULL REFERENCES results(id),\n"
	"  idx INTEGER NOT NULL,\n"
	"  value REAL\n"
	");\n"
	"CREATE INDEX results_run_id ON results(run_id);\n"
	"CREATE INDEX samples_result_id ON samples(result_id);\n"
	"CREATE INDEX runs_label ON runs(label);\n"
	"INSERT INTO hosts VALUES (1, 'box2', 'Linux 5.10.0');"
	"INSERT INTO runs VALUES (1, 1, 'v2run', '2023-05-06T07:08:09Z', '2023-05-06T07:18:09Z',"
	"  'Linux 5.10.0', 3000.0, '{\"os\": \"Linux\"}');"
	"INSERT INTO results (id, run_id, bench_id, unit, better, status, median, ci_low, ci_high,"
	"  min, max, mean, stddev, cv, p5, p95, n, iterations, stop, wall_s, reason,"
	"  interference, overhead) VALUES (1, 1, 'ipc.pipe.lat', 'us', 'lower', 'ok', 4.25, 4.2,"
	"  4.3, 4.0, 5.0, 4.3, 0.1, 0.02, 4.1, 4.9, 2, 1000, 'precision', 0.5, NULL, 0.05, 0.01);"
	"INSERT INTO samples VALUES (1, 0, 4.2), (1, 1, 4.3);"
	"PRAGMA user_version = 2;";

static void test_migrate_v2(void **state)
{
	struct fixture *f = sqlite_only(state, __func__, "a version 2 file made by hand");
	char err[ERRBUF_LEN] = "";
	char v2[PATH_MAX], fresh[PATH_MAX];
	struct run_info *runs, run;
	struct result r;
	struct store *st;
	int n;

	snprintf(v2, sizeof(v2), "%s/v2.db", f->dir);
	raw_exec(v2, v2_schema);
	assert_int_equal(raw_version(v2), 2);

	st = store_open(v2, err);
	if (!st)
		fail_msg("open v2: %s", err);
	assert_int_equal(raw_version(v2), STORE_SCHEMA_VERSION);
	n = store_runs_load(st, NULL, 0, 1, &runs, err);
	if (n != 1)
		fail_msg("load v2: %d: %s", n, err);
	assert_string_equal(runs[0].label, "v2run");
	assert_string_equal(runs[0].sysinfo_json, "{\"os\": \"Linux\"}");
	assert_int_equal(runs[0].nresults, 1);
	r = runs[0].results[0];
	assert_string_equal(r.id, "ipc.pipe.lat");
	assert_same_double(r.median, 4.25);
	assert_same_double(r.interference, 0.05);
	assert_same_double(r.overhead, 0.01);
	assert_int_equal(r.n, 2);
	assert_same_double(r.samples[1], 4.3);
	/* Version 2 knew no placement: "" in the column, PLACE_NA once read. */
	assert_pre_v3_defaults(&r);
	store_runs_free(runs, (size_t)n);
	assert_int_equal(raw_int(v2, "SELECT count(*) FROM results WHERE placement = ''"
				     " AND parallel = 1 AND aggregate IS NULL"), 1);

	/* The migrated file takes the new fields and gives them back. */
	make_run(&run, "after");
	assert_int_equal(store_run_begin(st, &run, err), 0);
	make_result(&r, "ipc.pipe.lat", 0);
	r.placement = PLACE_SAME;
	r.parallel = 2;
	r.aggregate = 2.5;
	add_value(&r, "msg_size", 1, NULL);
	add_value(&r, "transport", 0, "pipe");
	assert_int_equal(store_result_add(st, run.id, &r, err), 0);
	const char *after[] = {"after"};
	n = store_runs_load(st, after, 1, 0, &runs, err);
	assert_int_equal(n, 1);
	assert_int_equal(runs[0].nresults, 1);
	assert_same_result(&r, &runs[0].results[0], 0);
	store_runs_free(runs, (size_t)n);
	store_close(st);

	/* A database migrated from version 2 looks exactly like a fresh one. */
	snprintf(fresh, sizeof(fresh), "%s/fresh.db", f->dir);
	st = store_open(fresh, err);
	assert_non_null(st);
	store_close(st);
	assert_same_schema(v2, fresh);
}

/* The schema text and every row, to show that opening changed nothing. */
static char *db_fingerprint(const char *path)
{
	/* A query, and on which engine it runs. */
	static const struct {
		const char *sql;	/* what to read */
		int ncols;		/* its columns */
		int pg;			/* 0: on SQLite only, 1: on PostgreSQL only, -1: on both */
	} parts[] = {
		/* The schema, in each engine's catalogue; then the rows, the same SQL on both. */
		{ "SELECT type, name, sql FROM sqlite_master ORDER BY name", 3, 0 },
		{ "SELECT table_name, column_name, data_type, column_default, is_nullable"
		  " FROM information_schema.columns WHERE table_schema = current_schema()"
		  " ORDER BY table_name, ordinal_position", 5, 1 },
		{ "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
		  " ORDER BY indexname", 2, 1 },
		{ "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
		  " WHERE connamespace = current_schema()::regnamespace ORDER BY conname", 2, 1 },
		{ "SELECT id, placement, parallel, aggregate FROM results ORDER BY id", 4, -1 },
		{ "SELECT result_id, idx, key, num, text FROM result_values ORDER BY result_id, idx", 5, -1 },
		{ "SELECT count(*) FROM samples", 1, -1 },
		{ "SELECT id, uuid, set_uuid, label FROM runs ORDER BY id", 4, -1 },
		{ "SELECT idx, series, x FROM result_points ORDER BY result_id, idx", 3, -1 },
	};
	char *all = NULL, *part;
	size_t len;
	FILE *fp = open_memstream(&all, &len);

	assert_non_null(fp);
	fprintf(fp, "version %lld\n", raw_version(path));
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (parts[i].pg >= 0 && parts[i].pg != on_pg)
			continue;
		part = raw_rows(path, parts[i].sql, parts[i].ncols);
		fprintf(fp, "%s\n", part);
		free(part);
	}
	assert_int_equal(fclose(fp), 0);
	return all;
}

static void test_reopen_unchanged(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "";
	struct run_info run, *runs;
	struct result r;
	struct store *st;
	char *before, *after;
	int n;

	st = store_open(f->db, err);
	assert_non_null(st);
	make_run(&run, "current");
	assert_int_equal(store_run_begin(st, &run, err), 0);
	make_result(&r, "ipc.pipe.lat", 5);
	r.placement = PLACE_SPREAD;
	r.parallel = 3;
	r.aggregate = 7.75;
	add_value(&r, "msg_size", 64, NULL);
	add_value(&r, "transport", 0, "pipe");
	/* A curve's points come back in order, noisy flag and all. */
	r.npoints = 3;
	r.points = calloc(3, sizeof(*r.points));
	assert_non_null(r.points);
	for (int i = 0; i < 3; i++) {
		snprintf(r.points[i].series, sizeof(r.points[i].series), "%s", i < 2 ? "page" : "random");
		r.points[i].x = 512.0 * (1 << i);
		r.points[i].y = 1.25 + i;
		r.points[i].lo = 1.0 + i;
		r.points[i].hi = 1.5 + i;
		r.points[i].noisy = i == 1;
	}
	assert_int_equal(store_result_add(st, run.id, &r, err), 0);
	assert_int_equal(store_run_end(st, run.id, err), 0);
	store_close(st);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_points WHERE noisy = 1"
				 " AND series = 'page' AND x = 1024"), 1);
	before = db_fingerprint(f->db);
	assert_non_null(strstr(before, "|spread|3|7.75|"));

	/* Both ways of opening, twice: no migration runs, nothing is rewritten. */
	for (int i = 0; i < 4; i++) {
		st = i % 2 ? store_open_existing(f->db, err) : store_open(f->db, err);
		if (!st)
			fail_msg("reopen: %s", err);
		n = store_runs_load(st, NULL, 0, 1, &runs, err);
		assert_int_equal(n, 1);
		assert_same_result(&r, &runs[0].results[0], 1);
		store_runs_free(runs, (size_t)n);
		store_close(st);
		assert_int_equal(raw_version(f->db), STORE_SCHEMA_VERSION);
		after = db_fingerprint(f->db);
		assert_string_equal(before, after);
		free(after);
	}
	free(before);
	result_free(&r);
}

/*
 * Rows this kbench never writes, as a damaged file or another program could
 * leave them: each is refused on load with a message naming the database,
 * and store_result_add refuses to write their like in the first place.
 */
static void test_bad_rows(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "", want[PATH_MAX + 128], sql[256];
	struct run_info run, *runs;
	struct result r;
	struct store *st;
	long long rid;

	st = store_open(f->db, err);
	assert_non_null(st);
	make_run(&run, "bad");
	assert_int_equal(store_run_begin(st, &run, err), 0);
	make_result(&r, "ipc.pipe.lat", 0);
	r.placement = PLACE_SAME;
	assert_int_equal(store_result_add(st, run.id, &r, err), 0);
	rid = raw_int(f->db, "SELECT max(id) FROM results");

	/* A placement name this kbench does not know. */
	raw_exec(f->db, "UPDATE results SET placement = 'diagonal'");
	runs = &run;	/* must come back NULL */
	assert_int_equal(store_runs_load(st, NULL, 0, 0, &runs, err), -1);
	assert_null(runs);
	snprintf(want, sizeof(want), "cannot read db '%s': result %lld has an unknown placement "
		 "'diagonal'", f->db, rid);
	assert_string_equal(err, want);
	/* "none" is a placement; so is "", but only as "not between processes". */
	raw_exec(f->db, "UPDATE results SET placement = 'none'");
	assert_int_equal(store_runs_load(st, NULL, 0, 0, &runs, err), 1);
	assert_int_equal(runs[0].results[0].placement, PLACE_NONE);
	store_runs_free(runs, 1);
	raw_exec(f->db, "UPDATE results SET placement = 'None'");
	assert_int_equal(store_runs_load(st, NULL, 0, 0, &runs, err), -1);
	assert_non_null(strstr(err, "unknown placement 'None'"));
	raw_exec(f->db, "UPDATE results SET placement = ''");

	/* No count of copies. */
	raw_exec(f->db, "UPDATE results SET parallel = 0");
	assert_int_equal(store_runs_load(st, NULL, 0, 0, &runs, err), -1);
	snprintf(want, sizeof(want), "cannot read db '%s': result %lld has parallel 0", f->db, rid);
	assert_true(strncmp(err, want, strlen(want)) == 0);
	raw_exec(f->db, "UPDATE results SET parallel = 1");

	/*
	 * The records a result or a run has lists of are read by their tables
	 * (core/fields.h) as a result's fields are: each field in its range,
	 * each name known, and the message says whose record it is.
	 */
	snprintf(sql, sizeof(sql), "INSERT INTO result_replicas (result_id, idx, median, n, t0, t1,"
		 " stop) VALUES (%lld, 0, 2.5, 10, 1, 2, 'precision'), (%lld, 1, 2.5, 10, 1, 2,"
		 " 'sideways')", rid, rid);
	raw_exec(f->db, sql);
	assert_int_equal(store_runs_load(st, NULL, 0, 0, &runs, err), -1);
	snprintf(want, sizeof(want), "cannot read db '%s': result %lld's replica 2 has an unknown "
		 "stop 'sideways'", f->db, rid);
	assert_string_equal(err, want);
	raw_exec(f->db, "UPDATE result_replicas SET stop = 'max-time' WHERE idx = 1");
	assert_int_equal(store_runs_load(st, NULL, 0, 0, &runs, err), 1);
	assert_int_equal(runs[0].results[0].nreplicas, 2);
	assert_int_equal(runs[0].results[0].replicas[1].stop, STOP_MAX_TIME);
	assert_same_double(runs[0].results[0].replicas[1].median, 2.5);
	assert_true(isnan(runs[0].results[0].replicas[1].apart));
	store_runs_free(runs, 1);
	raw_exec(f->db, "DELETE FROM result_replicas");
	snprintf(sql, sizeof(sql), "INSERT INTO result_points (result_id, idx, series, x, noisy)"
		 " VALUES (%lld, 0, 'random', 4096, 2)", rid);
	raw_exec(f->db, sql);
	assert_int_equal(store_runs_load(st, NULL, 0, 0, &runs, err), -1);
	snprintf(want, sizeof(want), "cannot read db '%s': result %lld's point 1 has noisy 2, out "
		 "of its range", f->db, rid);
	assert_string_equal(err, want);
	raw_exec(f->db, "DELETE FROM result_points");
	snprintf(sql, sizeof(sql), "INSERT INTO sentinels (run_id, idx, t, cpu) VALUES (%lld, 0, 1, -7)",
		 (long long)run.id);
	raw_exec(f->db, sql);
	assert_int_equal(store_runs_load(st, NULL, 0, 0, &runs, err), -1);
	snprintf(want, sizeof(want), "cannot read db '%s': run %lld's sentinel point 1 has cpu -7, "
		 "out of its range", f->db, (long long)run.id);
	assert_string_equal(err, want);
	raw_exec(f->db, "DELETE FROM sentinels");

	/* Exactly BENCH_MAX_VALUES values load; one more is refused, not cut short. */
	for (int i = 0; i <= BENCH_MAX_VALUES; i++) {
		if (i == BENCH_MAX_VALUES) {
			assert_int_equal(store_runs_load(st, NULL, 0, 0, &runs, err), 1);
			assert_int_equal(runs[0].results[0].nvalues, BENCH_MAX_VALUES);
			assert_same_double(runs[0].results[0].values[2].num, 2);
			store_runs_free(runs, 1);
		}
		snprintf(sql, sizeof(sql), "INSERT INTO result_values VALUES (%lld, %d, 'k%d', %d, NULL)",
			 rid, i, i, i);
		raw_exec(f->db, sql);
	}
	assert_int_equal(store_runs_load(st, NULL, 0, 1, &runs, err), -1);
	assert_null(runs);
	snprintf(want, sizeof(want), "cannot read db '%s': result %lld has more than %d values",
		 f->db, rid, BENCH_MAX_VALUES);
	assert_string_equal(err, want);

	/* The writer refuses the same, before touching the file. */
	r.parallel = 0;
	assert_int_equal(store_result_add(st, run.id, &r, err), -1);
	assert_non_null(strstr(err, "cannot add result 'ipc.pipe.lat' to db '"));
	assert_non_null(strstr(err, "parallel 0"));
	r.parallel = 1;
	r.nvalues = BENCH_MAX_VALUES + 1;
	assert_int_equal(store_result_add(st, run.id, &r, err), -1);
	snprintf(want, sizeof(want), "%d values, more than %d", BENCH_MAX_VALUES + 1,
		 BENCH_MAX_VALUES);
	assert_non_null(strstr(err, want));
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM results"), 1);
	store_close(st);
}

/*
 * A database whose schema a newer kbench wrote (here: one this kbench
 * made, its version then set to 99 as that kbench would) is refused by
 * every opener, and left as it was: on SQLite byte for byte.
 */
static void test_newer_schema_refused(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "", want[PATH_MAX + 128];
	struct store *(*const opener[])(const char *, char *) = {
		store_open, store_open_existing, store_open_readonly,
	};
	struct run_info run;
	struct store *st;
	struct db *db;
	char *before = NULL, *fp_before, *fp_after;
	size_t nb = 0;

	st = store_open(f->db, err);
	assert_non_null(st);
	make_run(&run, "from the future");
	assert_int_equal(store_run_begin(st, &run, err), 0);
	run_info_free(&run);
	store_close(st);
	db = raw_open(f->db);
	if (db_set_version(db, 99) < 0)
		fail_msg("cannot set the version: %s", db_errmsg(db));
	db_close(db);
	assert_int_equal(raw_version(f->db), 99);
	fp_before = db_fingerprint(f->db);
	if (!on_pg)
		before = slurp(f->db, &nb);

	snprintf(want, sizeof(want),
		 "cannot open db '%s': made by a newer kbench (schema 99, this kbench knows %d)", f->db,
		 STORE_SCHEMA_VERSION);
	for (size_t i = 0; i < sizeof(opener) / sizeof(opener[0]); i++) {
		err[0] = '\0';
		assert_null(opener[i](f->db, err));
		assert_string_equal(err, want);
	}

	if (!on_pg) {
		assert_untouched(f->db, before, nb);
		assert_no_sidecars(f->db);
	}
	fp_after = db_fingerprint(f->db);
	assert_string_equal(fp_before, fp_after);
	free(fp_before);
	free(fp_after);
}

static void test_not_a_database(void **state)
{
	struct fixture *f = sqlite_only(state, __func__, "text files named as the database");
	char err[ERRBUF_LEN] = "", want[PATH_MAX + 128], path[PATH_MAX];
	char *before;
	size_t nb;
	FILE *fp;

	/* Short text and text longer than a page: both must be left alone. */
	for (int big = 0; big < 2; big++) {
		snprintf(path, sizeof(path), "%s/notes%d.txt", f->dir, big);
		fp = fopen(path, "w");
		assert_non_null(fp);
		for (int i = 0; i < (big ? 2000 : 1); i++)
			fprintf(fp, "these are my notes, not a database (%d)\n", i);
		assert_int_equal(fclose(fp), 0);
		before = slurp(path, &nb);

		assert_null(store_open(path, err));
		snprintf(want, sizeof(want), "cannot open db '%s': file is not a database", path);
		assert_string_equal(err, want);
		assert_null(store_open_existing(path, err));
		assert_string_equal(err, want);

		assert_untouched(path, before, nb);
		assert_no_sidecars(path);
	}
}

static void test_foreign_db_refused(void **state)
{
	struct fixture *f = sqlite_only(state, __func__, "a SQLite file of somebody else's tables");
	char err[ERRBUF_LEN] = "", path[PATH_MAX];
	char *before;
	size_t nb;

	/* SQLite, version 0, but somebody's tables: not ours to add to. */
	snprintf(path, sizeof(path), "%s/other.db", f->dir);
	raw_exec(path, "CREATE TABLE contacts (name TEXT);");
	before = slurp(path, &nb);
	assert_null(store_open(path, err));
	assert_non_null(strstr(err, "not a kbench database"));
	assert_untouched(path, before, nb);
}

static void test_unwritable_path(void **state)
{
	struct fixture *f = sqlite_only(state, __func__, "paths where no file can be made");
	char err[ERRBUF_LEN] = "", path[PATH_MAX], prefix[PATH_MAX + 32];
	static const char *const bad[] = {"/etc/passwd/x.db", "/proc/kbench-no-such/y.db",
					  "/proc/self/kbench.db"};
	FILE *fp;

	/* A path under a regular file: root cannot get round that. */
	snprintf(path, sizeof(path), "%s/file", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/file/deeper/x.db", f->dir);
	assert_null(store_open(path, err));
	snprintf(prefix, sizeof(prefix), "cannot open db '%s': ", path);
	assert_true(strncmp(err, prefix, strlen(prefix)) == 0);
	assert_non_null(strstr(err, "not a directory"));

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_null(store_open(bad[i], err));
		snprintf(prefix, sizeof(prefix), "cannot open db '%s': ", bad[i]);
		assert_true(strncmp(err, prefix, strlen(prefix)) == 0);
		assert_true(strlen(err) > strlen(prefix));
	}

	/* A directory without write permission (meaningless as root, who ignores it). */
	if (geteuid() != 0) {
		snprintf(path, sizeof(path), "%s/ro", f->dir);
		assert_int_equal(mkdir(path, 0555), 0);
		snprintf(path, sizeof(path), "%s/ro/x.db", f->dir);
		assert_null(store_open(path, err));
		snprintf(prefix, sizeof(prefix), "cannot open db '%s': ", path);
		assert_true(strncmp(err, prefix, strlen(prefix)) == 0);
		snprintf(path, sizeof(path), "%s/ro", f->dir);
		assert_int_equal(chmod(path, 0755), 0);
	}
}

static void test_open_existing_missing(void **state)
{
	struct fixture *f = sqlite_only(state, __func__, "a file that is not there");
	char err[ERRBUF_LEN] = "", want[PATH_MAX + 128];

	assert_null(store_open_existing(f->db, err));
	snprintf(want, sizeof(want), "cannot open db '%s': no such file", f->db);
	assert_string_equal(err, want);
	/* Not created as a side effect, nor its directory. */
	assert_false(exists(f->db));
	snprintf(want, sizeof(want), "%s/sub", f->dir);
	assert_false(exists(want));
}

/* Set or unset (NULL) an environment variable. */
static void env(const char *name, const char *value)
{
	if (value)
		assert_int_equal(setenv(name, value, 1), 0);
	else
		assert_int_equal(unsetenv(name), 0);
}

static void test_default_path(void **state)
{
	static const char *const names[] = {"KBENCH_DB", "XDG_DATA_HOME", "HOME"};
	char *saved[3];
	char buf[PATH_MAX], err[ERRBUF_LEN] = "", tiny[8];

	(void)sqlite_only(state, __func__, "the default path of the file");
	for (int i = 0; i < 3; i++) {
		const char *v = getenv(names[i]);
		saved[i] = v ? strdup(v) : NULL;
	}

	env("KBENCH_DB", "/k/k.db");
	env("XDG_DATA_HOME", "/xdg");
	env("HOME", "/home/u");
	assert_int_equal(store_default_path("/explicit.db", buf, sizeof(buf), err), 0);
	assert_string_equal(buf, "/explicit.db");
	assert_int_equal(store_default_path(NULL, buf, sizeof(buf), err), 0);
	assert_string_equal(buf, "/k/k.db");
	env("KBENCH_DB", "");	/* empty counts as unset */
	assert_int_equal(store_default_path("", buf, sizeof(buf), err), 0);
	assert_string_equal(buf, "/xdg/kbench/results.db");
	env("KBENCH_DB", NULL);
	assert_int_equal(store_default_path(NULL, buf, sizeof(buf), err), 0);
	assert_string_equal(buf, "/xdg/kbench/results.db");
	env("XDG_DATA_HOME", "relative/dir");	/* invalid by the XDG spec: ignored */
	assert_int_equal(store_default_path(NULL, buf, sizeof(buf), err), 0);
	assert_string_equal(buf, "/home/u/.local/share/kbench/results.db");
	env("XDG_DATA_HOME", NULL);
	assert_int_equal(store_default_path(NULL, buf, sizeof(buf), err), 0);
	assert_string_equal(buf, "/home/u/.local/share/kbench/results.db");
	assert_int_equal(store_default_path(NULL, tiny, sizeof(tiny), err), -1);
	assert_non_null(strstr(err, "too long"));
	env("HOME", NULL);
	err[0] = '\0';
	assert_int_equal(store_default_path(NULL, buf, sizeof(buf), err), -1);
	assert_true(err[0] != '\0');

	for (int i = 0; i < 3; i++) {
		env(names[i], saved[i]);
		free(saved[i]);
	}
}

/* Write `count` results into a run of our own through our own handle. */
static int writer(const char *path, const char *label, int count)
{
	char err[ERRBUF_LEN];
	struct run_info run;
	struct result r;
	struct store *st = store_open(path, err);

	if (!st) {
		fprintf(stderr, "writer %s: %s\n", label, err);
		return -1;
	}
	make_run(&run, label);
	if (store_run_begin(st, &run, err) < 0)
		goto fail;
	for (int i = 0; i < count; i++) {
		make_result(&r, "sys.null", 8);
		r.median = i;
		int rc = store_result_add(st, run.id, &r, err);
		result_free(&r);
		if (rc < 0)
			goto fail;
	}
	if (store_run_end(st, run.id, err) < 0)
		goto fail;
	store_close(st);
	return 0;
fail:
	fprintf(stderr, "writer %s: %s\n", label, err);
	store_close(st);
	return -1;
}

/* Three runs: a set of two labelled "a" (one failed result), one labelled "b". */
static void store_three_runs(struct store *st, struct run_info run[3])
{
	char err[ERRBUF_LEN] = "";
	struct result r;

	for (int i = 0; i < 3; i++) {
		make_run(&run[i], i < 2 ? "a" : "b");
		if (i == 1)
			snprintf(run[1].set_uuid, sizeof(run[1].set_uuid), "%s", run[0].uuid);
		assert_int_equal(store_run_begin(st, &run[i], err), 0);
		make_result(&r, "sys.null", 3);
		assert_int_equal(store_result_add(st, run[i].id, &r, err), 0);
		free(r.samples);
		make_result(&r, "proc.fork", 0);
		if (i == 0) {
			r.status = RES_FAIL;
			snprintf(r.reason, sizeof(r.reason), "fork: resource busy");
		}
		assert_int_equal(store_result_add(st, run[i].id, &r, err), 0);
		free(r.samples);
	}
}

static void test_list_rename_delete(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "";
	struct run_info run[3], *runs;
	struct store_run_row *rows;
	struct store *st;
	const char *a[] = {"a"}, *b[] = {"b"}, *nosuch[] = {"b", "nosuch"};
	char id0[32];

	st = store_open(f->db, err);
	assert_non_null(st);
	store_three_runs(st, run);
	assert_int_equal(store_runs_list(st, NULL, 0, NULL, &rows, err), 3);
	assert_string_equal(rows[0].label, "a");
	assert_int_equal(rows[0].nresults, 2);
	assert_int_equal(rows[0].nmissing, 1);
	assert_int_equal(rows[1].nmissing, 0);
	/* The set is numbered by its first run. */
	assert_int_equal(rows[0].set_id, run[0].id);
	assert_int_equal(rows[1].set_id, run[0].id);
	assert_int_equal(rows[2].set_id, run[2].id);
	assert_string_equal(rows[2].uuid, run[2].uuid);
	assert_string_equal(rows[2].host, "testbox");
	free(rows);

	/* Rename by label, then by run id. */
	assert_int_equal(store_runs_rename(st, a, 1, "2.5.47", err), 2);
	snprintf(id0, sizeof(id0), "%lld", (long long)run[0].id);
	const char *first[] = {id0};
	assert_int_equal(store_runs_rename(st, first, 1, "first", err), 1);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM runs WHERE label = '2.5.47'"), 1);
	/* A selector that matches nothing changes nothing, even beside one that does. */
	assert_int_equal(store_runs_rename(st, nosuch, 2, "c", err), -1);
	assert_non_null(strstr(err, "no run or label 'nosuch'"));
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM runs WHERE label = 'b'"), 1);
	assert_int_equal(store_runs_delete(st, nosuch, 2, err), -1);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM runs"), 3);

	/* Delete takes everything under the run, and the host once no run uses it. */
	assert_int_equal(store_runs_delete(st, b, 1, err), 1);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM runs"), 2);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM results"), 4);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM samples"), 6);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM hosts"), 1);
	const char *both[] = {"first", "2.5.47"};
	assert_int_equal(store_runs_delete(st, both, 2, err), 2);
	assert_int_equal(raw_int(f->db, "SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM"
					" results) + (SELECT count(*) FROM samples) + (SELECT count(*)"
					" FROM result_values) + (SELECT count(*) FROM hosts)"), 0);
	assert_int_equal(store_runs_load(st, NULL, 0, 0, &runs, err), 0);
	store_runs_free(runs, 0);
	store_close(st);
}

static void test_import(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "";
	char other[PATH_MAX];
	struct run_info run[3], *runs, *again;
	struct store *st, *st2;
	size_t added;
	char *before;
	int n;

	st = store_open(f->db, err);
	assert_non_null(st);
	store_three_runs(st, run);
	n = store_runs_load(st, NULL, 0, 1, &runs, err);
	assert_int_equal(n, 3);

	/* Into another database: everything arrives, ids new, identity kept. */
	fixture_db(f, "other", other, sizeof(other));
	st2 = store_open(other, err);
	assert_non_null(st2);
	assert_int_equal(store_import(st2, runs, 3, &added, err), 0);
	assert_int_equal(added, 3);
	n = store_runs_load(st2, NULL, 0, 1, &again, err);
	assert_int_equal(n, 3);
	for (int i = 0; i < 3; i++) {
		assert_string_equal(again[i].uuid, runs[i].uuid);
		assert_string_equal(again[i].set_uuid, runs[i].set_uuid);
		assert_string_equal(again[i].label, runs[i].label);
		assert_string_equal(again[i].started, runs[i].started);
		assert_string_equal(again[i].finished, runs[i].finished);
		assert_int_equal(again[i].nresults, 2);
		for (size_t j = 0; j < 2; j++)
			assert_same_result(&runs[i].results[j], &again[i].results[j], 1);
	}
	store_runs_free(again, 3);

	/* Twice: nothing added, nothing changed. */
	before = db_fingerprint(other);
	assert_int_equal(store_import(st2, runs, 3, &added, err), 0);
	assert_int_equal(added, 0);
	char *after = db_fingerprint(other);
	assert_string_equal(before, after);
	free(after);

	/* A run that cannot be stored spoils the whole import: nothing is added. */
	memset(runs[0].uuid, 0, sizeof(runs[0].uuid));
	snprintf(runs[1].uuid, sizeof(runs[1].uuid), "0123456789abcdef0123456789abcdef");
	runs[2].results[0].parallel = 0;
	snprintf(runs[2].uuid, sizeof(runs[2].uuid), "fedcba9876543210fedcba9876543210");
	assert_int_equal(store_import(st2, runs + 1, 2, &added, err), -1);
	assert_non_null(strstr(err, "parallel 0"));
	after = db_fingerprint(other);
	assert_string_equal(before, after);
	free(after);
	assert_int_equal(store_import(st2, runs, 1, &added, err), -1);
	assert_non_null(strstr(err, "no uuid"));
	free(before);
	store_runs_free(runs, 3);
	store_close(st2);
	store_close(st);
}

static void test_concurrent_writers(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "";
	struct store *a, *b;
	struct run_info ra, rb, *runs;
	struct result r;
	pid_t pid[2];
	int n, status;

	/* Two handles in one process, their inserts interleaved. */
	a = store_open(f->db, err);
	assert_non_null(a);
	b = store_open(f->db, err);
	assert_non_null(b);
	make_run(&ra, "a");
	make_run(&rb, "b");
	assert_int_equal(store_run_begin(a, &ra, err), 0);
	assert_int_equal(store_run_begin(b, &rb, err), 0);
	for (int i = 0; i < 20; i++) {
		make_result(&r, "sys.null", 4);
		r.median = i;
		assert_int_equal(store_result_add(i % 2 ? a : b, i % 2 ? ra.id : rb.id, &r, err), 0);
		result_free(&r);
	}
	/* Each handle sees what the other wrote. */
	const char *sel_b[] = {"b"};
	n = store_runs_load(a, sel_b, 1, 1, &runs, err);
	assert_int_equal(n, 1);
	assert_int_equal(runs[0].nresults, 10);
	for (size_t i = 0; i < 10; i++)
		assert_same_double(runs[0].results[i].median, (double)(2 * i));
	store_runs_free(runs, (size_t)n);
	store_close(a);
	store_close(b);

	/* Two processes writing at the same time; neither loses a result. */
	for (int p = 0; p < 2; p++) {
		pid[p] = fork();
		assert_true(pid[p] >= 0);
		if (pid[p] == 0)
			_exit(writer(f->db, p ? "proc1" : "proc0", 150) == 0 ? 0 : 1);
	}
	for (int p = 0; p < 2; p++) {
		assert_int_equal(waitpid(pid[p], &status, 0), pid[p]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	a = store_open_existing(f->db, err);
	assert_non_null(a);
	const char *sel_p[] = {"proc0", "proc1"};
	n = store_runs_load(a, sel_p, 2, 1, &runs, err);
	assert_int_equal(n, 2);
	for (int p = 0; p < 2; p++) {
		assert_int_equal(runs[p].nresults, 150);
		for (size_t i = 0; i < 150; i++) {
			assert_same_double(runs[p].results[i].median, (double)i);
			assert_int_equal(runs[p].results[i].n, 8);
		}
	}
	store_runs_free(runs, (size_t)n);
	store_close(a);
}

/*
 * Issue 13: several processes creating one new database at once.  Each of
 * 20 rounds forks 8 writers held at a barrier (a pipe that closes), so that they
 * all open the new file together; before opening retried its busy steps,
 * one in about three of two such writers failed with "database is locked"
 * or took the half-made file for somebody else's.  Then 8 more on the
 * database that exists.  Every run must be stored, once.
 */
static void test_concurrent_create(void **state)
{
	struct fixture *f = sqlite_only(state, __func__, "eight processes creating one new file");
	char path[PATH_MAX], label[32], sql[128];
	pid_t pid[8];
	int gate[2], status;

	for (int round = 0; round <= 20; round++) {
		/* Rounds 0-19 each create a database; round 20 writes to the last one again. */
		if (round < 20)
			snprintf(path, sizeof(path), "%s/new%d/results.db", f->dir, round);
		assert_int_equal(pipe(gate), 0);
		for (int p = 0; p < 8; p++) {
			pid[p] = fork();
			assert_true(pid[p] >= 0);
			if (pid[p] == 0) {
				char c;

				close(gate[1]);
				/* EOF when the parent closes its end: all start at once. */
				(void)!read(gate[0], &c, 1);
				snprintf(label, sizeof(label), "r%d.w%d", round, p);
				_exit(writer(path, label, 3) == 0 ? 0 : 1);
			}
		}
		close(gate[0]);
		close(gate[1]);
		for (int p = 0; p < 8; p++) {
			assert_int_equal(waitpid(pid[p], &status, 0), pid[p]);
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
				fail_msg("round %d: writer %d failed (its error is on stderr)", round, p);
		}
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM runs WHERE label LIKE 'r%d.w_'", round);
		assert_int_equal(raw_int(path, sql), 8);
		snprintf(sql, sizeof(sql), "SELECT count(DISTINCT label) FROM runs WHERE label LIKE 'r%d.w_'",
			 round);
		assert_int_equal(raw_int(path, sql), 8);
		assert_int_equal(raw_int(path, "SELECT count(*) FROM runs WHERE finished IS NULL"), 0);
	}
	assert_int_equal(raw_int(path, "SELECT count(*) FROM runs"), 16);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM results"), 48);
}

/*
 * Run fn(arg) in a child that can write neither dir nor the files in it:
 * as root the child becomes nobody, since modes do not stop root; as
 * anyone else the modes alone do.  The child does no cmocka asserts (a
 * failing one would carry on with the parent's tests); its exit status is
 * returned.
 */
static int in_unwritable(const char *top, const char *dir, int (*fn)(const char *), const char *arg)
{
	pid_t pid;
	int status;

	/* nobody must get through the fixture's private directory to dir. */
	assert_int_equal(chmod(top, 0711), 0);
	assert_int_equal(chmod(dir, 0555), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 &&
		    (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
			_exit(99);
		_exit(fn(arg));
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(chmod(dir, 0755), 0);
	assert_int_equal(chmod(top, 0700), 0);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/*
 * A reader in a child that cannot write: store_open_readonly and the two
 * loaders work, a writer's open is refused.  The exit status is the number
 * of runs loaded, or 100 and more for what failed.
 */
static int ro_reader(const char *path)
{
	char err[ERRBUF_LEN] = "";
	struct run_info *runs;
	struct store_run_row *rows;
	struct store *st = store_open_readonly(path, err);
	int n, m;

	if (!st) {
		fprintf(stderr, "ro_reader: %s\n", err);
		return 100;
	}
	n = store_runs_load(st, NULL, 0, 1, &runs, err);
	if (n < 0 || n >= 100) {
		fprintf(stderr, "ro_reader: %s\n", err);
		return 101;
	}
	m = store_runs_list(st, NULL, 0, NULL, &rows, err);
	if (m != n) {
		fprintf(stderr, "ro_reader: list %d, load %d: %s\n", m, n, err);
		return 102;
	}
	/* The read-only store refuses what would write. */
	if (store_run_begin(st, &runs[0], err) == 0 || !strstr(err, "read only"))
		return 103;
	store_runs_free(runs, (size_t)n);
	free(rows);
	store_close(st);
	st = store_open(path, err);
	if (st) {
		store_close(st);
		return 104;
	}
	return n;
}

/* A reader that must be refused because a -wal holds what only its -shm would make sense of. */
static int ro_refused_wal(const char *path)
{
	char err[ERRBUF_LEN] = "";
	struct store *st = store_open_readonly(path, err);

	if (st) {
		store_close(st);
		return 1;
	}
	if (!strstr(err, "write-ahead log")) {
		fprintf(stderr, "ro_refused_wal: %s\n", err);
		return 2;
	}
	return 0;
}

/* Copy a file byte for byte (from a database open elsewhere, as a crash would leave it). */
static void copy_file(const char *from, const char *to)
{
	size_t n;
	char *buf = slurp(from, &n);
	FILE *fp = fopen(to, "wb");

	assert_non_null(fp);
	assert_int_equal(fwrite(buf, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
	free(buf);
}

/*
 * Issue 13: a database that cannot be written (someone else's, a
 * read-only mount) can still be read, and reading writes nothing: a WAL
 * database closed cleanly has no -shm, and none can be made beside it, so
 * it is read as immutable; a -wal left with changes in it is refused in one
 * line rather than read without them; an older schema is migrated in memory
 * with the file left as it was, and for good where the file can be written.
 */
static void test_readonly(void **state)
{
	struct fixture *f = sqlite_only(state, __func__, "a file this process may not write");
	char err[ERRBUF_LEN] = "", dir[PATH_MAX], path[PATH_MAX + 16], side[PATH_MAX + 32];
	char *before;
	size_t nb;
	struct store *st;
	struct run_info run[3];

	snprintf(dir, sizeof(dir), "%s/ro", f->dir);
	assert_int_equal(mkdir(dir, 0755), 0);

	/* Current schema, WAL, closed: no -shm left for a reader. */
	snprintf(path, sizeof(path), "%s/cur.db", dir);
	st = store_open(path, err);
	assert_non_null(st);
	store_three_runs(st, run);
	store_close(st);
	for (int i = 0; i < 3; i++)
		run_info_free(&run[i]);
	assert_no_sidecars(path);
	assert_int_equal(chmod(path, 0444), 0);
	before = slurp(path, &nb);
	assert_int_equal(in_unwritable(f->dir, dir, ro_reader, path), 3);
	assert_untouched(path, before, nb);
	assert_no_sidecars(path);

	/* A -wal with changes and no -shm, as a crash leaves a copy: refused. */
	assert_int_equal(chmod(path, 0644), 0);
	st = store_open(path, err);
	assert_non_null(st);
	make_run(&run[0], "in the wal");
	assert_int_equal(store_run_begin(st, &run[0], err), 0);
	snprintf(side, sizeof(side), "%s/crash.db", dir);
	copy_file(path, side);
	snprintf(side, sizeof(side), "%s/crash.db-wal", dir);
	snprintf(path, sizeof(path), "%s/cur.db-wal", dir);
	copy_file(path, side);
	store_close(st);
	run_info_free(&run[0]);
	snprintf(path, sizeof(path), "%s/crash.db", dir);
	assert_int_equal(in_unwritable(f->dir, dir, ro_refused_wal, path), 0);

	/* Version 1, made by hand: read through a copy in memory, the file untouched. */
	snprintf(path, sizeof(path), "%s/v1.db", dir);
	raw_exec(path, v1_schema);
	assert_int_equal(chmod(path, 0444), 0);
	before = slurp(path, &nb);
	assert_int_equal(in_unwritable(f->dir, dir, ro_reader, path), 1);
	assert_untouched(path, before, nb);
	assert_no_sidecars(path);
	assert_int_equal(raw_version(path), 1);

	/* Where it may be written, the reader migrates it once and for all. */
	assert_int_equal(chmod(path, 0644), 0);
	st = store_open_readonly(path, err);
	assert_non_null(st);
	store_close(st);
	assert_int_equal(raw_version(path), STORE_SCHEMA_VERSION);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM runs WHERE label = 'fbsd4'"), 1);
}

/*
 * Version 7, as the kbench before issue 14 created it: results ends with
 * drifted, and there is no result_usage.  One run, one result between two
 * processes (two copies) with its samples and where they ran.
 */
static const char v7_schema[] =
	"CREATE TABLE hosts (id INTEGER PRIMARY KEY, hostname TEXT NOT NULL, os TEXT NOT NULL,"
	"  UNIQUE (hostname, os));"
	"CREATE TABLE runs (id INTEGER PRIMARY KEY, host_id INTEGER NOT NULL REFERENCES hosts(id),"
	"  label TEXT NOT NULL, started TEXT NOT NULL, finished TEXT, os TEXT NOT NULL, mhz REAL,"
	"  sysinfo TEXT, uuid TEXT, set_uuid TEXT, pid INTEGER);"
	"CREATE TABLE results (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  bench_id TEXT NOT NULL, unit TEXT NOT NULL,"
	"  better TEXT NOT NULL CHECK (better IN ('lower', 'higher')),"
	"  status TEXT NOT NULL CHECK (status IN ('ok', 'noisy', 'skip', 'fail')),"
	"  median REAL, ci_low REAL, ci_high REAL, min REAL, max REAL,"
	"  mean REAL, stddev REAL, cv REAL, p5 REAL, p95 REAL,"
	"  n INTEGER NOT NULL, iterations INTEGER NOT NULL, stop TEXT NOT NULL,"
	"  wall_s REAL, reason TEXT, interference REAL DEFAULT -1, overhead REAL DEFAULT 0,"
	"  placement TEXT NOT NULL DEFAULT '', parallel INTEGER NOT NULL DEFAULT 1, aggregate REAL,"
	"  drift REAL, drifted INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE samples (result_id INTEGER NOT NULL REFERENCES results(id),"
	"  idx INTEGER NOT NULL, value REAL, t REAL, cpu INTEGER, steal REAL, replica INTEGER);"
	"CREATE INDEX results_run_id ON results(run_id);"
	"CREATE INDEX samples_result_id ON samples(result_id);"
	"CREATE INDEX runs_label ON runs(label);"
	"CREATE TABLE result_values (result_id INTEGER NOT NULL REFERENCES results(id),"
	"  idx INTEGER NOT NULL, key TEXT NOT NULL, num REAL, text TEXT);"
	"CREATE INDEX result_values_result_id ON result_values(result_id);"
	"CREATE TABLE result_points (result_id INTEGER NOT NULL REFERENCES results(id),"
	"  idx INTEGER NOT NULL, series TEXT NOT NULL, x REAL NOT NULL,"
	"  y REAL, lo REAL, hi REAL, noisy INTEGER NOT NULL DEFAULT 0);"
	"CREATE INDEX result_points_result_id ON result_points(result_id);"
	"CREATE UNIQUE INDEX runs_uuid ON runs(uuid);"
	"CREATE TABLE result_replicas (result_id INTEGER NOT NULL REFERENCES results(id),"
	"  idx INTEGER NOT NULL, median REAL, ci_low REAL, ci_high REAL, n INTEGER NOT NULL,"
	"  t0 REAL, t1 REAL, stop TEXT NOT NULL, sentinel_sys REAL, sentinel_user REAL);"
	"CREATE INDEX result_replicas_result_id ON result_replicas(result_id);"
	"CREATE TABLE sentinels (run_id INTEGER NOT NULL REFERENCES runs(id),"
	"  idx INTEGER NOT NULL, t REAL NOT NULL, cpu INTEGER NOT NULL, sys_ns REAL, user_ns REAL);"
	"CREATE INDEX sentinels_run_id ON sentinels(run_id);"
	"INSERT INTO hosts VALUES (1, 'box7', 'Linux 6.1.0');"
	"INSERT INTO runs VALUES (1, 1, 'v7run', '2026-11-01T10:00:00Z', '2026-11-01T10:05:00Z',"
	"  'Linux 6.1.0', 2500.0, NULL, '0123456789abcdef0123456789abcdef',"
	"  '0123456789abcdef0123456789abcdef', NULL);"
	"INSERT INTO results VALUES (1, 1, 'ipc.pipe.lat', 'us', 'lower', 'ok', 4.25, 4.2, 4.3,"
	"  4.0, 5.0, 4.3, 0.1, 0.02, 4.1, 4.9, 3, 1000, 'precision', 0.5, NULL, 0.05, 0.01,"
	"  'spread', 2, 8.5, 0.01, 0);"
	"INSERT INTO samples VALUES (1, 0, 4.2, 0.5, 1, 0, 0), (1, 1, 4.25, 0.6, 0, NULL, 0),"
	"  (1, 2, 4.3, 0.7, 1, 0, 0);"
	"PRAGMA user_version = 7;";

/* What the result of v7_schema loads as, with its samples: 0, or which check failed. */
static int v7_check(const struct run_info *runs, int n)
{
	const struct result *r;

	if (n != 1 || runs[0].nresults != 1)
		return 1;
	r = &runs[0].results[0];
	if (strcmp(r->id, "ipc.pipe.lat") != 0 || r->placement != PLACE_SPREAD || r->parallel != 2)
		return 2;
	/* Version 7 timed no jobs: none, and no usage beside its samples. */
	if (r->jobs != 0 || r->usage != NULL)
		return 3;
	if (r->n != 3 || !r->samples || r->samples[2] != 4.3 || !r->where || r->where[1].cpu != 0)
		return 4;
	return 0;
}

/* A reader of a version 7 file in a child that cannot write it: 0, or what failed. */
static int ro_v7_reader(const char *path)
{
	char err[ERRBUF_LEN] = "";
	struct run_info *runs;
	struct store *st = store_open_readonly(path, err);
	int n, rc;

	if (!st) {
		fprintf(stderr, "ro_v7_reader: %s\n", err);
		return 100;
	}
	n = store_runs_load(st, NULL, 0, 1, &runs, err);
	if (n < 0) {
		fprintf(stderr, "ro_v7_reader: %s\n", err);
		store_close(st);
		return 101;
	}
	rc = v7_check(runs, n);
	store_runs_free(runs, (size_t)n);
	store_close(st);
	return rc;
}

/*
 * Issue 14: a version 7 database is read where it cannot be written (the
 * copy in memory gains jobs and result_usage, the file none of it), and
 * migrated by a writer, after which it takes a timed job's jobs and usage
 * and looks exactly like a fresh database.
 */
static void test_migrate_v7(void **state)
{
	struct fixture *f = sqlite_only(state, __func__, "a version 7 file made by hand");
	char err[ERRBUF_LEN] = "", dir[PATH_MAX], path[PATH_MAX + 16], fresh[PATH_MAX];
	const char *sel[] = {"after"};
	struct run_info *runs, run;
	struct result r;
	struct store *st;
	char *before;
	size_t nb;
	int n;

	snprintf(dir, sizeof(dir), "%s/v7", f->dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/v7.db", dir);
	raw_exec(path, v7_schema);
	assert_int_equal(chmod(path, 0444), 0);
	before = slurp(path, &nb);
	assert_int_equal(in_unwritable(f->dir, dir, ro_v7_reader, path), 0);
	assert_untouched(path, before, nb);
	assert_no_sidecars(path);
	assert_int_equal(raw_version(path), 7);

	assert_int_equal(chmod(path, 0644), 0);
	st = store_open(path, err);
	if (!st)
		fail_msg("open v7: %s", err);
	assert_int_equal(raw_version(path), STORE_SCHEMA_VERSION);
	assert_int_equal(raw_int(path, "SELECT count(*) FROM results WHERE jobs = 0"), 1);
	n = store_runs_load(st, NULL, 0, 1, &runs, err);
	if (n < 0)
		fail_msg("load v7: %s", err);
	assert_int_equal(v7_check(runs, n), 0);
	store_runs_free(runs, (size_t)n);

	/* The migrated file takes a timed job and gives it back whole. */
	make_run(&run, "after");
	assert_int_equal(store_run_begin(st, &run, err), 0);
	make_timed(&r, 4);
	assert_int_equal(store_result_add(st, run.id, &r, err), 0);
	n = store_runs_load(st, sel, 1, 1, &runs, err);
	assert_int_equal(n, 1);
	assert_int_equal(runs[0].nresults, 1);
	assert_same_result(&r, &runs[0].results[0], 1);
	store_runs_free(runs, (size_t)n);
	result_free(&r);
	run_info_free(&run);
	store_close(st);

	snprintf(fresh, sizeof(fresh), "%s/fresh.db", f->dir);
	st = store_open(fresh, err);
	assert_non_null(st);
	store_close(st);
	assert_same_schema(path, fresh);
}

/* A distribution: wake.timer with its percentiles and a histogram of three buckets, the last unbounded. */
static void make_distribution(struct result *r)
{
	make_result(r, "wake.timer", 0);
	add_value(r, "p50", 12.5, NULL);
	add_value(r, "p90", 20, NULL);
	add_value(r, "p99", 99, NULL);
	add_value(r, "p999", 1100, NULL);
	r->buckets = calloc(3, sizeof(*r->buckets));
	assert_non_null(r->buckets);
	r->nbuckets = 3;
	r->buckets[0] = (struct result_bucket){ 12.288, 13.312, 500 };
	r->buckets[1] = (struct result_bucket){ 98.304, 102.4, 7 };
	r->buckets[2] = (struct result_bucket){ 1099511627.776, (double)NAN, 1 };
}

/*
 * A distribution's histogram is kept whole, the last bucket's open end
 * too; and a database of version 11, which kept none, is upgraded on
 * opening (both engines: the table made, the version 12) after which its
 * old distribution loads without a histogram and a new one with its own,
 * and a run deleted takes its histogram with it.
 */
static void test_histogram_and_v11(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "", fresh[PATH_MAX];
	const char *sel[] = { "new" };
	struct run_info run, *runs;
	struct result r;
	struct store *st;
	int n;

	st = store_open(f->db, err);
	assert_non_null(st);
	make_run(&run, "old");
	assert_int_equal(store_run_begin(st, &run, err), 0);
	make_distribution(&r);
	assert_int_equal(store_result_add(st, run.id, &r, err), 0);
	n = store_runs_load(st, NULL, 0, 0, &runs, err);
	assert_int_equal(n, 1);
	assert_same_result(&r, &runs[0].results[0], 0);
	store_runs_free(runs, (size_t)n);
	store_close(st);
	run_info_free(&run);

	/* Made a version 11 database: no histograms, its version 11. */
	raw_exec(f->db, "DROP TABLE result_hist");
	raw_exec(f->db, on_pg ? "UPDATE kbench_schema SET version = 11" : "PRAGMA user_version = 11");
	assert_int_equal(raw_version(f->db), 11);
	st = store_open(f->db, err);
	if (!st)
		fail_msg("open v11: %s", err);
	assert_int_equal(raw_version(f->db), STORE_SCHEMA_VERSION);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_hist"), 0);
	n = store_runs_load(st, NULL, 0, 0, &runs, err);
	assert_int_equal(n, 1);
	assert_int_equal(runs[0].results[0].nbuckets, 0);
	assert_null(runs[0].results[0].buckets);
	assert_non_null(result_value(&runs[0].results[0], "p99"));
	store_runs_free(runs, (size_t)n);

	/* The upgraded database takes a histogram and gives it back. */
	make_run(&run, "new");
	assert_int_equal(store_run_begin(st, &run, err), 0);
	assert_int_equal(store_result_add(st, run.id, &r, err), 0);
	n = store_runs_load(st, sel, 1, 0, &runs, err);
	assert_int_equal(n, 1);
	assert_same_result(&r, &runs[0].results[0], 0);
	store_runs_free(runs, (size_t)n);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_hist"), 3);
	assert_int_equal(store_runs_delete(st, sel, 1, err), 1);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM result_hist"), 0);
	run_info_free(&run);
	result_free(&r);
	store_close(st);

	/* On SQLite, the upgraded file's schema is a fresh one's. */
	if (!on_pg) {
		fixture_db(f, "fresh11", fresh, sizeof(fresh));
		st = store_open(fresh, err);
		assert_non_null(st);
		store_close(st);
		assert_same_schema(f->db, fresh);
	}
}

/*
 * Issue 13: a zero-byte file is what SQLite takes for a new database, so
 * an opener that must not create one (the readers, rename and delete)
 * refuses it and leaves it zero bytes, with nothing beside it.  So does a
 * file of SQLite's that holds no schema.
 */
static void test_empty_file_refused(void **state)
{
	struct fixture *f = sqlite_only(state, __func__,
					"a zero-byte file, and a SQLite file without a schema");
	char err[ERRBUF_LEN] = "", path[PATH_MAX], want[PATH_MAX + 64];
	struct stat sb;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/empty.db", f->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fclose(fp), 0);
	snprintf(want, sizeof(want), "cannot open db '%s': empty file, not a kbench database", path);
	assert_null(store_open_readonly(path, err));
	assert_string_equal(err, want);
	err[0] = '\0';
	assert_null(store_open_existing(path, err));
	assert_string_equal(err, want);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_size, 0);
	assert_no_sidecars(path);

	/* SQLite's, with a page but no table and no version: not ours either. */
	snprintf(path, sizeof(path), "%s/blank.db", f->dir);
	raw_exec(path, "PRAGMA page_size = 4096; VACUUM;");
	assert_null(store_open_readonly(path, err));
	assert_non_null(strstr(err, "not a kbench database"));
}

/* A child measuring a run: begins it, says its id, waits, then tries to store a result. */
static int measuring_child(const char *path, int up, int down)
{
	char err[ERRBUF_LEN] = "", c;
	struct run_info run;
	struct result r;
	struct store *st = store_open(path, err);
	int rc;

	if (!st)
		return 1;
	make_run(&run, "measuring");
	/* The store tells a run in progress by its host's name as well as its pid. */
	if (gethostname(run.host, sizeof(run.host)) != 0)
		return 2;
	run.host[sizeof(run.host) - 1] = '\0';
	if (store_run_begin(st, &run, err) < 0 ||
	    write(up, &run.id, sizeof(run.id)) != (ssize_t)sizeof(run.id))
		return 3;
	if (read(down, &c, 1) != 1)
		return 4;
	if (c == 'q')	/* die without ending the run: interrupted */
		_exit(0);
	make_result(&r, "sys.null", 4);
	rc = store_result_add(st, run.id, &r, err);
	result_free(&r);
	/* Deleted under it: a clear line, not a foreign key. */
	if (rc == 0 || !strstr(err, "was deleted while it was being measured") ||
	    strstr(err, "FOREIGN"))
		return 5;
	if (store_run_end(st, run.id, err) == 0 || !strstr(err, "was deleted"))
		return 6;
	store_close(st);
	run_info_free(&run);
	return 0;
}

/* Fork a measuring child; *id is its run, fd[0] the pipe that releases it. */
static pid_t start_measuring(const char *path, int64_t *id, int *release)
{
	int up[2], down[2];
	pid_t pid;

	assert_int_equal(pipe(up), 0);
	assert_int_equal(pipe(down), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		_exit(measuring_child(path, up[1], down[0]));
	}
	close(up[1]);
	close(down[0]);
	assert_int_equal(read(up[0], id, sizeof(*id)), (ssize_t)sizeof(*id));
	close(up[0]);
	*release = down[1];
	return pid;
}

/* The running flag of run id in the list. */
static int listed_running(struct store *st, int64_t id)
{
	char err[ERRBUF_LEN] = "";
	struct store_run_row *rows;
	int n = store_runs_list(st, NULL, 0, NULL, &rows, err), running = -1;

	assert_true(n >= 0);
	for (int i = 0; i < n; i++)
		if (rows[i].id == id)
			running = rows[i].running;
	free(rows);
	return running;
}

/*
 * Issue 13: `runs delete` of a run being measured made that run fail on a
 * foreign key.  A run another live kbench is measuring is refused unless
 * forced; forced, the measuring process is told its run was deleted.  A
 * run whose process died (interrupted) is deleted as any other, and so is
 * a run of this very process (run drops its own empty interrupted run).
 */
static void test_delete_in_progress(void **state)
{
	struct fixture *f = fixture(state);
	char err[ERRBUF_LEN] = "", id[32], c = 'g';
	const char *sel[1] = { id };
	struct store *st;
	struct run_info own;
	int64_t run_id;
	pid_t pid;
	int release, status;

	st = store_open(f->db, err);
	assert_non_null(st);
	pid = start_measuring(f->db, &run_id, &release);
	snprintf(id, sizeof(id), "%lld", (long long)run_id);
	assert_int_equal(listed_running(st, run_id), 1);
	assert_int_equal(store_runs_delete(st, sel, 1, err), -1);
	assert_non_null(strstr(err, "being measured"));
	assert_non_null(strstr(err, "--force"));
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM runs"), 1);
	/* Its label selects it just the same. */
	sel[0] = "measuring";
	assert_int_equal(store_runs_delete(st, sel, 1, err), -1);
	sel[0] = id;
	assert_int_equal(store_runs_delete_force(st, sel, 1, err), 1);
	assert_int_equal(write(release, &c, 1), 1);
	close(release);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM runs"), 0);

	/* Its process gone without ending it: interrupted, not running, deleted. */
	pid = start_measuring(f->db, &run_id, &release);
	c = 'q';
	assert_int_equal(write(release, &c, 1), 1);
	close(release);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	snprintf(id, sizeof(id), "%lld", (long long)run_id);
	assert_int_equal(listed_running(st, run_id), 0);
	assert_int_equal(store_runs_delete(st, sel, 1, err), 1);

	/* This process's own run, not ended: its own to delete. */
	make_run(&own, "own");
	assert_int_equal(gethostname(own.host, sizeof(own.host)), 0);
	assert_int_equal(store_run_begin(st, &own, err), 0);
	assert_int_equal(listed_running(st, own.id), 0);
	snprintf(id, sizeof(id), "%lld", (long long)own.id);
	assert_int_equal(store_runs_delete(st, sel, 1, err), 1);
	run_info_free(&own);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_timed_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_selectors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_db, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reopen_unchanged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_schema_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_a_database, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_db_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwritable_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_existing_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_writers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_rename_delete, setup, teardown),
		cmocka_unit_test_setup_teardown(test_import, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_create, setup, teardown),
		cmocka_unit_test_setup_teardown(test_readonly, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v7, setup, teardown),
		cmocka_unit_test_setup_teardown(test_histogram_and_v11, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_file_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delete_in_progress, setup, teardown),
	};
	const char *backend = getenv("KBENCH_TEST_BACKEND"), *why = getenv("KBENCH_TEST_PG_WHY");

	on_pg = backend && !strcmp(backend, "pg");
	pg_uri = getenv("KBENCH_TEST_PG");
	if (pg_uri && !*pg_uri)
		pg_uri = NULL;
	if (on_pg && !pg_uri)
		print_message("# skip postgresql: KBENCH_TEST_PG is not set%s%s%s\n",
			      why && *why ? " (" : "", why && *why ? why : "", why && *why ? ")" : "");
	return cmocka_run_group_tests_name(on_pg ? "postgresql" : "sqlite", tests, NULL, NULL);
}
