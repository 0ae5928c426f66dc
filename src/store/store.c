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
 *
 * Three files (store_impl.h): this one the schema, its migrations, opening
 * and closing, and the helpers the others call; store_write.c a run as it
 * is measured, and imports; store_read.c selecting, loading and listing.
 */
#include "store/store_impl.h"

#include "core/catalog.h"
#include "core/err.h"
#include "core/fields.h"
#include "core/utf8.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>
#include <strings.h>
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
/*
 * A replica's fast level (version 11), beside its median: added the same
 * way, after apart.
 */
#define STORE_SQL_REPLICAS_FAST "ALTER TABLE result_replicas ADD COLUMN fast REAL;\n"
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
 * A distribution's log-linear histogram (version 12), a row a bucket that
 * counted a value, its bounds in the result's unit (hi NULL: the last
 * bucket, unbounded).  Spelt once for store_schema and migration 11.
 */
#define STORE_SQL_RESULT_HIST \
	"CREATE TABLE result_hist (\n" \
	"  result_id INTEGER NOT NULL REFERENCES results(id),\n" \
	"  idx INTEGER NOT NULL,\n" \
	"  lo REAL NOT NULL,\n" \
	"  hi REAL,\n" \
	"  count INTEGER NOT NULL\n" \
	");\n" \
	"CREATE INDEX result_hist_result_id ON result_hist(result_id);\n"

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
	"  apart REAL,\n"
	"  level REAL, level_low REAL, level_high REAL, slow_share REAL, slow_depth REAL\n"
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
	STORE_SQL_REPLICAS_FAST
	STORE_SQL_RESULT_USAGE
	STORE_SQL_RUNS_SET
	STORE_SQL_RESULT_HIST;

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
 * lacked the index that finds a run's set; version 10 quoted the median,
 * so no level (NULL: its results are read at their 5th percentile, or
 * median), nothing said of slow spells, and no replica's fast level;
 * version 11 kept no histogram, so a distribution it stored has none of
 * its own: its samples, every wakeup, give it when it is read.
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
	[10] = "ALTER TABLE results ADD COLUMN level REAL;\n"
	       "ALTER TABLE results ADD COLUMN level_low REAL;\n"
	       "ALTER TABLE results ADD COLUMN level_high REAL;\n"
	       "ALTER TABLE results ADD COLUMN slow_share REAL;\n"
	       "ALTER TABLE results ADD COLUMN slow_depth REAL;\n"
	       STORE_SQL_REPLICAS_FAST,
	[11] = STORE_SQL_RESULT_HIST,
};
/*
 * One of the results table's statements (STORE_SQL_*), its columns the
 * stored fields of field_result in their order: malloc'd, NULL without memory.
 */
char *store_sql_results(int which)
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
	/* A stretch of runs' results, the run's id last (store_read.c's cursors). */
	if (which == STORE_SQL_SELECT) {
		strcat(sql, ", run_id FROM results WHERE run_id BETWEEN ? AND ? ORDER BY run_id, id");
		return sql;
	}
	strcat(sql, which == STORE_SQL_INSERT_ID ? ", id) VALUES (?" : ") VALUES (?");
	for (size_t k = 0; k < n + (which == STORE_SQL_INSERT_ID); k++)
		strcat(sql, ", ?");
	strcat(sql, ") RETURNING id");
	return sql;
}

/*
 * One of a record's statements (core/fields.h): its insert, parameters the
 * parent's id, idx and the fields; or its reading, columns the parent's
 * id, idx, the fields and the run's id last (store_read.c's cursors), of a
 * stretch of runs (STORE_SQL_SELECT) or of one result (STORE_SQL_SELECT_ONE).
 * malloc'd, NULL without memory.
 */
char *store_sql_record(const struct record *rec, int which)
{
	const char *parent = rec->of_run ? "run_id" : "result_id";
	size_t len = 256 + 2 * strlen(rec->table);
	char *sql;

	for (size_t k = 0; k < rec->nfields; k++)
		len += strlen(rec->fields[k].column) + 8;
	if (!(sql = malloc(len)))
		return NULL;
	if (which == STORE_SQL_INSERT) {
		snprintf(sql, len, "INSERT INTO %s (%s, idx", rec->table, parent);
		for (size_t k = 0; k < rec->nfields; k++)
			strcat(strcat(sql, ", "), rec->fields[k].column);
		strcat(sql, ") VALUES (?, ?");
		for (size_t k = 0; k < rec->nfields; k++)
			strcat(sql, ", ?");
		strcat(sql, ")");
		return sql;
	}
	snprintf(sql, len, "SELECT p.%s, p.idx", parent);
	for (size_t k = 0; k < rec->nfields; k++)
		strcat(strcat(sql, ", p."), rec->fields[k].column);
	snprintf(sql + strlen(sql), len - strlen(sql),
		 which == STORE_SQL_SELECT_ONE ?
		 ", p.result_id FROM %s p WHERE p.result_id = ? ORDER BY p.idx" :
		 rec->of_run ?
		 ", p.run_id FROM %s p WHERE p.run_id BETWEEN ? AND ? ORDER BY p.run_id, p.idx" :
		 ", r.run_id FROM %s p JOIN results r ON r.id = p.result_id"
		 " WHERE r.run_id BETWEEN ? AND ? ORDER BY r.run_id, p.result_id, p.idx",
		 rec->table);
	return sql;
}

/* A statement made by store_sql_* into *q, and freed: 0, or -1 (no memory: a message of its own). */
static int store_prepare_made(struct store *st, char *sql, struct db_stmt **q, char *err)
{
	int rc = sql ? (*q = db_prepare(st->db, sql)) != NULL ? 0 : -1 : -1;

	if (rc < 0)
		errbuf_set(err, "cannot open db '%s': %s", st->path, sql ? db_errmsg(st->db)
									 : "out of memory");
	free(sql);
	return rc;
}

int store_prepare_results(struct store *st, int which, struct db_stmt **q, char *err)
{
	return store_prepare_made(st, store_sql_results(which), q, err);
}

int store_prepare_record(struct store *st, const struct record *rec, int which,
			 struct db_stmt **q, char *err)
{
	return store_prepare_made(st, store_sql_record(rec, which), q, err);
}

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
	/* SQLite's names for a database that lives only while it is open. */
	if (strcmp(buf, ":memory:") == 0 || strncasecmp(buf, "file:", 5) == 0) {
		errbuf_set(err, "db '%s' is SQLite's name for one kept in memory or a URI: what is "
			   "stored would be gone at exit; name a file (or --no-store)", buf);
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
int store_prepare(struct store *st, const char *sql, struct db_stmt **q)
{
	*q = db_prepare(st->db, sql);
	return *q ? 0 : -1;
}

/*
 * The connection's last failure into err as "WHAT db 'P': msg", and
 * whether it was busy into st->busy, for store_retry: -1.
 */
int store_failed(struct store *st, const char *what, char *err)
{
	st->busy = db_busy(st->db);
	errbuf_set(err, "%s db '%s': %s", what, st->path, db_errmsg(st->db));
	return -1;
}

/* Run SQL with no result rows; 0, or -1 with err filled (store_failed). */
int store_exec(struct store *st, const char *sql, const char *what, char *err)
{
	return db_exec(st->db, sql) == 0 ? 0 : store_failed(st, what, err);
}

/* A transaction of kind (db.h's DB_TX_*): as store_exec. */
int store_tx(struct store *st, int kind, const char *what, char *err)
{
	return db_begin(st->db, kind) == 0 ? 0 : store_failed(st, what, err);
}

/* The end of one: as store_exec. */
int store_commit(struct store *st, const char *what, char *err)
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
void store_rollback(struct store *st)
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
	db_finalize(st->ins_bucket);
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
	/*
	 * The last '@' before the parameters, and a ':' before it: all between
	 * the user's name and that '@' may be a password, one with '/' or '@'
	 * in it too ("kb:pw/x@h", "kb:p@ss@h").  Hiding a port and path with it
	 * ("h:5432/db@x") says less than it could, never more.
	 */
	at = NULL;
	for (const char *p = auth; p < uri + end; p++)
		if (*p == '@')
			at = p;
	colon = at ? memchr(auth, ':', (size_t)(at - auth)) : NULL;
	if (at && colon)
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
void store_discard(const char *path)
{
	static const char *const tails[] = { "", "-wal", "-shm", "-journal" };
	char p[PATH_MAX + 16];

	if (store_is_uri(path))
		return;
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", path, tails[i]);
		(void)unlink(p);
	}
}

static struct store *store_open_flags(const char *path, int flags, char *err)
{
	struct store_probe pr;
	struct store *st;
	/* A file this open makes and then cannot use (a full disk, ulimit -f) is not left. */
	int made = (flags & DB_SQLITE_CREATE) && access(path, F_OK) != 0;

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
	/* Not when another process's lock was the failure: the file may be its, being made. */
	if (made && !st->busy) {
		store_close(st);
		store_discard(path);
		return NULL;
	}
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
	/*
	 * An '@' that is not the one ending the user part: libpq would take
	 * the rest of a password for a host and say it in its message.
	 */
	const char *auth = strstr(uri, "://") + 3;
	size_t alen = strcspn(auth, "?"), nat = 0, slash = strcspn(auth, "/");

	for (size_t i = 0; i < alen; i++)
		if (auth[i] == '@' && (++nat > 1 || i > slash)) {
			errbuf_set(err, "cannot open db '%s': %s", st->path, nat > 1 ?
				   "two '@' in it: write a password's '@' as %40" :
				   "an '@' after a '/': write a password's '/' as %2F, a database "
				   "name's '@' as %40");
			free(st);
			return NULL;
		}
	/* libpq takes the scheme in lower case only. */
	char *lower = strdup(uri);

	for (char *p = lower; p && *p && *p != ':'; p++)
		*p = (char)tolower((unsigned char)*p);
	st->db = lower ? db_pg_open(lower, why) : NULL;
	if (!lower)
		snprintf(why, sizeof(why), "out of memory");
	free(lower);
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
	/* Any case, as a URI's scheme is: POSTGRESQL:// is no file's name. */
	return strncasecmp(name, "postgresql://", 13) == 0 || strncasecmp(name, "postgres://", 11) == 0;
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
int store_writable(const struct store *st, char *err)
{
	if (!st->readonly)
		return 0;
	errbuf_set(err, "cannot write to db '%s': it was opened to be read only", st->path);
	return -1;
}

/* The current time as ISO 8601 UTC, e.g. 2026-11-30T13:45:02Z. */
void store_now(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	if (!gmtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "1970-01-01T00:00:00Z");
}

/* NaN means "no figure", stored as NULL (db.h). */
int store_bind_real(struct db_stmt *stmt, int i, double v)
{
	return db_bind_real(stmt, i, v);
}

double store_column_real(struct db_stmt *stmt, int i)
{
	return db_column_real(stmt, i);
}

int store_bind_text(struct db_stmt *stmt, int i, const char *s)
{
	return db_bind_text(stmt, i, s);
}

/* Copy a text column into a fixed field, truncating; NULL becomes "". */
void store_column_copy(struct db_stmt *stmt, int i, char *dst, size_t len)
{
	const char *s = db_column_text(stmt, i);

	snprintf(dst, len, "%s", s ? s : "");
}

/* Step a statement that returns no rows, then make it reusable. */
int store_step_done(struct db_stmt *stmt)
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
int store_step_id(struct db_stmt *stmt, int64_t *id)
{
	int rc = db_step(stmt);

	if (rc == DB_ROW)
		*id = db_column_int64(stmt, 0);
	db_reset(stmt);
	return rc == DB_ROW ? 0 : -1;
}
