/*
 * Unit tests for the results database: a run written and read back field
 * by field, run selection, migration of a version 1 file made by hand,
 * refusal of files kbench must not touch (checked byte for byte), the
 * default path rules, and two writers on one database at once.  Every test
 * works in its own directory under /tmp, removed afterwards.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "core/result.h"
#include "store/store.h"

/* A private directory and a database path inside it, per test. */
struct fixture {
	char dir[64];		/* mkdtemp'd */
	char db[PATH_MAX];	/* dir/sub/results.db: the sub-directory tests mkdir -p */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/kbench-test-store-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	snprintf(f->db, sizeof(f->db), "%s/sub/dir/results.db", f->dir);
	*state = f;
	return 0;
}

static int rm_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)type;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	int rc = nftw(f->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);

	free(f);
	return rc;
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

/* Raw SQL against a database, bypassing the store, as another program would. */
static void raw_exec(const char *path, const char *sql)
{
	sqlite3 *db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		fail_msg("raw sql failed: %s", sqlite3_errmsg(db));
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static long long raw_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *stmt;
	long long v;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
	v = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
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
	if (nsamples) {
		r->samples = malloc(nsamples * sizeof(*r->samples));
		assert_non_null(r->samples);
		for (size_t i = 0; i < nsamples; i++)
			r->samples[i] = 0.1 + (double)i / 3.0;
	}
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
	if (!want_samples || !want->samples) {
		assert_null(got->samples);
		return;
	}
	assert_non_null(got->samples);
	for (size_t i = 0; i < want->n; i++)
		assert_same_double(got->samples[i], want->samples[i]);
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
	struct fixture *f = *state;
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

	make_result(&res[0], "sys.null", 0);
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
	for (int i = 0; i < 3; i++)
		assert_int_equal(store_result_add(st, run.id, &res[i], err), 0);
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
		for (int i = 0; i < 3; i++)
			assert_same_result(&res[i], &runs[0].results[i], want);
		store_runs_free(runs, (size_t)n);
	}

	/* The end time is stamped, and the schema is where it should be. */
	snprintf(sql, sizeof(sql), "SELECT length(finished) FROM runs WHERE id = %lld",
		 (long long)run.id);
	assert_int_equal(raw_int(f->db, sql), 20);
	assert_int_equal(raw_int(f->db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM samples"), 25);
	assert_int_equal(raw_int(f->db, "SELECT count(*) FROM sqlite_master WHERE type = 'index'"
					" AND name NOT LIKE 'sqlite_autoindex%'"), 3);

	/* A result for a run that does not exist is refused by the foreign key. */
	assert_int_equal(store_result_add(st, run.id + 100, &res[0], err), -1);
	assert_non_null(strstr(err, "cannot add result 'sys.null' to db '"));
	assert_non_null(strstr(err, "FOREIGN KEY"));
	assert_int_equal(store_run_end(st, run.id + 100, err), -1);
	assert_non_null(strstr(err, "no such run"));

	for (int i = 0; i < 3; i++)
		result_free(&res[i]);
	run_info_free(&run);
	store_close(st);
}

static void test_load_selectors(void **state)
{
	struct fixture *f = *state;
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
	struct fixture *f = *state;
	char err[ERRBUF_LEN] = "";
	struct run_info *runs;
	struct store *st;

	char wal[PATH_MAX + 8];

	st = store_open(f->db, err);
	assert_non_null(st);
	/* WAL mode: the -wal file sits beside the db while it is open. */
	snprintf(wal, sizeof(wal), "%s-wal", f->db);
	assert_true(exists(wal));
	assert_int_equal(store_runs_load(st, NULL, 0, 1, &runs, err), 0);
	store_runs_free(runs, 0);
	store_close(st);
	/* Opening again leaves the schema alone. */
	st = store_open_existing(f->db, err);
	assert_non_null(st);
	store_close(st);
	assert_int_equal(raw_int(f->db, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
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

/* "name type dflt|" for each column of a table, to compare two schemas. */
static void table_shape(const char *path, const char *table, char *out, size_t len)
{
	sqlite3 *db;
	sqlite3_stmt *stmt;
	char sql[128];
	size_t used = 0;

	out[0] = '\0';
	snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)", table);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		const unsigned char *dflt = sqlite3_column_text(stmt, 4);
		int k = snprintf(out + used, len - used, "%s %s %d %s|", sqlite3_column_text(stmt, 1),
				 sqlite3_column_text(stmt, 2), sqlite3_column_int(stmt, 3),
				 dflt ? (const char *)dflt : "-");
		assert_true(k > 0 && (size_t)k < len - used);
		used += (size_t)k;
	}
	sqlite3_finalize(stmt);
	assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static void test_migrate_v1(void **state)
{
	struct fixture *f = *state;
	char err[ERRBUF_LEN] = "";
	char v1[PATH_MAX], fresh[PATH_MAX], shape1[2048], shape2[2048];
	struct run_info *runs, run;
	struct result r;
	struct store *st;
	int n;

	snprintf(v1, sizeof(v1), "%s/v1.db", f->dir);
	raw_exec(v1, v1_schema);
	assert_int_equal(raw_int(v1, "PRAGMA user_version"), 1);

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
	store_runs_free(runs, (size_t)n);

	/* The migrated file takes new results with the new columns. */
	make_run(&run, "after");
	assert_int_equal(store_run_begin(st, &run, err), 0);
	make_result(&r, "sys.null", 0);
	assert_int_equal(store_result_add(st, run.id, &r, err), 0);
	store_close(st);
	assert_int_equal(raw_int(v1, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	assert_int_equal(raw_int(v1, "SELECT count(*) FROM results WHERE interference = 0.03"), 1);

	/* A migrated database looks exactly like a fresh one. */
	snprintf(fresh, sizeof(fresh), "%s/fresh.db", f->dir);
	st = store_open(fresh, err);
	assert_non_null(st);
	store_close(st);
	static const char *const tables[] = {"hosts", "runs", "results", "samples"};
	for (size_t i = 0; i < 4; i++) {
		table_shape(v1, tables[i], shape1, sizeof(shape1));
		table_shape(fresh, tables[i], shape2, sizeof(shape2));
		assert_string_equal(shape1, shape2);
	}
}

static void test_newer_schema_refused(void **state)
{
	struct fixture *f = *state;
	char err[ERRBUF_LEN] = "", want[PATH_MAX + 128], path[PATH_MAX];
	char *before;
	size_t nb;

	snprintf(path, sizeof(path), "%s/future.db", f->dir);
	raw_exec(path, "CREATE TABLE future (x); INSERT INTO future VALUES (1); PRAGMA user_version = 99;");
	before = slurp(path, &nb);

	assert_null(store_open(path, err));
	snprintf(want, sizeof(want),
		 "cannot open db '%s': made by a newer kbench (schema 99, this kbench knows 2)", path);
	assert_string_equal(err, want);
	err[0] = '\0';
	assert_null(store_open_existing(path, err));
	assert_string_equal(err, want);

	assert_untouched(path, before, nb);
	assert_no_sidecars(path);
}

static void test_not_a_database(void **state)
{
	struct fixture *f = *state;
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
	struct fixture *f = *state;
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
	struct fixture *f = *state;
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
	struct fixture *f = *state;
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

	(void)state;
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

	if (!st)
		return -1;
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

static void test_concurrent_writers(void **state)
{
	struct fixture *f = *state;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_selectors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_db, setup, teardown),
		cmocka_unit_test_setup_teardown(test_migrate_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_newer_schema_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_a_database, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_db_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unwritable_path, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_existing_missing, setup, teardown),
		cmocka_unit_test(test_default_path),
		cmocka_unit_test_setup_teardown(test_concurrent_writers, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
