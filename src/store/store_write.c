/*
 * The store's writes (store_impl.h): a run as kbench measures it -- its row,
 * each result committed on its own with its samples, replicas, values,
 * points and usage, the sentinel's timeline, the end time -- and an
 * export's runs imported.
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
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

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
int store_prepare_writes(struct store *st, char *err)
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
	if (store_prepare(st, store_sql_sample, &st->ins_sample) != 0) {
		errbuf_set(err, "cannot open db '%s': %s", st->path, db_errmsg(st->db));
		return -1;
	}
	if (store_prepare_record(st, &record_value, STORE_SQL_INSERT, &st->ins_value, err) < 0 ||
	    store_prepare_record(st, &record_point, STORE_SQL_INSERT, &st->ins_point, err) < 0 ||
	    store_prepare_record(st, &record_replica, STORE_SQL_INSERT, &st->ins_replica, err) < 0 ||
	    store_prepare_record(st, &record_usage, STORE_SQL_INSERT, &st->ins_usage, err) < 0 ||
	    store_prepare_record(st, &record_bucket, STORE_SQL_INSERT, &st->ins_bucket, err) < 0)
		return -1;
	return 0;
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
 * The stored fields (those with a column) of obj, a struct the table
 * fields describes (core/fields.h), as the parameters from the first'th
 * on, in the table's order, as store_sql_results and store_sql_record list
 * their columns; *next is the parameter after them.  0, or -1.
 */
static int store_bind_fields(struct db_stmt *s, int first, const struct field *fields, size_t n,
			     const void *obj, int *next)
{
	int i = first;

	for (size_t k = 0; k < n; k++) {
		const struct field *f = &fields[k];
		const char *p = (const char *)obj + f->off;
		int rc = 0;

		if (!f->column)
			continue;
		switch (f->type) {
		case FIELD_TEXT:
			rc = (f->flags & FIELD_EMPTY_NONE) && !p[0] ? db_bind_null(s, i)
								     : store_bind_text(s, i, p);
			break;
		case FIELD_REAL:
			rc = store_bind_real(s, i, (f->flags & FIELD_POSITIVE) && !(*(const double *)(const void *)p > 0)
							   ? (double)NAN : *(const double *)(const void *)p);
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
			rc = store_bind_text(s, i, bench_better_name(*(const enum bench_better *)(const void *)p));
			break;
		case FIELD_STATUS:
			rc = store_bind_text(s, i, result_status_name(*(const enum result_status *)(const void *)p));
			break;
		case FIELD_STOP:
			rc = store_bind_text(s, i, result_stop_name(*(const enum stop_reason *)(const void *)p));
			break;
		case FIELD_PLACE:
			rc = store_bind_text(s, i, place_name(*(const enum placement *)(const void *)p));
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
 * count records of rec's kind from base (an array of them, or NULL for
 * none), the children of parent (a result's or a run's id), a row each
 * of stmt, store_sql_record's insert.  0, or -1.
 */
static int store_insert_records(struct db_stmt *stmt, const struct record *rec, int64_t parent,
				const void *base, size_t count)
{
	for (size_t i = 0; base && i < count; i++) {
		int next;

		if (db_bind_int64(stmt, 1, parent) != 0 || db_bind_int64(stmt, 2, (int64_t)i) != 0 ||
		    store_bind_fields(stmt, 3, rec->fields, rec->nfields,
				      (const char *)base + i * rec->size, &next) < 0 ||
		    store_step_done(stmt) < 0)
			return -1;
	}
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

	if (db_bind_int64(s, 1, run_id) != 0 || store_bind_fields(s, 2, field_result, field_nresult, r, &next) < 0 ||
	    (id && *id && db_bind_int64(s, next, *id) != 0) ||
	    store_step_id(s, &result_id) < 0)
		goto fail;
	if (id)
		*id = result_id;
	if (store_insert_records(sv, &record_value, result_id, r->values, r->nvalues) < 0 ||
	    store_insert_records(st->ins_point, &record_point, result_id, r->points, r->npoints) < 0)
		goto fail;
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
	/* Usage is one a sample, and loads with the samples: none without them. */
	if (store_insert_records(st->ins_usage, &record_usage, result_id, r->usage,
				 r->samples ? r->n : 0) < 0 ||
	    store_insert_records(st->ins_replica, &record_replica, result_id, r->replicas,
				 r->nreplicas) < 0 ||
	    store_insert_records(st->ins_bucket, &record_bucket, result_id, r->buckets,
				 r->nbuckets) < 0)
		goto fail;
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
	db_reset(st->ins_bucket);
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
	"DELETE FROM result_hist WHERE result_id = ?",
	"DELETE FROM results WHERE id = ?",
};

/* Each statement of a list, its one parameter bound to id: 0, or -1 (error in the connection). */
int store_exec_id(struct store *st, const char *const *sql, size_t n, int64_t id)
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
	char *sql;
	int rc;

	if (n == 0)
		return 0;
	/* Without memory for the statement's text, the connection's last error says nothing. */
	if (!(sql = store_sql_record(&record_sentinel, STORE_SQL_INSERT)))
		return -1;
	rc = store_prepare(st, sql, &q);
	free(sql);
	if (rc != 0)
		return -1;
	rc = store_insert_records(q, &record_sentinel, run_id, pts, n);
	db_finalize(q);
	return rc;
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

/* The runs an import adds beyond which it brings the planner's statistics up to date. */
#define STORE_ANALYZE_RUNS 500

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
	/*
	 * Many runs at once: the planner's statistics anew, or PostgreSQL plans
	 * the next reads for the tables as they were until autovacuum comes
	 * round (runs of 10,000 imported runs took 9-17 s, then 0.2 s).  A
	 * failure costs time, never a run: the runs are in, so it is left.
	 */
	if (*added >= STORE_ANALYZE_RUNS) {
		char why[ERRBUF_LEN];

		(void)store_exec(st, "ANALYZE", "cannot analyze", why);
	}
	return 0;
fail:
	errbuf_set(err, "cannot import into db '%s': %s", st->path, db_errmsg(st->db));
fail_quiet:
	db_finalize(q);
	store_rollback(st);
	*added = 0;
	return -1;
}

