/*
 * The results database, written once against db.h's SQL connection: on
 * SQLite (db_sqlite.c) by default, on PostgreSQL (db_pg.c) for fleets.
 *
 * A run is stored as it goes: store_run_begin writes the run row, each
 * result is committed on its own (with its samples) so an interrupted run
 * keeps what it finished, and store_run_end stamps the end time.  Opening
 * checks the file before writing a single byte: a file that is not SQLite,
 * or whose schema is newer than this kbench, is refused and left exactly as
 * it was.  Readers open the file read-only and write nothing, not even
 * WAL's shared-memory file when they cannot.  Nothing here prints or
 * exits; errors go into the caller's buffer and always name the database.
 */
#include "store/store.h"

#include "store/db.h"

#include "core/catalog.h"
#include "core/err.h"
#include "core/fields.h"
#include "core/utf8.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/*
 * Long enough for two processes each committing a result per few ms, and
 * for a handful opening one new database at once.  Only waited when another
 * connection holds the lock: an uncontended open or write never sleeps.
 */
#define STORE_BUSY_MS 5000

struct store {
	struct db *db;			/* the connection (SQLite's: WAL mode, foreign keys on) */
	int busy;			/* the last failure was another connection's lock: retry */
	int readonly;			/* opened by store_open_readonly: every write refused */
	struct db_stmt *ins_result;	/* prepared once: one per result written */
	struct db_stmt *ins_result_id;	/* prepared once: one per result rewritten */
	struct db_stmt *ins_sample;	/* prepared once: one per sample written */
	struct db_stmt *ins_samples;	/* prepared once: STORE_SAMPLE_ROWS samples at a time */
	struct db_stmt *ins_value;	/* prepared once: one per result value written */
	struct db_stmt *ins_point;	/* prepared once: one per curve point written */
	struct db_stmt *ins_replica;	/* prepared once: one per replica written */
	struct db_stmt *ins_usage;	/* prepared once: one per timed copy written */
	char path[PATH_MAX];		/* for error messages */
};

/*
 * A result's parameters and side figures, in the order the benchmark gave
 * them (idx).  num is NULL for a text value, text is NULL for a number.
 * Spelt once here because both store_schema and migration 2 create it, and
 * the two must not drift apart.
 */
#define STORE_SQL_RESULT_VALUES \
	"CREATE TABLE result_values (\n" \
	"  result_id INTEGER NOT NULL REFERENCES results(id),\n" \
	"  idx INTEGER NOT NULL,\n" \
	"  key TEXT NOT NULL,\n" \
	"  num REAL,\n" \
	"  text TEXT\n" \
	");\n" \
	"CREATE INDEX result_values_result_id ON result_values(result_id);\n"

/*
 * A curve's points (mem.lat.curve), in the order measured (idx): series,
 * x (a size in bytes), the median y and its CI, and whether the point
 * missed its precision.  Spelt once for store_schema and migration 3.
 */
#define STORE_SQL_RESULT_POINTS \
	"CREATE TABLE result_points (\n" \
	"  result_id INTEGER NOT NULL REFERENCES results(id),\n" \
	"  idx INTEGER NOT NULL,\n" \
	"  series TEXT NOT NULL,\n" \
	"  x REAL NOT NULL,\n" \
	"  y REAL, lo REAL, hi REAL,\n" \
	"  noisy INTEGER NOT NULL DEFAULT 0\n" \
	");\n" \
	"CREATE INDEX result_points_result_id ON result_points(result_id);\n"

/*
 * A run's identity across databases: uuid is made once, when the run is
 * first stored, and travels with it through export and import, which is
 * how importing the same file twice adds nothing.  set_uuid groups the
 * runs of one `--runs N` (the first run's uuid).  Unique by index, not by
 * a column constraint, because ALTER TABLE cannot add one (migration 4).
 */
#define STORE_SQL_RUNS_UUID \
	"CREATE UNIQUE INDEX runs_uuid ON runs(uuid);\n"
/*
 * A run's set is found by its set_uuid (the set's number is the smallest
 * id sharing it): without this index every run listed scanned all runs,
 * and `kbench runs` over 4,687 runs took 9 s.
 */
#define STORE_SQL_RUNS_SET \
	"CREATE INDEX runs_set_uuid ON runs(set_uuid);\n"

/*
 * Issue 12: an instance is measured as replicas spread over the run, and
 * the run measures a sentinel before each.  result_replicas holds each
 * replica's own figure and the sentinel around it; sentinels the run's
 * timeline of the machine's speed.  Spelt once for store_schema and
 * migration 5.
 */
/*
 * Where a replica's ends ran (version 9): the share of its samples whose
 * ends were on more than one CPU.  Added by ALTER TABLE in a fresh
 * database too, so that it comes last as in a migrated one.
 */
#define STORE_SQL_REPLICAS_APART "ALTER TABLE result_replicas ADD COLUMN apart REAL;\n"
#define STORE_SQL_REPLICAS \
	"CREATE TABLE result_replicas (\n" \
	"  result_id INTEGER NOT NULL REFERENCES results(id),\n" \
	"  idx INTEGER NOT NULL,\n" \
	"  median REAL, ci_low REAL, ci_high REAL,\n" \
	"  n INTEGER NOT NULL,\n" \
	"  t0 REAL, t1 REAL,\n" \
	"  stop TEXT NOT NULL,\n" \
	"  sentinel_sys REAL, sentinel_user REAL\n" \
	");\n" \
	"CREATE INDEX result_replicas_result_id ON result_replicas(result_id);\n" \
	"CREATE TABLE sentinels (\n" \
	"  run_id INTEGER NOT NULL REFERENCES runs(id),\n" \
	"  idx INTEGER NOT NULL,\n" \
	"  t REAL NOT NULL,\n" \
	"  cpu INTEGER NOT NULL,\n" \
	"  sys_ns REAL, user_ns REAL\n" \
	");\n" \
	"CREATE INDEX sentinels_run_id ON sentinels(run_id);\n"

/*
 * Issue 14: what each copy of a timed job (kbench time) used, one row per
 * sample (idx is the sample's), one column per field of struct
 * result_usage; NaN ("unknown") is NULL as everywhere else.  Keyed by the
 * sample, so that no sample can have two.  Rows go with their result:
 * deleted explicitly, as the other children are (store_sql_delete_result,
 * store_sql_delete_run), and by the cascade where a connection that turned
 * foreign keys on deletes a result some other way.  Spelt once for
 * store_schema and migration 7.
 */
#define STORE_SQL_RESULT_USAGE \
	"CREATE TABLE result_usage (\n" \
	"  result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,\n" \
	"  idx INTEGER NOT NULL,\n" \
	"  copy INTEGER NOT NULL,\n" \
	"  status INTEGER NOT NULL,\n" \
	"  start REAL,\n" \
	"  user_s REAL, sys_s REAL,\n" \
	"  maxrss_kb REAL,\n" \
	"  minflt REAL, majflt REAL,\n" \
	"  nvcsw REAL, nivcsw REAL,\n" \
	"  inblock REAL, oublock REAL,\n" \
	"  orphans REAL,\n" \
	"  PRIMARY KEY (result_id, idx)\n" \
	");\n"

/*
 * The current schema, created in one go on an empty file.  interference and
 * overhead, then placement, parallel and aggregate and the columns after
 * them (to jobs), come last in `results` because a database migrated from
 * an older version gains them by ALTER TABLE, which appends; keeping the
 * same order here means a fresh and a migrated database are
 * indistinguishable.  jobs is 0 for a result of no -j sweep, as placement
 * is '' for one not between processes.  Statistics are nullable because
 * NaN (no figure, e.g. a skip) is stored as NULL; aggregate is NaN, so
 * NULL, unless the result ran more than one copy at once.  A run's pid is
 * the process that measures it: with no finish time and that process alive
 * (on the host of the run) it is being measured, which `runs delete` must
 * not pull from under it; dead, the run was interrupted.
 */
static const char store_schema[] =
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
	"  sysinfo TEXT,\n"
	"  uuid TEXT,\n"
	"  set_uuid TEXT,\n"
	"  pid INTEGER\n"
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
	"  overhead REAL DEFAULT 0,\n"
	"  placement TEXT NOT NULL DEFAULT '',\n"
	"  parallel INTEGER NOT NULL DEFAULT 1,\n"
	"  aggregate REAL,\n"
	"  drift REAL,\n"
	"  drifted INTEGER NOT NULL DEFAULT 0,\n"
	"  jobs INTEGER NOT NULL DEFAULT 0,\n"
	"  apart REAL\n"
	");\n"
	"CREATE TABLE samples (\n"
	"  result_id INTEGER NOT NULL REFERENCES results(id),\n"
	"  idx INTEGER NOT NULL,\n"
	"  value REAL,\n"
	"  t REAL,\n"
	"  cpu INTEGER,\n"
	"  steal REAL,\n"
	"  replica INTEGER\n"
	");\n"
	"CREATE INDEX results_run_id ON results(run_id);\n"
	"CREATE INDEX samples_result_id ON samples(result_id);\n"
	"CREATE INDEX runs_label ON runs(label);\n"
	STORE_SQL_RESULT_VALUES
	STORE_SQL_RESULT_POINTS
	STORE_SQL_RUNS_UUID
	STORE_SQL_REPLICAS
	STORE_SQL_REPLICAS_APART
	STORE_SQL_RESULT_USAGE
	STORE_SQL_RUNS_SET;

/*
 * Migrations, indexed by the version they start from: row v turns a
 * version v database into version v + 1.  To change the schema: bump
 * STORE_SCHEMA_VERSION, change store_schema above so a fresh database comes
 * out identical to a migrated one, and add the row here.  Old rows get the
 * defaults given: interference -1 (unknown, it was never measured) and
 * overhead 0 (version 1 subtracted none); placement '' (PLACE_NA: version 2
 * pinned nothing), parallel 1 and aggregate NULL (version 2 ran one copy),
 * and no values; version 3 had no curves, so no points; version 4 had no
 * uuids, so each run gets a new one and is a set of its own; version 5 took
 * one block of samples, so no replicas, no drift (NULL), no sentinel and
 * nothing known of where a sample ran; version 6 did not record which
 * process measured a run (pid NULL), so none of its runs reads as being
 * measured; version 7 timed no jobs, so jobs 0 (none) and no usage;
 * version 8 did not see where the ends of a benchmark between processes
 * ran, so apart NULL (unknown) for its results and replicas; version 9
 * lacked the index that finds a run's set.
 */
static const char *const store_migrations[STORE_SCHEMA_VERSION] = {
	[0] = NULL,	/* version 0 is an empty file: store_schema creates it */
	[1] = "ALTER TABLE results ADD COLUMN interference REAL DEFAULT -1;\n"
	      "ALTER TABLE results ADD COLUMN overhead REAL DEFAULT 0;\n",
	[2] = "ALTER TABLE results ADD COLUMN placement TEXT NOT NULL DEFAULT '';\n"
	      "ALTER TABLE results ADD COLUMN parallel INTEGER NOT NULL DEFAULT 1;\n"
	      "ALTER TABLE results ADD COLUMN aggregate REAL;\n"
	      STORE_SQL_RESULT_VALUES,
	[3] = STORE_SQL_RESULT_POINTS,
	[4] = "ALTER TABLE runs ADD COLUMN uuid TEXT;\n"
	      "ALTER TABLE runs ADD COLUMN set_uuid TEXT;\n"
	      "UPDATE runs SET uuid = lower(hex(randomblob(16))) WHERE uuid IS NULL;\n"
	      "UPDATE runs SET set_uuid = uuid WHERE set_uuid IS NULL;\n"
	      STORE_SQL_RUNS_UUID,
	[5] = "ALTER TABLE results ADD COLUMN drift REAL;\n"
	      "ALTER TABLE results ADD COLUMN drifted INTEGER NOT NULL DEFAULT 0;\n"
	      "ALTER TABLE samples ADD COLUMN t REAL;\n"
	      "ALTER TABLE samples ADD COLUMN cpu INTEGER;\n"
	      "ALTER TABLE samples ADD COLUMN steal REAL;\n"
	      "ALTER TABLE samples ADD COLUMN replica INTEGER;\n"
	      STORE_SQL_REPLICAS,
	[6] = "ALTER TABLE runs ADD COLUMN pid INTEGER;\n",
	[7] = "ALTER TABLE results ADD COLUMN jobs INTEGER NOT NULL DEFAULT 0;\n"
	      STORE_SQL_RESULT_USAGE,
	[8] = "ALTER TABLE results ADD COLUMN apart REAL;\n"
	      STORE_SQL_REPLICAS_APART,
	[9] = STORE_SQL_RUNS_SET,
};

/*
 * The results table's statements are made from core/fields.h's table
 * (store_sql_results): a new result row, its id made by the database
 * (RETURNING it, which both engines take); one rewritten after another
 * replica, keeping its id (the last parameter), since PostgreSQL's
 * identity column takes no NULL for a new id; and the reading of a run's.
 */
enum { STORE_SQL_INSERT, STORE_SQL_INSERT_ID, STORE_SQL_SELECT };

static const char store_sql_sample[] =
	"INSERT INTO samples (result_id, idx, value, t, cpu, steal, replica)"
	" VALUES (?, ?, ?, ?, ?, ?, ?)";
/*
 * The samples in bulk: STORE_SAMPLE_ROWS rows of store_sql_sample's
 * columns in one statement (store_sql_samples makes it), one round trip
 * to a PostgreSQL server for that many samples instead of one each: a
 * standard run's 5000 samples were 5000 of them.
 */
#define STORE_SAMPLE_COLS 7
#define STORE_SAMPLE_ROWS 64

static const char store_sql_usage[] =
	"INSERT INTO result_usage (result_id, idx, copy, status, start, user_s, sys_s, maxrss_kb,"
	" minflt, majflt, nvcsw, nivcsw, inblock, oublock, orphans)"
	" VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

/* The columns store_load_usage reads, in the order it reads them. */
static const char store_sql_load_usage[] =
	"SELECT idx, copy, status, start, user_s, sys_s, maxrss_kb, minflt, majflt, nvcsw, nivcsw,"
	" inblock, oublock, orphans FROM result_usage WHERE result_id = ? ORDER BY idx";

static const char store_sql_replica[] =
	"INSERT INTO result_replicas (result_id, idx, median, ci_low, ci_high, n, t0, t1, stop,"
	" sentinel_sys, sentinel_user, apart) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

/*
 * The children every reader loads (replicas, points, values) are read a
 * run at a time, ordered by result, not a query per result (store_rows):
 * on PostgreSQL each query is a round trip, and summary of 100 standard
 * runs made 18,000 of them.  Each starts with the result's id.
 */
static const char store_sql_load_replicas[] =
	"SELECT p.result_id, p.median, p.ci_low, p.ci_high, p.n, p.t0, p.t1, p.stop,"
	" p.sentinel_sys, p.sentinel_user, p.apart FROM result_replicas p JOIN results r"
	" ON r.id = p.result_id WHERE r.run_id = ? ORDER BY p.result_id, p.idx";

static const char store_sql_load_samples[] =
	"SELECT value, t, cpu, steal, replica FROM samples WHERE result_id = ? ORDER BY idx";

static const char store_sql_load_sentinel[] =
	"SELECT t, cpu, sys_ns, user_ns FROM sentinels WHERE run_id = ? ORDER BY idx";

static const char store_sql_value[] =
	"INSERT INTO result_values (result_id, idx, key, num, text) VALUES (?, ?, ?, ?, ?)";

static const char store_sql_point[] =
	"INSERT INTO result_points (result_id, idx, series, x, y, lo, hi, noisy)"
	" VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

static const char store_sql_load_points[] =
	"SELECT p.result_id, p.series, p.x, p.y, p.lo, p.hi, p.noisy FROM result_points p"
	" JOIN results r ON r.id = p.result_id WHERE r.run_id = ? ORDER BY p.result_id, p.idx";

/*
 * One of the results table's statements (STORE_SQL_*), its columns the
 * stored fields of field_result in their order: malloc'd, NULL without memory.
 */
static char *store_sql_results(int which)
{
	size_t len = 128, n = 0;
	char *sql;

	for (size_t k = 0; k < field_nresult; k++)
		len += field_result[k].column ? strlen(field_result[k].column) + 5 : 0;
	if (!(sql = malloc(len)))
		return NULL;
	snprintf(sql, len, which == STORE_SQL_SELECT ? "SELECT id" : "INSERT INTO results (run_id");
	for (size_t k = 0; k < field_nresult; k++)
		if (field_result[k].column) {
			strcat(strcat(sql, ", "), field_result[k].column);
			n++;
		}
	if (which == STORE_SQL_SELECT) {
		strcat(sql, " FROM results WHERE run_id = ? ORDER BY id");
		return sql;
	}
	strcat(sql, which == STORE_SQL_INSERT_ID ? ", id) VALUES (?" : ") VALUES (?");
	for (size_t k = 0; k < n + (which == STORE_SQL_INSERT_ID); k++)
		strcat(sql, ", ?");
	strcat(sql, ") RETURNING id");
	return sql;
}

/* A statement of store_sql_results into *q: 0, or -1 (no memory: a message of its own). */
static int store_prepare_results(struct store *st, int which, struct db_stmt **q, char *err)
{
	char *sql = store_sql_results(which);
	int rc = sql ? (*q = db_prepare(st->db, sql)) != NULL ? 0 : -1 : -1;

	if (rc < 0)
		errbuf_set(err, "cannot open db '%s': %s", st->path, sql ? db_errmsg(st->db)
									 : "out of memory");
	free(sql);
	return rc;
}

/* A run's results' values, the columns in the order store_load_values reads them. */
static const char store_sql_load_values[] =
	"SELECT v.result_id, v.key, v.num, v.text FROM result_values v JOIN results r"
	" ON r.id = v.result_id WHERE r.run_id = ? ORDER BY v.result_id, v.idx";

/* strerror starts with a capital; kbench's messages do not (err_errno_text). */
static void store_errno_text(int errnum, char *buf, size_t len)
{
	err_errno_text(errnum, buf, len);
}

int store_default_path(const char *explicit_path, char *buf, size_t len, char *err)
{
	const char *env;
	int n;

	if (explicit_path && *explicit_path)
		n = snprintf(buf, len, "%s", explicit_path);
	else if ((env = getenv("KBENCH_DB")) && *env)
		n = snprintf(buf, len, "%s", env);
	/* The XDG spec says a relative $XDG_DATA_HOME is invalid and to be ignored. */
	else if ((env = getenv("XDG_DATA_HOME")) && env[0] == '/')
		n = snprintf(buf, len, "%s/kbench/results.db", env);
	else if ((env = getenv("HOME")) && *env)
		n = snprintf(buf, len, "%s/.local/share/kbench/results.db", env);
	else {
		errbuf_set(err, "cannot find a place for the db: $HOME is not set (use --db or $KBENCH_DB)");
		return -1;
	}
	if (n < 0 || (size_t)n >= len) {
		errbuf_set(err, "db path is too long (%d bytes)", n);
		return -1;
	}
	return 0;
}

/* mkdir -p of the directory holding `path`; 0 or -1 with err filled. */
static int store_mkdirs(const char *path, char *err)
{
	char dir[PATH_MAX], why[128];
	char *slash;
	struct stat sb;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;	/* the current directory or / itself */
	*slash = '\0';
	for (char *p = dir + 1;; p++) {
		int last = *p == '\0';
		if (*p != '/' && !last)
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) != 0) {
			int e = errno;
			/* EEXIST says nothing about what exists: a file cannot hold the db. */
			if (e == EEXIST && stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode))
				e = ENOTDIR;
			if (e != EEXIST) {
				store_errno_text(e, why, sizeof(why));
				errbuf_set(err, "cannot open db '%s': cannot create directory '%s': %s",
					   path, dir, why);
				return -1;
			}
		}
		if (last)
			return 0;
		*p = '/';
	}
}

/* A statement of st's connection into *q: 0, or -1 with the error left in the connection. */
static int store_prepare(struct store *st, const char *sql, struct db_stmt **q)
{
	*q = db_prepare(st->db, sql);
	return *q ? 0 : -1;
}

/*
 * The connection's last failure into err as "WHAT db 'P': msg", and
 * whether it was busy into st->busy, for store_retry: -1.
 */
static int store_failed(struct store *st, const char *what, char *err)
{
	st->busy = db_busy(st->db);
	errbuf_set(err, "%s db '%s': %s", what, st->path, db_errmsg(st->db));
	return -1;
}

/* Run SQL with no result rows; 0, or -1 with err filled (store_failed). */
static int store_exec(struct store *st, const char *sql, const char *what, char *err)
{
	return db_exec(st->db, sql) == 0 ? 0 : store_failed(st, what, err);
}

/* A transaction of kind (db.h's DB_TX_*): as store_exec. */
static int store_tx(struct store *st, int kind, const char *what, char *err)
{
	return db_begin(st->db, kind) == 0 ? 0 : store_failed(st, what, err);
}

/* The end of one: as store_exec. */
static int store_commit(struct store *st, const char *what, char *err)
{
	return db_commit(st->db) == 0 ? 0 : store_failed(st, what, err);
}

/* Schema text, in the engine's types: as store_exec. */
static int store_ddl(struct store *st, const char *sql, const char *what, char *err)
{
	return db_ddl(st->db, sql) == 0 ? 0 : store_failed(st, what, err);
}

/*
 * Ending a failed transaction.  Its error is not reported: the caller
 * already has the one that matters, and SQLite rolls back on its own when
 * ROLLBACK cannot (e.g. after an I/O error).
 */
static void store_rollback(struct store *st)
{
	db_rollback(st->db);
}

/* Did the last failure mean "another connection holds the lock, try later"? */
static int store_busy(const struct store *st)
{
	return st->busy;
}

/* One step of opening, retried whole by store_retry: 0, or -1 with err and st->rc set. */
typedef int store_step_fn(struct store *st, void *arg, char *err);

/*
 * Run a step of opening (reading the version, switching to WAL, creating or
 * migrating the schema) again while it fails busy, for up to STORE_BUSY_MS.
 * The busy handler is not enough here: where waiting could deadlock, SQLite
 * returns SQLITE_BUSY at once without calling it -- a connection that holds
 * a read lock and asks to write, as switching a new file to WAL does -- and
 * two kbenches creating one database got "database is locked" in up to
 * half the tries (9 pairs in 20 in issue 13).  The pause doubles from 1 ms
 * to 32 ms with a random part, so that two processes fall out of step; an
 * uncontended open never sleeps.
 */
static int store_retry(struct store *st, store_step_fn *step, void *arg, char *err)
{
	struct timespec t0, now, pause;
	unsigned seed;
	long ms = 1, waited;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	seed = (unsigned)getpid() ^ (unsigned)t0.tv_nsec;
	for (;;) {
		st->busy = 0;
		if (step(st, arg, err) == 0)
			return 0;
		if (!store_busy(st) || db_stopped())
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &now);
		waited = (long)(now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
		if (waited >= STORE_BUSY_MS)
			return -1;
		pause.tv_sec = 0;
		pause.tv_nsec = (ms + rand_r(&seed) % ms) * 1000000L;
		(void)nanosleep(&pause, NULL);	/* a signal cuts it short: no harm */
		if (ms < 32)
			ms *= 2;
	}
}

/*
 * Bring the schema to STORE_SCHEMA_VERSION under a write lock, so two
 * kbenches opening the same new file at once cannot both create it.  The
 * version is read again inside the transaction for the same reason: the
 * one that waited finds the schema made and does nothing.
 */
static int store_migrate(struct store *st, void *arg, char *err)
{
	long long ver, ntables;
	char buf[96];

	(void)arg;
	if (store_tx(st, DB_TX_SCHEMA, "cannot open", err) < 0)
		return -1;
	if (db_version(st->db, &ver, &ntables) < 0) {
		store_failed(st, "cannot open", err);
		goto fail;
	}
	if (ver == 0) {
		/* Somebody else's database: writing our tables into it would be rude. */
		if (ntables != 0) {
			errbuf_set(err, "cannot open db '%s': not a kbench database (no schema version)",
				   st->path);
			goto fail;
		}
		if (store_ddl(st, store_schema, "cannot create schema in", err) < 0)
			goto fail;
	} else if (ver > STORE_SCHEMA_VERSION || ver < 0) {
		/* Changed since store_open_flags looked, by another kbench. */
		errbuf_set(err, "cannot open db '%s': made by a newer kbench (schema %lld, this kbench knows %d)",
			   st->path, ver, STORE_SCHEMA_VERSION);
		goto fail;
	} else {
		for (long long v = ver; v < STORE_SCHEMA_VERSION; v++) {
			snprintf(buf, sizeof(buf), "cannot migrate (schema %lld to %lld)", v, v + 1);
			if (store_ddl(st, store_migrations[v], buf, err) < 0)
				goto fail;
		}
	}
	if (ver != STORE_SCHEMA_VERSION && db_set_version(st->db, STORE_SCHEMA_VERSION) < 0) {
		store_failed(st, "cannot set schema version of", err);
		goto fail;
	}
	if (store_commit(st, "cannot open", err) < 0)
		goto fail;
	return 0;
fail:
	store_rollback(st);	/* leaves st->busy, of the failure, alone */
	return -1;
}

/* A step for store_retry: the file into WAL mode, so readers and writers do not block each other. */
static int store_wal(struct store *st, void *arg, char *err)
{
	(void)arg;
	return store_exec(st, "PRAGMA journal_mode = WAL", "cannot open", err);
}

/* What opening reads before it writes anything. */
struct store_probe {
	long long ver;		/* PRAGMA user_version: 0 for a new (or foreign) file */
	long long ntables;	/* objects in its schema: 0 in a new file */
};

/*
 * A step for store_retry: read the version and count the schema's objects,
 * from one snapshot (db_version); the first read of the file: on text it
 * fails with "file is not a database".
 */
static int store_probe_step(struct store *st, void *arg, char *err)
{
	struct store_probe *pr = arg;

	return db_version(st->db, &pr->ver, &pr->ntables) == 0 ? 0
								: store_failed(st, "cannot open", err);
}

/* The refusals every opener shares: a version kbench never wrote. */
static int store_probe_check(const struct store *st, const struct store_probe *pr, char *err)
{
	if (pr->ver > STORE_SCHEMA_VERSION) {
		errbuf_set(err, "cannot open db '%s': made by a newer kbench (schema %lld, this kbench knows %d)",
			   st->path, pr->ver, STORE_SCHEMA_VERSION);
		return -1;
	}
	/* kbench never writes a negative version: somebody else's file. */
	if (pr->ver < 0) {
		errbuf_set(err, "cannot open db '%s': not a kbench database (schema %lld)", st->path,
			   pr->ver);
		return -1;
	}
	return 0;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	db_finalize(st->ins_result);
	db_finalize(st->ins_result_id);
	db_finalize(st->ins_sample);
	db_finalize(st->ins_samples);
	db_finalize(st->ins_value);
	db_finalize(st->ins_point);
	db_finalize(st->ins_replica);
	db_finalize(st->ins_usage);
	/* Statements are finalized above, so close cannot be left busy. */
	db_close(st->db);
	free(st);
}

/* A connection to path with the busy timeout set, or NULL with err filled. */
static struct store *store_connect(const char *path, const char *uri, int flags, char *err)
{
	struct store *st;
	char why[256];

	st = calloc(1, sizeof(*st));
	if (!st) {
		errbuf_set(err, "cannot open db '%s': out of memory", path);
		return NULL;
	}
	if (snprintf(st->path, sizeof(st->path), "%s", path) >= (int)sizeof(st->path)) {
		errbuf_set(err, "cannot open db '%s': path too long", path);
		free(st);
		return NULL;
	}
	st->db = db_sqlite_open(uri ? uri : path, flags | (uri ? DB_SQLITE_URI : 0), STORE_BUSY_MS,
				why);
	if (!st->db) {
		errbuf_set(err, "cannot open db '%s': %s", path, why);
		free(st);
		return NULL;
	}
	return st;
}

/* store_sql_sample with STORE_SAMPLE_ROWS rows of parameters: malloc'd, NULL without memory. */
static char *store_sql_samples(void)
{
	const char *row = ", (?, ?, ?, ?, ?, ?, ?)";
	size_t len = strlen(store_sql_sample) + STORE_SAMPLE_ROWS * strlen(row) + 1;
	char *sql = malloc(len);

	if (!sql)
		return NULL;
	snprintf(sql, len, "%s", store_sql_sample);
	for (int k = 1; k < STORE_SAMPLE_ROWS; k++)
		strcat(sql, row);
	return sql;
}

/* The statements every write uses, prepared once: 0, or -1 with err filled. */
static int store_prepare_writes(struct store *st, char *err)
{
	char *bulk = store_sql_samples();
	int made = bulk != NULL, rc = made ? store_prepare(st, bulk, &st->ins_samples) : -1;

	free(bulk);
	if (rc != 0) {
		errbuf_set(err, "cannot open db '%s': %s", st->path,
			   made ? db_errmsg(st->db) : "out of memory");
		return -1;
	}
	if (store_prepare_results(st, STORE_SQL_INSERT, &st->ins_result, err) < 0 ||
	    store_prepare_results(st, STORE_SQL_INSERT_ID, &st->ins_result_id, err) < 0)
		return -1;
	if (store_prepare(st, store_sql_sample, &st->ins_sample) != 0 ||
	    store_prepare(st, store_sql_value, &st->ins_value) != 0 ||
	    store_prepare(st, store_sql_point, &st->ins_point) != 0 ||
	    store_prepare(st, store_sql_replica, &st->ins_replica) != 0 ||
	    store_prepare(st, store_sql_usage, &st->ins_usage) != 0) {
		errbuf_set(err, "cannot open db '%s': %s", st->path, db_errmsg(st->db));
		return -1;
	}
	return 0;
}

void store_shown(const char *uri, char *buf, size_t len)
{
	const char *auth = strstr(uri, "://"), *at, *colon, *query;
	int end;

	if (!store_is_uri(uri)) {
		snprintf(buf, len, "%s", uri);
		return;
	}
	auth = auth ? auth + 3 : uri;
	query = strchr(auth, '?');
	end = query ? (int)(query - uri) : (int)strlen(uri);
	at = memchr(auth, '@', (size_t)(uri + end - auth));
	colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
	/* The user part ends at the first '/' after it: an '@' past that is the path's. */
	if (at && colon && !memchr(auth, '/', (size_t)(at - auth)))
		snprintf(buf, len, "%.*s%.*s%s", (int)(colon - uri), uri, (int)(uri + end - at), at,
			 query ? "?..." : "");
	else
		snprintf(buf, len, "%.*s%s", end, uri, query ? "?..." : "");
}

/*
 * The shared half of store_open and store_open_existing.  Order matters:
 * everything that could write (WAL, the schema) comes after user_version
 * has been read, which is what proves the file is SQLite and not too new.
 * A database already at this version is not locked for writing to find that
 * out, so that writers opening it at once do not queue on each other.
 */
static struct store *store_open_flags(const char *path, int flags, char *err)
{
	struct store_probe pr;
	struct store *st;

	st = store_connect(path, NULL, flags, err);
	if (!st)
		return NULL;
	if (store_retry(st, store_probe_step, &pr, err) < 0 || store_probe_check(st, &pr, err) < 0)
		goto fail;
	if (db_sqlite_readonly(st->db)) {
		errbuf_set(err, "cannot open db '%s': read-only", path);
		goto fail;
	}
	/* Somebody else's database: checked here too, before WAL rewrites the header. */
	if (pr.ver == 0 && pr.ntables != 0) {
		errbuf_set(err, "cannot open db '%s': not a kbench database (no schema version)", path);
		goto fail;
	}
	if (store_exec(st, "PRAGMA foreign_keys = ON", "cannot open", err) < 0 ||
	    store_retry(st, store_wal, NULL, err) < 0 ||
	    (pr.ver != STORE_SCHEMA_VERSION && store_retry(st, store_migrate, NULL, err) < 0))
		goto fail;
	if (store_prepare_writes(st, err) < 0)
		goto fail;
	return st;
fail:
	store_close(st);
	return NULL;
}

/*
 * A PostgreSQL server's database, by its connection URI: opened to write
 * (creating kbench's schema in an empty database, under the advisory lock
 * db_begin takes, so that two hosts starting at once do not race), to
 * write an existing kbench database (existing), or to read one (readonly:
 * every write refused).  The URI's password is not repeated in messages.
 */
static struct store *store_open_pg(const char *uri, int existing, int readonly, char *err)
{
	struct store_probe pr;
	struct store *st = calloc(1, sizeof(*st));
	char why[256];

	if (!st) {
		char shown[PATH_MAX];

		store_shown(uri, shown, sizeof(shown));
		errbuf_set(err, "cannot open db '%s': out of memory", shown);
		return NULL;
	}
	store_shown(uri, st->path, sizeof(st->path));
	st->db = db_pg_open(uri, why);
	if (!st->db) {
		errbuf_set(err, "cannot open db '%s': %s", st->path, why);
		free(st);
		return NULL;
	}
	if (store_probe_step(st, &pr, err) < 0 || store_probe_check(st, &pr, err) < 0)
		goto fail;
	if (pr.ver == 0 && pr.ntables != 0) {
		errbuf_set(err, "cannot open db '%s': not a kbench database (it has tables, and no "
			   "kbench schema)", st->path);
		goto fail;
	}
	if (pr.ver == 0 && (existing || readonly)) {
		errbuf_set(err, "cannot open db '%s': empty database, not a kbench database", st->path);
		goto fail;
	}
	if ((pr.ver != STORE_SCHEMA_VERSION && store_retry(st, store_migrate, NULL, err) < 0) ||
	    (!readonly && store_prepare_writes(st, err) < 0))
		goto fail;
	st->readonly = readonly;
	return st;
fail:
	store_close(st);
	return NULL;
}

int store_is_uri(const char *name)
{
	return strncmp(name, "postgresql://", 13) == 0 || strncmp(name, "postgres://", 11) == 0;
}

struct store *store_open(const char *path, char *err)
{
	if (store_is_uri(path))
		return store_open_pg(path, 0, 0, err);
	if (store_mkdirs(path, err) < 0)
		return NULL;
	return store_open_flags(path, DB_SQLITE_READWRITE | DB_SQLITE_CREATE, err);
}

/*
 * An existing database, for the openers that must not create one: 0, or -1
 * with err filled when there is no such file or it is empty.  A zero-byte
 * file is what SQLite takes for a new database and would write the schema
 * into, but whoever named it to a reader meant some other file.
 */
static int store_existing(const char *path, char *err)
{
	struct stat sb;
	char why[128];

	if (stat(path, &sb) != 0) {
		if (errno == ENOENT)
			snprintf(why, sizeof(why), "no such file");
		else
			store_errno_text(errno, why, sizeof(why));
		errbuf_set(err, "cannot open db '%s': %s", path, why);
		return -1;
	}
	if (S_ISREG(sb.st_mode) && sb.st_size == 0) {
		errbuf_set(err, "cannot open db '%s': empty file, not a kbench database", path);
		return -1;
	}
	return 0;
}

struct store *store_open_existing(const char *path, char *err)
{
	if (store_is_uri(path))
		return store_open_pg(path, 1, 0, err);
	if (store_existing(path, err) < 0)
		return NULL;
	/* Without DB_SQLITE_CREATE a file removed since the stat is not recreated. */
	return store_open_flags(path, DB_SQLITE_READWRITE, err);
}

/*
 * A step for store_retry: copy the database into memory and migrate the
 * copy, for a reader of an older schema that cannot write the file (the
 * loaders ask for the current columns).  A writer's next open migrates the
 * file itself.
 */
static int store_in_memory(struct store *st, void *arg, char *err)
{
	char why[256];
	struct db *mem = db_sqlite_open(":memory:", DB_SQLITE_READWRITE | DB_SQLITE_CREATE,
					STORE_BUSY_MS, why);

	(void)arg;
	if (mem && db_sqlite_copy(mem, st->db) < 0) {
		snprintf(why, sizeof(why), "%s", db_errmsg(mem));
		db_close(mem);
		mem = NULL;
	}
	if (!mem) {
		errbuf_set(err, "cannot open db '%s': cannot copy it into memory to read its older "
			   "schema: %s", st->path, why);
		return -1;
	}
	db_close(st->db);
	st->db = mem;
	return store_migrate(st, NULL, err);
}

/* path's -wal file holds changes not yet in the database itself. */
static int store_wal_pending(const char *path)
{
	char wal[PATH_MAX + 8];
	struct stat sb;

	snprintf(wal, sizeof(wal), "%s-wal", path);
	return stat(wal, &sb) == 0 && sb.st_size > 0;
}

/*
 * "file:PATH?immutable=1": the file read alone, without locks or WAL's
 * -shm.  Every byte but the unreserved ones is %-escaped, so that a path
 * holding '?' or '#' stays one path.
 */
static int store_immutable_uri(const char *path, char *buf, size_t len)
{
	size_t n = 0;

	n += (size_t)snprintf(buf, len, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p && n + 4 < len; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/._-~", *p))
			buf[n++] = (char)*p;
		else
			n += (size_t)snprintf(buf + n, len - n, "%%%02X", *p);
	}
	if (n + sizeof("?immutable=1") > len)
		return -1;
	snprintf(buf + n, len - n, "?immutable=1");
	return 0;
}

/*
 * Whether this process may write path and the directory holding it, where
 * SQLite makes the -wal and the -shm.
 */
static int store_may_write(const char *path)
{
	char dir[PATH_MAX];
	char *slash;

	if (access(path, W_OK) != 0)
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';	/* "/x.db" is in "/" */
	return access(dir, W_OK) == 0;
}

struct store *store_open_readonly(const char *path, char *err)
{
	struct store_probe pr;
	struct store *st;
	char uri[3 * PATH_MAX + 32];
	int rw;

	if (store_is_uri(path))
		return store_open_pg(path, 1, 1, err);
	if (store_existing(path, err) < 0)
		return NULL;
	/*
	 * Where the file and its directory may be written, an ordinary
	 * connection that only reads: the last one to close checkpoints and
	 * removes the -wal and the -shm, which a read-only one leaves behind,
	 * and an older schema is migrated for good, so that the uuids it gives
	 * old runs stay the same.  Elsewhere read-only (SQLITE_OPEN_READONLY), which needs
	 * no write access at all.
	 */
	rw = store_may_write(path);
	st = store_connect(path, NULL, rw ? DB_SQLITE_READWRITE : DB_SQLITE_READONLY, err);
	if (!st)
		return NULL;
	if (store_retry(st, store_probe_step, &pr, err) < 0) {
		int shm = db_sqlite_cantwrite(st->db);

		/*
		 * A WAL database whose -shm cannot be made (a directory we may
		 * not write): nobody has it open, or the -shm would be there, so
		 * the file alone is the whole database -- unless a -wal left by
		 * a crash holds changes that only the -shm could make sense of.
		 */
		if (rw || !shm)
			goto fail;
		if (store_wal_pending(path)) {
			errbuf_set(err, "cannot open db '%s': its write-ahead log '%s-wal' holds changes, "
				   "which cannot be read without write access to its directory",
				   path, path);
			goto fail;
		}
		store_close(st);
		if (store_immutable_uri(path, uri, sizeof(uri)) < 0) {
			errbuf_set(err, "cannot open db '%s': path too long", path);
			return NULL;
		}
		st = store_connect(path, uri, DB_SQLITE_READONLY, err);
		if (!st)
			return NULL;
		if (store_retry(st, store_probe_step, &pr, err) < 0)
			goto fail;
	}
	if (store_probe_check(st, &pr, err) < 0)
		goto fail;
	if (pr.ver == 0) {
		errbuf_set(err, pr.ntables ? "cannot open db '%s': not a kbench database (no schema version)"
					   : "cannot open db '%s': empty database, not a kbench database",
			   path);
		goto fail;
	}
	if (pr.ver < STORE_SCHEMA_VERSION &&
	    store_retry(st, rw ? store_migrate : store_in_memory, NULL, err) < 0)
		goto fail;
	st->readonly = 1;
	return st;
fail:
	store_close(st);
	return NULL;
}

/*
 * Writes are refused on a store opened to read: its copy in memory (an
 * older schema) would take them and lose them without a word.
 */
static int store_writable(const struct store *st, char *err)
{
	if (!st->readonly)
		return 0;
	errbuf_set(err, "cannot write to db '%s': it was opened to be read only", st->path);
	return -1;
}

/* The current time as ISO 8601 UTC, e.g. 2026-11-30T13:45:02Z. */
static void store_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

/* NaN means "no figure", stored as NULL (db.h). */
static int store_bind_real(struct db_stmt *stmt, int i, double v)
{
	return db_bind_real(stmt, i, v);
}

static double store_column_real(struct db_stmt *stmt, int i)
{
	return db_column_real(stmt, i);
}

static int store_bind_text(struct db_stmt *stmt, int i, const char *s)
{
	return db_bind_text(stmt, i, s);
}

/* Copy a text column into a fixed field, truncating; NULL becomes "". */
static void store_column_copy(struct db_stmt *stmt, int i, char *dst, size_t len)
{
	const char *s = db_column_text(stmt, i);

	snprintf(dst, len, "%s", s ? s : "");
}

/* Step a statement that returns no rows, then make it reusable. */
static int store_step_done(struct db_stmt *stmt)
{
	int rc = db_step(stmt);

	/* reset repeats step's error, already in hand; clearing bindings cannot fail. */
	db_reset(stmt);
	return rc == DB_DONE ? 0 : -1;
}

/*
 * Step an INSERT ... RETURNING id: the new row's id into *id, and the
 * statement reusable.  0, or -1 with the error left in the connection.
 */
static int store_step_id(struct db_stmt *stmt, int64_t *id)
{
	int rc = db_step(stmt);

	if (rc == DB_ROW)
		*id = db_column_int64(stmt, 0);
	db_reset(stmt);
	return rc == DB_ROW ? 0 : -1;
}

/*
 * A new run's uuid, 32 hex digits from the OS's random bytes, made by
 * kbench whichever engine stores it.  0, or -1 (the message is the
 * connection's last, so this one says nothing: /dev/urandom is always
 * there where kbench runs).
 */
static int store_uuid(char *buf, size_t len)
{
	unsigned char b[16];
	FILE *f = fopen("/dev/urandom", "rb");
	size_t got = f ? fread(b, 1, sizeof(b), f) : 0;

	if (f)
		fclose(f);
	if (got != sizeof(b) || len < 2 * sizeof(b) + 1)
		return -1;
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(buf + 2 * i, len - 2 * i, "%02x", b[i]);
	return 0;
}

/*
 * Insert the host (if new) and the run row, inside the caller's
 * transaction; sets run->id.  A run without a uuid gets a new one
 * (store_uuid), and a run without a set is a set of its own.  pid is the
 * process measuring it, 0 for one imported.  0, or -1 with the error left
 * in the connection.
 */
static int store_run_insert(struct store *st, struct run_info *run, long long pid)
{
	struct db_stmt *q = NULL;
	int64_t host_id;

	if (!run->uuid[0] && store_uuid(run->uuid, sizeof(run->uuid)) < 0)
		goto fail;
	if (!run->set_uuid[0])
		snprintf(run->set_uuid, sizeof(run->set_uuid), "%s", run->uuid);
	/* Insert-or-ignore then select: the same host and OS always get the same id. */
	if (store_prepare(st, "INSERT INTO hosts (hostname, os) VALUES (?, ?) ON CONFLICT DO NOTHING",
			  &q) != 0 ||
	    store_bind_text(q, 1, run->host) != 0 ||
	    store_bind_text(q, 2, run->os) != 0 ||
	    store_step_done(q) < 0)
		goto fail;
	db_finalize(q);
	if (store_prepare(st, "SELECT id FROM hosts WHERE hostname = ? AND os = ?", &q) != 0 ||
	    store_bind_text(q, 1, run->host) != 0 ||
	    store_bind_text(q, 2, run->os) != 0 ||
	    db_step(q) != DB_ROW)
		goto fail;
	host_id = db_column_int64(q, 0);
	db_finalize(q);
	if (store_prepare(st, "INSERT INTO runs (host_id, label, started, finished, os, mhz,"
			  " sysinfo, uuid, set_uuid, pid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
			  " RETURNING id", &q) != 0 ||
	    db_bind_int64(q, 1, host_id) != 0 ||
	    store_bind_text(q, 2, run->label) != 0 ||
	    store_bind_text(q, 3, run->started) != 0 ||
	    (run->finished[0] ? store_bind_text(q, 4, run->finished)
			      : db_bind_null(q, 4)) != 0 ||
	    store_bind_text(q, 5, run->os) != 0 ||
	    /* 0 is "not measured" in a run_info, NULL in the table. */
	    store_bind_real(q, 6, run->mhz > 0 ? run->mhz : (double)NAN) != 0 ||
	    (run->sysinfo_json ? store_bind_text(q, 7, run->sysinfo_json)
			       : db_bind_null(q, 7)) != 0 ||
	    store_bind_text(q, 8, run->uuid) != 0 ||
	    store_bind_text(q, 9, run->set_uuid) != 0 ||
	    (pid > 0 ? db_bind_int64(q, 10, pid) : db_bind_null(q, 10)) != 0 ||
	    store_step_id(q, &run->id) < 0)
		goto fail;
	db_finalize(q);
	return 0;
fail:
	db_finalize(q);
	return -1;
}

int store_run_begin(struct store *st, struct run_info *run, char *err)
{
	if (store_writable(st, err) < 0)
		return -1;
	if (!run->started[0])
		store_now(run->started, sizeof(run->started));
	if (store_tx(st, DB_TX_WRITE, "cannot start run in", err) < 0)
		return -1;
	if (store_run_insert(st, run, (long long)getpid()) < 0) {
		errbuf_set(err, "cannot start run in db '%s': %s", st->path, db_errmsg(st->db));
		goto fail;
	}
	if (store_commit(st, "cannot start run in", err) < 0)
		goto fail;
	return 0;
fail:
	store_rollback(st);
	run->id = 0;
	return -1;
}

/*
 * After a write for run_id failed: whether the run is gone, deleted by
 * `runs delete --force` while it was measured.  SQLite would only call that
 * a foreign key failure, which tells the user nothing.
 */
static int store_run_gone(struct store *st, int64_t run_id)
{
	struct db_stmt *q;
	int rc;

	if (store_prepare(st, "SELECT 1 FROM runs WHERE id = ?", &q) != 0)
		return 0;
	rc = db_bind_int64(q, 1, run_id) == 0 ? db_step(q) : -1;
	db_finalize(q);
	return rc == DB_DONE;
}

/* The error of a write to a run that store_run_gone found deleted: "cannot WHAT db 'P': ...". */
static void store_gone_error(struct store *st, int64_t run_id, const char *what, char *err)
{
	errbuf_set(err, "cannot %s db '%s': run %lld was deleted while it was being measured",
		   what, st->path, (long long)run_id);
}

/* The same for a result: its id named, as the other errors of adding one do. */
static void store_result_gone(struct store *st, int64_t run_id, const struct result *r, char *err)
{
	errbuf_set(err, "cannot add result '%s' to db '%s': run %lld was deleted while it was "
		   "being measured", r->id, st->path, (long long)run_id);
}

/* Refused when written as they would be when read back: a row that cannot load is lost. */
static int store_result_check(struct store *st, const struct result *r, char *err)
{
	if (r->nvalues > BENCH_MAX_VALUES) {
		errbuf_set(err, "cannot add result '%s' to db '%s': %zu values, more than %d",
			   r->id, st->path, r->nvalues, BENCH_MAX_VALUES);
		return -1;
	}
	if (r->npoints > BENCH_MAX_POINTS) {
		errbuf_set(err, "cannot add result '%s' to db '%s': %zu points, more than %d",
			   r->id, st->path, r->npoints, BENCH_MAX_POINTS);
		return -1;
	}
	if (r->parallel < 1) {
		errbuf_set(err, "cannot add result '%s' to db '%s': parallel %d is below 1",
			   r->id, st->path, r->parallel);
		return -1;
	}
	if (r->jobs < 0) {
		errbuf_set(err, "cannot add result '%s' to db '%s': jobs %d is below 0",
			   r->id, st->path, r->jobs);
		return -1;
	}
	/* Each usage row is keyed by its sample: without samples it would load as none. */
	if (r->usage && !r->samples && r->n > 0) {
		errbuf_set(err, "cannot add result '%s' to db '%s': usage without samples",
			   r->id, st->path);
		return -1;
	}
	for (size_t i = 0; r->usage && i < r->n; i++)
		if (r->usage[i].copy < 1) {
			errbuf_set(err, "cannot add result '%s' to db '%s': usage %zu has copy %d, "
				   "below 1", r->id, st->path, i + 1, r->usage[i].copy);
			return -1;
		}
	return 0;
}

/*
 * r's stored fields (field_result's with a column) as the parameters from
 * the first'th on, in the table's order, as store_sql_results lists their
 * columns; *next is the parameter after them.  0, or -1.
 */
static int store_bind_fields(struct db_stmt *s, int first, const struct result *r, int *next)
{
	int i = first;

	for (size_t k = 0; k < field_nresult; k++) {
		const struct field *f = &field_result[k];
		const char *p = (const char *)r + f->off;
		int rc = 0;

		if (!f->column)
			continue;
		switch (f->type) {
		case FIELD_TEXT:
			rc = (f->flags & FIELD_EMPTY_NONE) && !p[0] ? db_bind_null(s, i)
								     : store_bind_text(s, i, p);
			break;
		case FIELD_REAL:
			rc = store_bind_real(s, i, *(const double *)(const void *)p);
			break;
		case FIELD_SIZE:
			rc = db_bind_int64(s, i, (int64_t)*(const size_t *)(const void *)p);
			break;
		case FIELD_U64:
			/* SQL has no unsigned type; the bits survive the round trip. */
			rc = db_bind_int64(s, i, (int64_t)*(const uint64_t *)(const void *)p);
			break;
		case FIELD_INT:
			rc = db_bind_int64(s, i, *(const int *)(const void *)p);
			break;
		case FIELD_BOOL:
			rc = db_bind_int64(s, i, *(const int *)(const void *)p != 0);
			break;
		case FIELD_BETTER:
			rc = store_bind_text(s, i, bench_better_name(r->better));
			break;
		case FIELD_STATUS:
			rc = store_bind_text(s, i, result_status_name(r->status));
			break;
		case FIELD_STOP:
			rc = store_bind_text(s, i, result_stop_name(r->stop));
			break;
		case FIELD_PLACE:
			rc = store_bind_text(s, i, place_name(r->placement));
			break;
		}
		if (rc != 0)
			return -1;
		i++;
	}
	*next = i;
	return 0;
}

/*
 * Sample i of r as the STORE_SAMPLE_COLS parameters after the first base
 * of a statement of store_sql_samples' rows; where it ran unbound (NULL)
 * when the result does not say.  0, or -1.
 */
static int store_bind_sample(struct db_stmt *ss, int base, int64_t result_id,
			     const struct result *r, size_t i)
{
	const struct result_sample *w = r->where ? &r->where[i] : NULL;

	if (db_bind_int64(ss, base + 1, result_id) != 0 ||
	    db_bind_int64(ss, base + 2, (int64_t)i) != 0 ||
	    store_bind_real(ss, base + 3, r->samples[i]) != 0)
		return -1;
	if (w && (store_bind_real(ss, base + 4, w->t) != 0 ||
		  db_bind_int64(ss, base + 5, w->cpu) != 0 ||
		  store_bind_real(ss, base + 6, w->steal_ns) != 0 ||
		  db_bind_int64(ss, base + 7, w->replica) != 0))
		return -1;
	return 0;
}

/*
 * Insert one result with its values, points and samples, inside the
 * caller's transaction.  0, or -1 with the SQLite error left in the
 * connection and every prepared statement reset.
 */
static int store_result_insert(struct store *st, int64_t run_id, const struct result *r,
			       int64_t *id)
{
	struct db_stmt *s = id && *id ? st->ins_result_id : st->ins_result, *sv = st->ins_value;
	int64_t result_id;
	int next;

	if (db_bind_int64(s, 1, run_id) != 0 || store_bind_fields(s, 2, r, &next) < 0 ||
	    (id && *id && db_bind_int64(s, next, *id) != 0) ||
	    store_step_id(s, &result_id) < 0)
		goto fail;
	if (id)
		*id = result_id;
	for (size_t i = 0; i < r->nvalues; i++) {
		const struct bench_value *v = &r->values[i];

		if (db_bind_int64(sv, 1, result_id) != 0 ||
		    db_bind_int64(sv, 2, (int64_t)i) != 0 ||
		    store_bind_text(sv, 3, v->key) != 0 ||
		    store_bind_real(sv, 4, v->num) != 0 ||
		    (v->text[0] ? store_bind_text(sv, 5, v->text)
				: db_bind_null(sv, 5)) != 0 ||
		    store_step_done(sv) < 0)
			goto fail;
	}
	for (size_t i = 0; r->points && i < r->npoints; i++) {
		const struct result_point *p = &r->points[i];
		struct db_stmt *sp = st->ins_point;

		if (db_bind_int64(sp, 1, result_id) != 0 ||
		    db_bind_int64(sp, 2, (int64_t)i) != 0 ||
		    store_bind_text(sp, 3, p->series) != 0 ||
		    store_bind_real(sp, 4, p->x) != 0 ||
		    store_bind_real(sp, 5, p->y) != 0 ||
		    store_bind_real(sp, 6, p->lo) != 0 ||
		    store_bind_real(sp, 7, p->hi) != 0 ||
		    db_bind_int64(sp, 8, p->noisy != 0) != 0 ||
		    store_step_done(sp) < 0)
			goto fail;
	}
	/* The samples in bulk, STORE_SAMPLE_ROWS to a statement, the rest one by one. */
	for (size_t i = 0; r->samples && i < r->n;) {
		int bulk = r->n - i >= STORE_SAMPLE_ROWS;
		struct db_stmt *ss = bulk ? st->ins_samples : st->ins_sample;
		size_t rows = bulk ? STORE_SAMPLE_ROWS : 1;

		for (size_t k = 0; k < rows; k++)
			if (store_bind_sample(ss, (int)(k * STORE_SAMPLE_COLS), result_id, r, i + k) < 0)
				goto fail;
		if (store_step_done(ss) < 0)
			goto fail;
		i += rows;
	}
	for (size_t i = 0; r->samples && r->usage && i < r->n; i++) {
		const struct result_usage *u = &r->usage[i];
		struct db_stmt *su = st->ins_usage;

		if (db_bind_int64(su, 1, result_id) != 0 ||
		    db_bind_int64(su, 2, (int64_t)i) != 0 ||
		    db_bind_int64(su, 3, u->copy) != 0 ||
		    db_bind_int64(su, 4, u->status) != 0 ||
		    store_bind_real(su, 5, u->start) != 0 ||
		    store_bind_real(su, 6, u->user_s) != 0 ||
		    store_bind_real(su, 7, u->sys_s) != 0 ||
		    store_bind_real(su, 8, u->maxrss_kb) != 0 ||
		    store_bind_real(su, 9, u->minflt) != 0 ||
		    store_bind_real(su, 10, u->majflt) != 0 ||
		    store_bind_real(su, 11, u->nvcsw) != 0 ||
		    store_bind_real(su, 12, u->nivcsw) != 0 ||
		    store_bind_real(su, 13, u->inblock) != 0 ||
		    store_bind_real(su, 14, u->oublock) != 0 ||
		    store_bind_real(su, 15, u->orphans) != 0 ||
		    store_step_done(su) < 0)
			goto fail;
	}
	for (size_t i = 0; r->replicas && i < r->nreplicas; i++) {
		const struct result_replica *p = &r->replicas[i];
		struct db_stmt *sr = st->ins_replica;

		if (db_bind_int64(sr, 1, result_id) != 0 ||
		    db_bind_int64(sr, 2, (int64_t)i) != 0 ||
		    store_bind_real(sr, 3, p->median) != 0 ||
		    store_bind_real(sr, 4, p->lo) != 0 ||
		    store_bind_real(sr, 5, p->hi) != 0 ||
		    db_bind_int64(sr, 6, (int64_t)p->n) != 0 ||
		    store_bind_real(sr, 7, p->t0) != 0 ||
		    store_bind_real(sr, 8, p->t1) != 0 ||
		    store_bind_text(sr, 9, result_stop_name(p->stop)) != 0 ||
		    store_bind_real(sr, 10, p->sentinel_sys) != 0 ||
		    store_bind_real(sr, 11, p->sentinel_user) != 0 ||
		    store_bind_real(sr, 12, p->apart) != 0 ||
		    store_step_done(sr) < 0)
			goto fail;
	}
	return 0;
fail:
	/* Whichever statement failed must not keep its half-bound row. */
	db_reset(s);
	db_reset(sv);
	db_reset(st->ins_sample);
	db_reset(st->ins_samples);
	db_reset(st->ins_point);
	db_reset(st->ins_replica);
	db_reset(st->ins_usage);
	return -1;
}

int store_result_add(struct store *st, int64_t run_id, const struct result *r, char *err)
{
	if (store_writable(st, err) < 0 || store_result_check(st, r, err) < 0)
		return -1;
	if (store_tx(st, DB_TX_WRITE, "cannot add result to", err) < 0)
		return -1;
	if (store_result_insert(st, run_id, r, NULL) < 0) {
		errbuf_set(err, "cannot add result '%s' to db '%s': %s", r->id, st->path,
			   db_errmsg(st->db));
		goto fail;
	}
	if (store_commit(st, "cannot add result to", err) < 0)
		goto fail;
	return 0;
fail:
	store_rollback(st);
	if (store_run_gone(st, run_id))
		store_result_gone(st, run_id, r, err);
	return -1;
}

/* What a result owns besides its row, so that rewriting it leaves no stale rows. */
static const char *const store_sql_delete_result[] = {
	"DELETE FROM samples WHERE result_id = ?",
	"DELETE FROM result_usage WHERE result_id = ?",
	"DELETE FROM result_values WHERE result_id = ?",
	"DELETE FROM result_points WHERE result_id = ?",
	"DELETE FROM result_replicas WHERE result_id = ?",
	"DELETE FROM results WHERE id = ?",
};

/* Each statement of a list, its one parameter bound to id: 0, or -1 (error in the connection). */
static int store_exec_id(struct store *st, const char *const *sql, size_t n, int64_t id)
{
	struct db_stmt *q;

	for (size_t k = 0; k < n; k++) {
		if (store_prepare(st, sql[k], &q) != 0)
			return -1;
		if (db_bind_int64(q, 1, id) != 0 || store_step_done(q) < 0) {
			db_finalize(q);
			return -1;
		}
		db_finalize(q);
	}
	return 0;
}

int store_result_put(struct store *st, int64_t run_id, int64_t *result_id, const struct result *r,
		     char *err)
{
	if (store_writable(st, err) < 0 || store_result_check(st, r, err) < 0)
		return -1;
	if (store_tx(st, DB_TX_WRITE, "cannot add result to", err) < 0)
		return -1;
	if ((*result_id &&
	     store_exec_id(st, store_sql_delete_result,
			   sizeof(store_sql_delete_result) / sizeof(store_sql_delete_result[0]),
			   *result_id) < 0) ||
	    store_result_insert(st, run_id, r, result_id) < 0) {
		errbuf_set(err, "cannot add result '%s' to db '%s': %s", r->id, st->path,
			   db_errmsg(st->db));
		goto fail;
	}
	if (store_commit(st, "cannot add result to", err) < 0)
		goto fail;
	return 0;
fail:
	store_rollback(st);
	if (store_run_gone(st, run_id))
		store_result_gone(st, run_id, r, err);
	return -1;
}

/* Insert a run's sentinel timeline inside the caller's transaction; 0 or -1. */
static int store_sentinel_insert(struct store *st, int64_t run_id,
				 const struct sentinel_point *pts, size_t n)
{
	struct db_stmt *q;

	if (n == 0)
		return 0;
	if (store_prepare(st, "INSERT INTO sentinels (run_id, idx, t, cpu, sys_ns, user_ns)"
			       " VALUES (?, ?, ?, ?, ?, ?)", &q) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (db_bind_int64(q, 1, run_id) != 0 ||
		    db_bind_int64(q, 2, (int64_t)i) != 0 ||
		    store_bind_real(q, 3, pts[i].t) != 0 ||
		    db_bind_int64(q, 4, pts[i].cpu) != 0 ||
		    store_bind_real(q, 5, pts[i].sys_ns) != 0 ||
		    store_bind_real(q, 6, pts[i].user_ns) != 0 ||
		    store_step_done(q) < 0) {
			db_finalize(q);
			return -1;
		}
	db_finalize(q);
	return 0;
}

int store_sentinel_put(struct store *st, int64_t run_id, const struct sentinel_point *pts,
		       size_t n, char *err)
{
	static const char *const clear[] = { "DELETE FROM sentinels WHERE run_id = ?" };

	if (store_writable(st, err) < 0)
		return -1;
	if (store_tx(st, DB_TX_WRITE, "cannot add the sentinel to", err) < 0)
		return -1;
	if (store_exec_id(st, clear, 1, run_id) < 0 || store_sentinel_insert(st, run_id, pts, n) < 0) {
		errbuf_set(err, "cannot add the sentinel of run %lld to db '%s': %s",
			   (long long)run_id, st->path, db_errmsg(st->db));
		goto fail;
	}
	if (store_commit(st, "cannot add the sentinel to", err) < 0)
		goto fail;
	return 0;
fail:
	store_rollback(st);
	if (store_run_gone(st, run_id))
		store_gone_error(st, run_id, "add the sentinel to", err);
	return -1;
}

int store_run_end(struct store *st, int64_t run_id, char *err)
{
	struct db_stmt *stmt;
	char now[32];

	if (store_writable(st, err) < 0)
		return -1;
	store_now(now, sizeof(now));
	if (store_prepare(st, "UPDATE runs SET finished = ? WHERE id = ?", &stmt) != 0) {
		errbuf_set(err, "cannot end run %lld in db '%s': %s", (long long)run_id, st->path,
			   db_errmsg(st->db));
		return -1;
	}
	if (store_bind_text(stmt, 1, now) != 0 ||
	    db_bind_int64(stmt, 2, run_id) != 0 || store_step_done(stmt) < 0) {
		errbuf_set(err, "cannot end run %lld in db '%s': %s", (long long)run_id, st->path,
			   db_errmsg(st->db));
		db_finalize(stmt);
		return -1;
	}
	db_finalize(stmt);
	/* The run was begun by this process, so it can only have been deleted since. */
	if (db_changes(st->db) != 1) {
		store_gone_error(st, run_id, "end the run in", err);
		return -1;
	}
	return 0;
}

/* A growable list of run ids, the selection before it is loaded. */
struct store_ids {
	int64_t *v;		/* malloc'd */
	size_t n, cap;
};

static int store_ids_push(struct store_ids *ids, int64_t id)
{
	if (ids->n == ids->cap) {
		size_t cap = ids->cap ? ids->cap * 2 : 16;
		int64_t *v = realloc(ids->v, cap * sizeof(*v));
		if (!v)
			return -1;
		ids->v = v;
		ids->cap = cap;
	}
	ids->v[ids->n++] = id;
	return 0;
}

static int store_ids_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Collect every id a query returns; the count added, or -1 (errmsg in db). */
static long store_ids_query(struct store_ids *ids, struct db_stmt *stmt)
{
	long added = 0;
	int rc;

	while ((rc = db_step(stmt)) == DB_ROW) {
		if (store_ids_push(ids, db_column_int64(stmt, 0)) < 0)
			return -1;
		added++;
	}
	return rc == DB_DONE ? added : -1;
}

static int store_is_digits(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/*
 * Turn selectors into sorted, distinct run ids.  A selector of digits is a
 * run id first, then a label, so a run labelled "2024" is still reachable;
 * "set:N" is every run of the set whose first run is N (the set `kbench
 * runs` shows), then a label too.
 */
static int store_select(struct store *st, const char *const *sel, size_t nsel,
			struct store_ids *ids, char *err)
{
	struct db_stmt *by_id = NULL, *by_label = NULL, *by_set = NULL, *by_host = NULL, *all = NULL;
	long got;
	size_t k = 0;

	if (nsel == 0) {
		if (store_prepare(st, "SELECT id FROM runs ORDER BY id", &all) != 0 ||
		    store_ids_query(ids, all) < 0)
			goto fail;
		db_finalize(all);
		return 0;
	}
	if (store_prepare(st, "SELECT id FROM runs WHERE id = ?", &by_id) != 0 ||
	    store_prepare(st, "SELECT id FROM runs WHERE label = ? ORDER BY id", &by_label) != 0 ||
	    store_prepare(st, "SELECT id FROM runs WHERE set_uuid ="
			       " (SELECT set_uuid FROM runs WHERE id = ?) ORDER BY id", &by_set) != 0 ||
	    store_prepare(st, "SELECT r.id FROM runs r JOIN hosts h ON h.id = r.host_id"
			      " WHERE r.label = ? AND h.hostname = ? ORDER BY r.id", &by_host) != 0)
		goto fail;
	for (size_t i = 0; i < nsel; i++) {
		got = 0;
		if (store_is_digits(sel[i])) {
			errno = 0;
			long long id = strtoll(sel[i], NULL, 10);
			if (errno == 0) {
				if (db_bind_int64(by_id, 1, id) != 0)
					goto fail;
				got = store_ids_query(ids, by_id);
				db_reset(by_id);	/* repeats step's error, if any */
				if (got < 0)
					goto fail;
			}
		}
		if (strncmp(sel[i], "set:", 4) == 0 && store_is_digits(sel[i] + 4)) {
			errno = 0;
			long long id = strtoll(sel[i] + 4, NULL, 10);
			if (errno == 0) {
				if (db_bind_int64(by_set, 1, id) != 0)
					goto fail;
				got = store_ids_query(ids, by_set);
				db_reset(by_set);
				if (got < 0)
					goto fail;
				/*
				 * A set is numbered by its first run, as `kbench runs`
				 * shows it: set:N of a later run of the set is no set.
				 * (The query orders by id, so the first added is the set's.)
				 */
				if (got > 0 && ids->v[ids->n - (size_t)got] != id) {
					ids->n -= (size_t)got;
					got = 0;
				}
			}
		}
		if (got == 0) {
			if (store_bind_text(by_label, 1, sel[i]) != 0)
				goto fail;
			got = store_ids_query(ids, by_label);
			db_reset(by_label);
			if (got < 0)
				goto fail;
		}
		/*
		 * LABEL@HOST: the label's runs on that host, so that two hosts
		 * that both call their run "6.18" can be told apart.  Tried after
		 * the label whole, since a label may hold '@' itself; the host is
		 * after the last one, since a host name holds none.
		 */
		if (got == 0 && strrchr(sel[i], '@') && strrchr(sel[i], '@')[1]) {
			const char *at = strrchr(sel[i], '@');
			char *label = strndup(sel[i], (size_t)(at - sel[i]));

			if (!label || store_bind_text(by_host, 1, label) != 0 ||
			    store_bind_text(by_host, 2, at + 1) != 0) {
				free(label);
				goto fail;
			}
			free(label);
			got = store_ids_query(ids, by_host);
			db_reset(by_host);
			if (got < 0)
				goto fail;
		}
		if (got == 0) {
			/* As typed, but escaped: the error line must stay one line (utf8_escape). */
			char shown[128];

			utf8_escape(shown, sizeof(shown), sel[i], 60);
			if (strncmp(sel[i], "set:", 4) == 0)
				errbuf_set(err, "no set or label '%s' in db '%s' ('kbench runs' shows "
					   "the sets)", shown, st->path);
			else
				errbuf_set(err, "no run or label '%s' in db '%s'", shown, st->path);
			goto fail_quiet;
		}
	}
	db_finalize(by_id);
	db_finalize(by_label);
	db_finalize(by_set);
	db_finalize(by_host);
	qsort(ids->v, ids->n, sizeof(*ids->v), store_ids_cmp);
	for (size_t i = 0; i < ids->n; i++)
		if (k == 0 || ids->v[k - 1] != ids->v[i])
			ids->v[k++] = ids->v[i];
	ids->n = k;
	return 0;
fail:
	errbuf_set(err, "cannot read runs from db '%s': %s", st->path, db_errmsg(st->db));
fail_quiet:
	db_finalize(all);
	db_finalize(by_id);
	db_finalize(by_label);
	db_finalize(by_set);
	db_finalize(by_host);
	return -1;
}

/*
 * Room for one more element in an array that grows as rows are stepped
 * through (doubling from `first`): 0, or -1 without memory, *arr unchanged.
 */
static int store_grow(void *arrp, size_t n, size_t *cap, size_t size, size_t first)
{
	void **arr = arrp, *more;
	size_t want;

	if (n < *cap)
		return 0;
	want = *cap ? 2 * *cap : first;
	more = realloc(*arr, want * size);
	if (!more)
		return -1;
	*arr = more;
	*cap = want;
	return 0;
}

/*
 * A result's samples, in order, and where each ran when that was stored
 * (a database from before schema 6 has NULLs there, and r->where stays
 * NULL); 0 or -1 with err filled.
 */
/*
 * A run's rows of one child table, read in one query (column 0 the
 * result's id, in the order of the results), each result taking its own
 * while they last; rc is the last step's: DB_ROW while a row is current.
 */
struct store_rows {
	struct db_stmt *stmt;
	int rc;
};

/* The rows of run_id's results: 0, or -1 with the error in the connection. */
static int store_rows_open(struct store_rows *c, int64_t run_id)
{
	db_reset(c->stmt);
	if (db_bind_int64(c->stmt, 1, run_id) != 0)
		return c->rc = -1;
	c->rc = db_step(c->stmt);
	return c->rc < 0 ? -1 : 0;
}

/* Whether the current row is result_id's; those of results before it are passed over. */
static int store_rows_at(struct store_rows *c, int64_t result_id)
{
	while (c->rc == DB_ROW && db_column_int64(c->stmt, 0) < result_id)
		c->rc = db_step(c->stmt);
	return c->rc == DB_ROW && db_column_int64(c->stmt, 0) == result_id;
}

static void store_rows_next(struct store_rows *c)
{
	c->rc = db_step(c->stmt);
}

static int store_load_samples(struct store *st, struct db_stmt *stmt, int64_t result_id,
			      struct result *r, char *err)
{
	size_t i = 0, known = 0;
	int rc;

	r->samples = r->n ? malloc(r->n * sizeof(*r->samples)) : NULL;
	r->where = r->n ? malloc(r->n * sizeof(*r->where)) : NULL;
	if (r->n && (!r->samples || !r->where)) {
		errbuf_set(err, "cannot read db '%s': out of memory", st->path);
		return -1;
	}
	if (db_bind_int64(stmt, 1, result_id) != 0)
		goto fail;
	while ((rc = db_step(stmt)) == DB_ROW) {
		if (i == r->n) {
			i++;
			break;
		}
		r->samples[i] = store_column_real(stmt, 0);
		r->where[i].t = store_column_real(stmt, 1);
		r->where[i].cpu = db_column_null(stmt, 2) ? -1 :
				  (int)db_column_int64(stmt, 2);
		r->where[i].steal_ns = store_column_real(stmt, 3);
		r->where[i].replica = (int)db_column_int64(stmt, 4);
		known += !db_column_null(stmt, 1);
		i++;
	}
	db_reset(stmt);
	if (rc != DB_ROW && rc != DB_DONE)
		goto fail;
	if (known == 0) {
		free(r->where);
		r->where = NULL;
	}
	/* A result stored without its samples (the caller kept none) loads without them. */
	if (i == 0) {
		free(r->samples);
		r->samples = NULL;
		return 0;
	}
	if (i != r->n) {
		errbuf_set(err, "cannot read db '%s': result %lld has %s samples than its n (%zu)",
			   st->path, (long long)result_id, i > r->n ? "more" : "fewer", r->n);
		return -1;
	}
	return 0;
fail:
	errbuf_set(err, "cannot read samples from db '%s': %s", st->path, db_errmsg(st->db));
	return -1;
}

/*
 * A timed job's usage, one row per sample, after store_load_samples: r->usage
 * stays NULL when the result has none (any other benchmark, or a database
 * from before schema 8).  Rows that are not exactly one per sample are
 * refused rather than matched up by guess; 0 or -1 with err filled.
 */
static int store_load_usage(struct store *st, struct db_stmt *stmt, int64_t result_id,
			    struct result *r, char *err)
{
	size_t i = 0;
	int rc;

	if (db_bind_int64(stmt, 1, result_id) != 0)
		goto fail;
	while ((rc = db_step(stmt)) == DB_ROW) {
		struct result_usage *u;
		int64_t copy = db_column_int64(stmt, 1);
		int64_t status = db_column_int64(stmt, 2);

		if (!r->samples || i == r->n || db_column_int64(stmt, 0) != (int64_t)i) {
			db_reset(stmt);
			errbuf_set(err, "cannot read db '%s': result %lld has usage rows that are not "
				   "one per sample (%zu)", st->path, (long long)result_id,
				   r->samples ? r->n : 0);
			return -1;
		}
		if (copy < 1 || copy > INT_MAX || status < INT_MIN || status > INT_MAX) {
			db_reset(stmt);
			errbuf_set(err, "cannot read db '%s': result %lld has usage %zu with copy %lld "
				   "and status %lld", st->path, (long long)result_id, i + 1,
				   (long long)copy, (long long)status);
			return -1;
		}
		if (!r->usage && !(r->usage = calloc(r->n, sizeof(*r->usage)))) {
			db_reset(stmt);
			errbuf_set(err, "cannot read db '%s': out of memory", st->path);
			return -1;
		}
		u = &r->usage[i++];
		u->copy = (int)copy;
		u->status = (int)status;
		u->start = store_column_real(stmt, 3);
		u->user_s = store_column_real(stmt, 4);
		u->sys_s = store_column_real(stmt, 5);
		u->maxrss_kb = store_column_real(stmt, 6);
		u->minflt = store_column_real(stmt, 7);
		u->majflt = store_column_real(stmt, 8);
		u->nvcsw = store_column_real(stmt, 9);
		u->nivcsw = store_column_real(stmt, 10);
		u->inblock = store_column_real(stmt, 11);
		u->oublock = store_column_real(stmt, 12);
		u->orphans = store_column_real(stmt, 13);
	}
	db_reset(stmt);
	if (rc != DB_DONE)
		goto fail;
	if (i != 0 && i != r->n) {
		errbuf_set(err, "cannot read db '%s': result %lld has usage rows that are not one "
			   "per sample (%zu)", st->path, (long long)result_id, r->n);
		return -1;
	}
	return 0;
fail:
	errbuf_set(err, "cannot read usage from db '%s': %s", st->path, db_errmsg(st->db));
	return -1;
}

/* A result's replicas, in the order taken; 0 or -1 with err filled. */
static int store_load_replicas(struct store *st, struct store_rows *c, int64_t result_id,
			       struct result *r, char *err)
{
	struct db_stmt *stmt = c->stmt;
	size_t cap = 0;

	for (; store_rows_at(c, result_id); store_rows_next(c)) {
		struct result_replica *p;
		const char *stop = db_column_text(stmt, 7);

		if (store_grow(&r->replicas, r->nreplicas, &cap, sizeof(*p), 8) < 0) {
			errbuf_set(err, "cannot read db '%s': out of memory", st->path);
			return -1;
		}
		p = &r->replicas[r->nreplicas++];
		p->median = store_column_real(stmt, 1);
		p->lo = store_column_real(stmt, 2);
		p->hi = store_column_real(stmt, 3);
		p->n = (size_t)db_column_int64(stmt, 4);
		p->t0 = store_column_real(stmt, 5);
		p->t1 = store_column_real(stmt, 6);
		if (!stop || result_stop_parse(stop, &p->stop) < 0) {
			errbuf_set(err, "cannot read db '%s': result %lld has a replica with a bad stop",
				   st->path, (long long)result_id);
			return -1;
		}
		p->sentinel_sys = store_column_real(stmt, 8);
		p->sentinel_user = store_column_real(stmt, 9);
		p->apart = store_column_real(stmt, 10);
	}
	if (c->rc < 0)
		goto fail;
	return 0;
fail:
	errbuf_set(err, "cannot read replicas from db '%s': %s", st->path, db_errmsg(st->db));
	return -1;
}

/* A run's sentinel timeline; 0 or -1 with err filled. */
static int store_load_sentinel(struct store *st, struct db_stmt *stmt, struct run_info *run,
			       char *err)
{
	size_t cap = 0;
	int rc;

	if (db_bind_int64(stmt, 1, run->id) != 0)
		goto fail;
	while ((rc = db_step(stmt)) == DB_ROW) {
		struct sentinel_point *p;

		if (store_grow(&run->sentinel, run->nsentinel, &cap, sizeof(*p), 64) < 0) {
			db_reset(stmt);
			errbuf_set(err, "cannot read db '%s': out of memory", st->path);
			return -1;
		}
		p = &run->sentinel[run->nsentinel++];
		p->t = store_column_real(stmt, 0);
		p->cpu = (int)db_column_int64(stmt, 1);
		p->sys_ns = store_column_real(stmt, 2);
		p->user_ns = store_column_real(stmt, 3);
	}
	db_reset(stmt);
	if (rc != DB_DONE)
		goto fail;
	return 0;
fail:
	errbuf_set(err, "cannot read the sentinel from db '%s': %s", st->path, db_errmsg(st->db));
	return -1;
}

/*
 * A result's values, in the order they were written; 0 or -1 with err
 * filled.  More than a result can hold is refused rather than cut short:
 * the file was not written by this kbench, and a value silently dropped
 * would make a later comparison wrong without saying so.
 */
static int store_load_values(struct store *st, struct store_rows *c, int64_t result_id,
			     struct result *r, char *err)
{
	struct db_stmt *stmt = c->stmt;

	r->nvalues = 0;
	for (; store_rows_at(c, result_id); store_rows_next(c)) {
		struct bench_value *v;

		if (r->nvalues == BENCH_MAX_VALUES) {
			errbuf_set(err, "cannot read db '%s': result %lld has more than %d values",
				   st->path, (long long)result_id, BENCH_MAX_VALUES);
			return -1;
		}
		v = &r->values[r->nvalues++];
		store_column_copy(stmt, 1, v->key, sizeof(v->key));
		v->num = store_column_real(stmt, 2);
		store_column_copy(stmt, 3, v->text, sizeof(v->text));
	}
	if (c->rc < 0)
		goto fail;
	return 0;
fail:
	errbuf_set(err, "cannot read values from db '%s': %s", st->path, db_errmsg(st->db));
	return -1;
}

/* A curve's points, in the order measured; 0 or -1 with err filled. */
static int store_load_points(struct store *st, struct store_rows *c, int64_t result_id,
			     struct result *r, char *err)
{
	struct db_stmt *stmt = c->stmt;
	size_t cap = 0;

	for (; store_rows_at(c, result_id); store_rows_next(c)) {
		struct result_point *p;

		if (r->npoints == BENCH_MAX_POINTS) {
			errbuf_set(err, "cannot read db '%s': result %lld has more than %d points",
				   st->path, (long long)result_id, BENCH_MAX_POINTS);
			return -1;
		}
		if (store_grow(&r->points, r->npoints, &cap, sizeof(*p), 32) < 0) {
			errbuf_set(err, "cannot read db '%s': out of memory", st->path);
			return -1;
		}
		p = &r->points[r->npoints++];
		store_column_copy(stmt, 1, p->series, sizeof(p->series));
		p->x = store_column_real(stmt, 2);
		p->y = store_column_real(stmt, 3);
		p->lo = store_column_real(stmt, 4);
		p->hi = store_column_real(stmt, 5);
		p->noisy = (int)db_column_int64(stmt, 6) != 0;
	}
	if (c->rc < 0)
		goto fail;
	return 0;
fail:
	errbuf_set(err, "cannot read points from db '%s': %s", st->path, db_errmsg(st->db));
	return -1;
}

/*
 * Fill one result from the current row of store_sql_results(STORE_SQL_SELECT):
 * the id, then the fields in field_result's order.
 */
static int store_row_result(struct store *st, struct db_stmt *q, struct result *r, char *err)
{
	long long rid = (long long)db_column_int64(q, 0);
	int c = 1;

	memset(r, 0, sizeof(*r));
	for (size_t k = 0; k < field_nresult; k++) {
		const struct field *f = &field_result[k];
		char *p = (char *)r + f->off;
		const char *t;
		int64_t v;
		int bad = 0;

		if (!f->column)
			continue;
		switch (f->type) {
		case FIELD_TEXT:
			store_column_copy(q, c, p, f->size);
			break;
		case FIELD_REAL:
			*(double *)(void *)p = store_column_real(q, c);
			break;
		case FIELD_SIZE:
		case FIELD_U64:
		case FIELD_INT:
		case FIELD_BOOL:
			v = db_column_int64(q, c);
			/* A count out of its range (a hand edit, another program's write). */
			if (f->type != FIELD_U64 && (v < f->lo || v > f->hi) &&
			    !((f->flags & FIELD_ZERO_NONE) && v == 0)) {
				errbuf_set(err, "cannot read db '%s': result %lld has %s %lld, out of "
					   "its range", st->path, rid, f->key, (long long)v);
				return -1;
			}
			if (f->type == FIELD_SIZE)
				*(size_t *)(void *)p = (size_t)v;
			else if (f->type == FIELD_U64)
				*(uint64_t *)(void *)p = (uint64_t)v;
			else
				*(int *)(void *)p = (int)v;
			break;
		case FIELD_BETTER:
			t = db_column_text(q, c);
			bad = !t || (strcmp(t, "lower") != 0 && strcmp(t, "higher") != 0);
			r->better = t && strcmp(t, "higher") == 0 ? BETTER_HIGHER : BETTER_LOWER;
			break;
		case FIELD_STATUS:
			t = db_column_text(q, c);
			bad = !t || result_status_parse(t, &r->status) < 0;
			break;
		case FIELD_STOP:
			t = db_column_text(q, c);
			bad = !t || result_stop_parse(t, &r->stop) < 0;
			break;
		case FIELD_PLACE:
			/* "" is PLACE_NA, which place_parse does not accept as a choice. */
			t = db_column_text(q, c);
			if (t && t[0] == '\0')
				r->placement = PLACE_NA;
			else
				bad = !t || place_parse(t, &r->placement) < 0;
			break;
		}
		if (bad) {
			errbuf_set(err, "cannot read db '%s': result %lld has an unknown %s '%s'",
				   st->path, rid, f->key, t ? t : "(null)");
			return -1;
		}
		c++;
	}
	return 0;
}

/* One run's results, ordered by result id, into run->results. */
/* Whether the tables of id's kind are made from its samples (catalog.h). */
static int store_tables_need_samples(const char *id)
{
	const struct catalog_kind *k = catalog_prefixed(id);

	return k && k->tables_need_samples;
}

static int store_load_results(struct store *st, struct run_info *run, int want_samples,
			      struct db_stmt *q, struct db_stmt *qs, struct db_stmt *qv,
			      struct db_stmt *qp, struct db_stmt *qrep, struct db_stmt *qu, char *err)
{
	struct store_rows cv = { qv, 0 }, cp = { qp, 0 }, crep = { qrep, 0 };
	size_t cap = 0;
	int rc;

	if (store_rows_open(&cv, run->id) < 0 || store_rows_open(&cp, run->id) < 0 ||
	    store_rows_open(&crep, run->id) < 0 || db_bind_int64(q, 1, run->id) != 0)
		goto fail;
	while ((rc = db_step(q)) == DB_ROW) {
		if (run->nresults == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct result *v = realloc(run->results, ncap * sizeof(*v));
			if (!v) {
				errbuf_set(err, "cannot read db '%s': out of memory", st->path);
				goto fail_quiet;
			}
			run->results = v;
			cap = ncap;
		}
		/* Counted before filling, so run_info_free frees a half-loaded result too. */
		struct result *r = &run->results[run->nresults++];
		if (store_row_result(st, q, r, err) < 0 ||
		    store_load_values(st, &cv, db_column_int64(q, 0), r, err) < 0 ||
		    store_load_points(st, &cp, db_column_int64(q, 0), r, err) < 0 ||
		    store_load_replicas(st, &crep, db_column_int64(q, 0), r, err) < 0)
			goto fail_quiet;
		/*
		 * Usage is beside the samples, so it comes with them or not at all;
		 * a kind whose tables are made from them (timed jobs) always has them.
		 */
		if ((want_samples || store_tables_need_samples(r->id)) &&
		    (store_load_samples(st, qs, db_column_int64(q, 0), r, err) < 0 ||
		     store_load_usage(st, qu, db_column_int64(q, 0), r, err) < 0))
			goto fail_quiet;
	}
	db_reset(q);
	db_reset(qv);
	db_reset(qp);
	db_reset(qrep);
	if (rc != DB_DONE)
		goto fail;
	return 0;
fail:
	errbuf_set(err, "cannot read results from db '%s': %s", st->path, db_errmsg(st->db));
fail_quiet:
	db_reset(q);
	db_reset(qv);
	db_reset(qp);
	db_reset(qrep);
	return -1;
}

int store_runs_load(struct store *st, const char *const *sel, size_t nsel, int want_samples,
		    struct run_info **runs, char *err)
{
	struct store_ids ids = {0};
	struct run_info *out = NULL;
	struct db_stmt *qr = NULL, *q = NULL, *qs = NULL, *qv = NULL, *qp = NULL, *qrep = NULL;
	struct db_stmt *qsen = NULL, *qu = NULL;
	size_t nout = 0;
	const char *json;

	*runs = NULL;
	/* One read transaction, so a run being written meanwhile is seen whole or not at all. */
	if (store_tx(st, DB_TX_READ, "cannot read", err) < 0)
		return -1;
	if (store_select(st, sel, nsel, &ids, err) < 0)
		goto fail_quiet;
	if (ids.n > INT_MAX) {
		errbuf_set(err, "cannot read db '%s': too many runs", st->path);
		goto fail_quiet;
	}
	out = calloc(ids.n ? ids.n : 1, sizeof(*out));
	if (!out) {
		errbuf_set(err, "cannot read db '%s': out of memory", st->path);
		goto fail_quiet;
	}
	if (store_prepare(st, "SELECT r.label, r.started, h.hostname, r.os, r.mhz, r.sysinfo,"
			       " r.uuid, r.set_uuid, r.finished FROM runs r JOIN hosts h ON h.id = r.host_id WHERE r.id = ?", &qr) != 0 ||
	    store_prepare_results(st, STORE_SQL_SELECT, &q, err) < 0 ||
	    store_prepare(st, store_sql_load_samples, &qs) != 0 ||
	    store_prepare(st, store_sql_load_replicas, &qrep) != 0 ||
	    store_prepare(st, store_sql_load_sentinel, &qsen) != 0 ||
	    store_prepare(st, store_sql_load_values, &qv) != 0 ||
	    store_prepare(st, store_sql_load_points, &qp) != 0 ||
	    store_prepare(st, store_sql_load_usage, &qu) != 0)
		goto fail;
	for (size_t i = 0; i < ids.n; i++) {
		struct run_info *run = &out[nout++];
		run->id = ids.v[i];
		if (db_bind_int64(qr, 1, run->id) != 0 ||
		    db_step(qr) != DB_ROW)
			goto fail;
		store_column_copy(qr, 0, run->label, sizeof(run->label));
		store_column_copy(qr, 1, run->started, sizeof(run->started));
		store_column_copy(qr, 2, run->host, sizeof(run->host));
		store_column_copy(qr, 3, run->os, sizeof(run->os));
		run->mhz = db_column_null(qr, 4) ? 0 : db_column_real(qr, 4);
		store_column_copy(qr, 6, run->uuid, sizeof(run->uuid));
		store_column_copy(qr, 7, run->set_uuid, sizeof(run->set_uuid));
		store_column_copy(qr, 8, run->finished, sizeof(run->finished));
		json = db_column_text(qr, 5);
		if (json && !(run->sysinfo_json = strdup(json))) {
			errbuf_set(err, "cannot read db '%s': out of memory", st->path);
			goto fail_quiet;
		}
		db_reset(qr);
		if (store_load_results(st, run, want_samples, q, qs, qv, qp, qrep, qu, err) < 0 ||
		    store_load_sentinel(st, qsen, run, err) < 0)
			goto fail_quiet;
	}
	db_finalize(qrep);
	db_finalize(qsen);
	db_finalize(qr);
	db_finalize(q);
	db_finalize(qs);
	db_finalize(qv);
	db_finalize(qp);
	db_finalize(qu);
	free(ids.v);
	/* Ending a read transaction: nothing was written, so rolling back loses nothing. */
	store_rollback(st);
	*runs = out;
	return (int)nout;
fail:
	errbuf_set(err, "cannot read runs from db '%s': %s", st->path, db_errmsg(st->db));
fail_quiet:
	db_finalize(qrep);
	db_finalize(qsen);
	db_finalize(qr);
	db_finalize(q);
	db_finalize(qs);
	db_finalize(qv);
	db_finalize(qp);
	db_finalize(qu);
	free(ids.v);
	store_runs_free(out, nout);
	store_rollback(st);
	return -1;
}

void store_runs_free(struct run_info *runs, size_t n)
{
	if (!runs)
		return;
	for (size_t i = 0; i < n; i++)
		run_info_free(&runs[i]);
	free(runs);
}

/*
 * Whether a run without a finish time, begun by process pid on host, is
 * still being measured: that process is alive, on this host (a pid means
 * nothing elsewhere), and is not this one (an interrupted run drops its own
 * empty run).  Dead, the run was interrupted.  A pid reused since by some
 * other process reads as alive: `runs delete --force` is the way past it.
 */
static int store_run_alive(long long pid, const char *host)
{
	char me[256];

	if (pid <= 0 || pid > INT_MAX || pid == (long long)getpid())
		return 0;
	if (gethostname(me, sizeof(me)) != 0)
		return 0;
	me[sizeof(me) - 1] = '\0';
	if (strcmp(me, host) != 0)
		return 0;
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* Whether the sorted ids hold id. */
static int store_ids_has(const struct store_ids *ids, int64_t id)
{
	return bsearch(&id, ids->v, ids->n, sizeof(*ids->v), store_ids_cmp) != NULL;
}

int store_runs_list(struct store *st, const char *const *sel, size_t nsel, const char *host,
		    struct store_run_row **rows_out, char *err)
{
	struct db_stmt *q = NULL;
	struct store_run_row *rows = NULL;
	struct store_ids ids = { 0 };
	size_t n = 0, cap = 0;
	int rc;

	*rows_out = NULL;
	/* The selectors as everywhere else (store_select): one that matches nothing is an error. */
	if (nsel > 0 && store_select(st, sel, nsel, &ids, err) < 0) {
		free(ids.v);
		return -1;
	}
	/* The set's number is its first run's id: the smallest id sharing its set_uuid. */
	if (store_prepare(st, "SELECT r.id, r.uuid, r.label, r.started, r.finished, h.hostname, r.os,"
			       " (SELECT min(s.id) FROM runs s WHERE s.set_uuid = r.set_uuid),"
			       " (SELECT count(*) FROM results x WHERE x.run_id = r.id),"
			       " (SELECT count(*) FROM results x WHERE x.run_id = r.id"
			       "  AND x.status IN ('fail', 'skip')),"
			       " r.pid"
			       " FROM runs r JOIN hosts h ON h.id = r.host_id ORDER BY r.id", &q) != 0)
		goto fail;
	while ((rc = db_step(q)) == DB_ROW) {
		struct store_run_row *row;

		if (n == cap) {
			cap = cap ? 2 * cap : 32;
			row = realloc(rows, cap * sizeof(*rows));
			if (!row) {
				errbuf_set(err, "cannot read db '%s': out of memory", st->path);
				goto fail_quiet;
			}
			rows = row;
		}
		row = &rows[n++];
		memset(row, 0, sizeof(*row));
		row->id = db_column_int64(q, 0);
		store_column_copy(q, 1, row->uuid, sizeof(row->uuid));
		store_column_copy(q, 2, row->label, sizeof(row->label));
		store_column_copy(q, 3, row->started, sizeof(row->started));
		store_column_copy(q, 4, row->finished, sizeof(row->finished));
		store_column_copy(q, 5, row->host, sizeof(row->host));
		store_column_copy(q, 6, row->os, sizeof(row->os));
		row->set_id = db_column_int64(q, 7);
		row->nresults = (size_t)db_column_int64(q, 8);
		row->nmissing = (size_t)db_column_int64(q, 9);
		row->running = !row->finished[0] && store_run_alive(db_column_int64(q, 10), row->host);
		if ((nsel > 0 && !store_ids_has(&ids, row->id)) || (host && strcmp(host, row->host) != 0))
			n--;
	}
	if (rc != DB_DONE)
		goto fail;
	db_finalize(q);
	free(ids.v);
	*rows_out = rows;
	return (int)n;
fail:
	errbuf_set(err, "cannot read runs from db '%s': %s", st->path, db_errmsg(st->db));
fail_quiet:
	db_finalize(q);
	free(rows);
	free(ids.v);
	return -1;
}

/* The statements that delete one run and everything under it, children first. */
static const char *const store_sql_delete_run[] = {
	"DELETE FROM samples WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)",
	"DELETE FROM result_usage WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)",
	"DELETE FROM result_values WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)",
	"DELETE FROM result_points WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)",
	"DELETE FROM result_replicas WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)",
	"DELETE FROM sentinels WHERE run_id = ?",
	"DELETE FROM results WHERE run_id = ?",
	"DELETE FROM runs WHERE id = ?",
};

/*
 * 0 when none of the runs is being measured by another kbench, else -1 with
 * err naming the first that is.  Checked inside the delete's write
 * transaction; a run begun after it cannot be among the ids selected.
 */
static int store_ids_idle(struct store *st, const struct store_ids *ids, char *err)
{
	struct db_stmt *q;
	int rc = DB_DONE;

	if (store_prepare(st, "SELECT r.pid, h.hostname FROM runs r JOIN hosts h"
			       " ON h.id = r.host_id WHERE r.id = ? AND r.finished IS NULL", &q) != 0)
		goto fail;
	for (size_t i = 0; i < ids->n; i++) {
		long long pid;

		if (db_bind_int64(q, 1, ids->v[i]) != 0)
			goto fail;
		rc = db_step(q);
		if (rc != DB_ROW) {
			db_reset(q);
			if (rc != DB_DONE)
				goto fail;
			continue;
		}
		pid = db_column_int64(q, 0);
		if (store_run_alive(pid, db_column_text(q, 1) ?
				    db_column_text(q, 1) : "")) {
			errbuf_set(err, "cannot delete run %lld from db '%s': it is being measured "
				   "(kbench pid %lld); --force deletes it anyway", (long long)ids->v[i],
				   st->path, pid);
			db_finalize(q);
			return -1;
		}
		db_reset(q);
	}
	db_finalize(q);
	return 0;
fail:
	errbuf_set(err, "cannot delete runs from db '%s': %s", st->path, db_errmsg(st->db));
	db_finalize(q);
	return -1;
}

/*
 * Rename (new_label set) or delete (new_label NULL) the selected runs, all
 * or none: one transaction, so a failure half-way changes nothing.  A
 * delete leaves a run being measured alone unless force is set.
 */
static int store_runs_change(struct store *st, const char *const *sel, size_t nsel,
			     const char *new_label, int force, char *err)
{
	struct store_ids ids = { 0 };
	struct db_stmt *q = NULL;
	const char *what = new_label ? "rename" : "delete";

	if (nsel == 0) {
		errbuf_set(err, "%s: name the runs (labels or run ids)", what);
		return -1;
	}
	if (store_writable(st, err) < 0)
		return -1;
	if (store_tx(st, DB_TX_WRITE, new_label ? "cannot rename runs in" :
			     "cannot delete runs from", err) < 0)
		return -1;
	if (store_select(st, sel, nsel, &ids, err) < 0)
		goto fail_quiet;
	if (!new_label && !force && store_ids_idle(st, &ids, err) < 0)
		goto fail_quiet;
	for (size_t i = 0; i < ids.n; i++) {
		if (new_label) {
			if (store_prepare(st, "UPDATE runs SET label = ? WHERE id = ?", &q) != 0 ||
			    store_bind_text(q, 1, new_label) != 0 ||
			    db_bind_int64(q, 2, ids.v[i]) != 0 || store_step_done(q) < 0)
				goto fail;
			db_finalize(q);
			q = NULL;
			continue;
		}
		for (size_t k = 0; k < sizeof(store_sql_delete_run) / sizeof(store_sql_delete_run[0]); k++) {
			if (store_prepare(st, store_sql_delete_run[k], &q) != 0 ||
			    db_bind_int64(q, 1, ids.v[i]) != 0 || store_step_done(q) < 0)
				goto fail;
			db_finalize(q);
			q = NULL;
		}
	}
	/* A host no run points at any more is forgotten with its last run. */
	if (!new_label &&
	    store_exec(st, "DELETE FROM hosts WHERE id NOT IN (SELECT host_id FROM runs)",
		       "cannot delete runs from", err) < 0)
		goto fail_quiet;
	if (store_commit(st, new_label ? "cannot rename runs in" : "cannot delete runs from",
		       err) < 0)
		goto fail_quiet;
	free(ids.v);
	return (int)ids.n;
fail:
	errbuf_set(err, "cannot %s runs in db '%s': %s", what, st->path, db_errmsg(st->db));
fail_quiet:
	db_finalize(q);
	free(ids.v);
	store_rollback(st);
	return -1;
}

int store_runs_rename(struct store *st, const char *const *sel, size_t nsel, const char *label,
		      char *err)
{
	return store_runs_change(st, sel, nsel, label, 0, err);
}

int store_runs_delete(struct store *st, const char *const *sel, size_t nsel, char *err)
{
	return store_runs_change(st, sel, nsel, NULL, 0, err);
}

int store_runs_delete_force(struct store *st, const char *const *sel, size_t nsel, char *err)
{
	return store_runs_change(st, sel, nsel, NULL, 1, err);
}

int store_import(struct store *st, struct run_info *runs, size_t nruns, size_t *added, char *err)
{
	struct db_stmt *q = NULL;

	*added = 0;
	if (store_writable(st, err) < 0)
		return -1;
	for (size_t i = 0; i < nruns; i++) {
		if (!runs[i].uuid[0]) {
			errbuf_set(err, "cannot import into db '%s': run %zu has no uuid", st->path, i + 1);
			return -1;
		}
		for (size_t j = 0; j < runs[i].nresults; j++)
			if (store_result_check(st, &runs[i].results[j], err) < 0)
				return -1;
	}
	/*
	 * The one writer of its kind, as the schema's is: two importers of one
	 * export at once would both find a run missing and both add it, the
	 * second failing on the uuid's index (PostgreSQL reads what was
	 * committed before each statement; SQLite's write lock already queued
	 * them).  The second waits, then finds the runs there.
	 */
	if (store_tx(st, DB_TX_SCHEMA, "cannot import into", err) < 0)
		return -1;
	if (store_prepare(st, "SELECT id FROM runs WHERE uuid = ?", &q) != 0)
		goto fail;
	for (size_t i = 0; i < nruns; i++) {
		struct run_info *run = &runs[i];
		int rc;

		/* Already here (imported before, or exported from here): nothing to add. */
		if (store_bind_text(q, 1, run->uuid) != 0)
			goto fail;
		rc = db_step(q);
		db_reset(q);
		if (rc == DB_ROW) {
			run->id = 0;
			continue;
		}
		if (rc != DB_DONE || store_run_insert(st, run, 0) < 0)
			goto fail;
		for (size_t j = 0; j < run->nresults; j++)
			if (store_result_insert(st, run->id, &run->results[j], NULL) < 0)
				goto fail;
		if (store_sentinel_insert(st, run->id, run->sentinel, run->nsentinel) < 0)
			goto fail;
		(*added)++;
	}
	db_finalize(q);
	q = NULL;
	if (store_commit(st, "cannot import into", err) < 0)
		goto fail_quiet;
	return 0;
fail:
	errbuf_set(err, "cannot import into db '%s': %s", st->path, db_errmsg(st->db));
fail_quiet:
	db_finalize(q);
	store_rollback(st);
	*added = 0;
	return -1;
}

int store_run_find(struct store *st, const char *uuid, int64_t *id, char *err)
{
	struct db_stmt *q = NULL;
	int rc;

	*id = 0;
	if (store_prepare(st, "SELECT id FROM runs WHERE uuid = ?", &q) != 0 ||
	    store_bind_text(q, 1, uuid) != 0)
		goto fail;
	rc = db_step(q);
	if (rc == DB_ROW)
		*id = db_column_int64(q, 0);
	else if (rc != DB_DONE)
		goto fail;
	db_finalize(q);
	return *id != 0;
fail:
	errbuf_set(err, "cannot read runs from db '%s': %s", st->path, db_errmsg(st->db));
	db_finalize(q);
	return -1;
}
