/*
 * The store's reads (store_impl.h): runs selected by id, set, label or
 * LABEL@HOST, loaded with their results and the children each reader
 * asks for, listed; renamed and deleted, which select the same way.
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

/*
 * The runs, their results and the children every reader loads (replicas,
 * points, values, the sentinel) are read a stretch of runs at a time
 * (store_rows), ordered by run and result, not a query per run or result:
 * on PostgreSQL each query is a round trip, summary of 100 standard runs
 * made 18,000 of them, and of 50,000 runs, five a run, 19 s.  Each child's
 * query starts with the result's id and ends with the run's.
 */
static const char store_sql_load_runs[] =
	"SELECT r.label, r.started, h.hostname, r.os, r.mhz, r.sysinfo, r.uuid, r.set_uuid,"
	" r.finished, r.id FROM runs r JOIN hosts h ON h.id = r.host_id"
	" WHERE r.id BETWEEN ? AND ? ORDER BY r.id";
#define STORE_RUNS_RUNCOL 9

static const char store_sql_load_samples[] =
	"SELECT value, t, cpu, steal, replica FROM samples WHERE result_id = ? ORDER BY idx";

/*
 * Selected runs this close together are read in one stretch (the runs
 * between, not selected, are read and passed over); farther apart, the
 * stretch ends.
 */
#define STORE_STRETCH_GAP 64

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
 * A stretch of runs' rows of one table, read in one query ordered by run
 * (its id in column runcol) and, for a child of results, by result (its id
 * in column 0), each run and result taking its own while they last; rc is
 * the last step's: DB_ROW while a row is current.
 */
struct store_rows {
	struct db_stmt *stmt;
	int rc;
	int runcol;
};

/* The rows of the runs lo to hi: 0, or -1 with the error in the connection. */
static int store_rows_open(struct store_rows *c, int64_t lo, int64_t hi)
{
	db_reset(c->stmt);
	if (db_bind_int64(c->stmt, 1, lo) != 0 || db_bind_int64(c->stmt, 2, hi) != 0)
		return c->rc = -1;
	c->rc = db_step(c->stmt);
	return c->rc < 0 ? -1 : 0;
}

/* Whether the current row is run_id's; those of runs before it (not selected) are passed over. */
static int store_rows_run(struct store_rows *c, int64_t run_id)
{
	while (c->rc == DB_ROW && db_column_int64(c->stmt, c->runcol) < run_id)
		c->rc = db_step(c->stmt);
	return c->rc == DB_ROW && db_column_int64(c->stmt, c->runcol) == run_id;
}

/* Whether the current row is result_id's of run_id; those before it are passed over. */
static int store_rows_at(struct store_rows *c, int64_t run_id, int64_t result_id)
{
	while (store_rows_run(c, run_id) && db_column_int64(c->stmt, 0) < result_id)
		c->rc = db_step(c->stmt);
	return store_rows_run(c, run_id) && db_column_int64(c->stmt, 0) == result_id;
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
 * The fields of obj, a struct the table fields describes (core/fields.h),
 * from the current row of q, column c on, in the table's order; who says
 * whose they are in a message ("result 12").  0, or -1 with err filled.
 */
static int store_row_fields(struct store *st, struct db_stmt *q, int c, const struct field *fields,
			    size_t n, void *obj, const char *who, char *err)
{
	for (size_t k = 0; k < n; k++) {
		const struct field *f = &fields[k];
		char *p = (char *)obj + f->off;
		const char *t = NULL;
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
				errbuf_set(err, "cannot read db '%s': %s has %s %lld, out of its range",
					   st->path, who, f->key, (long long)v);
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
			*(enum bench_better *)(void *)p = t && strcmp(t, "higher") == 0 ? BETTER_HIGHER
										      : BETTER_LOWER;
			break;
		case FIELD_STATUS:
			t = db_column_text(q, c);
			bad = !t || result_status_parse(t, (enum result_status *)(void *)p) < 0;
			break;
		case FIELD_STOP:
			t = db_column_text(q, c);
			bad = !t || result_stop_parse(t, (enum stop_reason *)(void *)p) < 0;
			break;
		case FIELD_PLACE:
			/* "" is PLACE_NA, which place_parse does not accept as a choice. */
			t = db_column_text(q, c);
			if (t && t[0] == '\0')
				*(enum placement *)(void *)p = PLACE_NA;
			else
				bad = !t || place_parse(t, (enum placement *)(void *)p) < 0;
			break;
		}
		if (bad) {
			errbuf_set(err, "cannot read db '%s': %s has an unknown %s '%s'", st->path, who,
				   f->key, t ? t : "(null)");
			return -1;
		}
		c++;
	}
	return 0;
}

/*
 * Fill one result from the current row of store_sql_results(STORE_SQL_SELECT):
 * the id, then the fields in field_result's order.
 */
static int store_row_result(struct store *st, struct db_stmt *q, struct result *r, char *err)
{
	char who[48];

	memset(r, 0, sizeof(*r));
	snprintf(who, sizeof(who), "result %lld", (long long)db_column_int64(q, 0));
	return store_row_fields(st, q, 1, field_result, field_nresult, r, who, err);
}

/*
 * The records of rec's kind under one parent from the stretch's cursor (a
 * result's, or with rec->of_run the run's), in their order, appended to
 * the array *basep holds, *n of them, grown as they come.  More than a
 * parent may hold is refused rather than cut short: the database was not
 * written by this kbench, and a record silently dropped would make a later
 * comparison wrong without saying so.  0, or -1 with err filled.
 */
static int store_load_records(struct store *st, struct store_rows *c, const struct record *rec,
			      int64_t run_id, int64_t parent, void *basep, size_t *n, char *err)
{
	const char *kind = rec->of_run ? "run" : "result";
	size_t cap = *n;
	char who[96];

	for (; rec->of_run ? store_rows_run(c, run_id) : store_rows_at(c, run_id, parent);
	     store_rows_next(c)) {
		void *obj;

		if (*n == rec->max) {
			errbuf_set(err, "cannot read db '%s': %s %lld has more than %zu %s", st->path,
				   kind, (long long)parent, rec->max, rec->key);
			return -1;
		}
		if (store_grow(basep, *n, &cap, rec->size, 8) < 0) {
			errbuf_set(err, "cannot read db '%s': out of memory", st->path);
			return -1;
		}
		obj = *(char **)basep + (*n)++ * rec->size;
		memset(obj, 0, rec->size);
		snprintf(who, sizeof(who), "%s %lld's %s %zu", kind, (long long)parent, rec->name, *n);
		if (store_row_fields(st, c->stmt, 2, rec->fields, rec->nfields, obj, who, err) < 0)
			return -1;
	}
	if (c->rc < 0) {
		errbuf_set(err, "cannot read %s from db '%s': %s", rec->key, st->path, db_errmsg(st->db));
		return -1;
	}
	return 0;
}

/*
 * A result's values, points, replicas and histogram from the stretch's cursors: 0, or
 * -1 with err filled.  The values are read into a list of their own first,
 * since a result holds them in place.
 */
static int store_load_children(struct store *st, struct store_rows *values,
			       struct store_rows *points, struct store_rows *replicas,
			       struct store_rows *hist, int64_t run_id, int64_t rid, struct result *r,
			       char *err)
{
	struct bench_value *v = NULL;
	size_t nv = 0;

	if (store_load_records(st, values, &record_value, run_id, rid, &v, &nv, err) < 0) {
		free(v);
		return -1;
	}
	if (nv)
		memcpy(r->values, v, nv * sizeof(*v));
	r->nvalues = nv;
	free(v);
	result_values_upgrade(r);
	return store_load_records(st, points, &record_point, run_id, rid, &r->points, &r->npoints,
				  err) < 0 ||
	       store_load_records(st, replicas, &record_replica, run_id, rid, &r->replicas,
				  &r->nreplicas, err) < 0 ||
	       store_load_records(st, hist, &record_bucket, run_id, rid, &r->buckets, &r->nbuckets,
				  err) < 0 ? -1 : 0;
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
		char who[64];

		if (!r->samples || i == r->n || db_column_int64(stmt, 1) != (int64_t)i) {
			db_reset(stmt);
			errbuf_set(err, "cannot read db '%s': result %lld has usage rows that are not "
				   "one per sample (%zu)", st->path, (long long)result_id,
				   r->samples ? r->n : 0);
			return -1;
		}
		if (!r->usage && !(r->usage = calloc(r->n, sizeof(*r->usage)))) {
			db_reset(stmt);
			errbuf_set(err, "cannot read db '%s': out of memory", st->path);
			return -1;
		}
		snprintf(who, sizeof(who), "result %lld's usage %zu", (long long)result_id, i + 1);
		if (store_row_fields(st, stmt, 2, record_usage.fields, record_usage.nfields,
				     &r->usage[i++], who, err) < 0) {
			db_reset(stmt);
			return -1;
		}
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

/* One run's results, ordered by result id, into run->results. */
/* Whether the tables of id's kind are made from its samples (catalog.h). */
static int store_tables_need_samples(const char *id)
{
	const struct catalog_kind *k = catalog_prefixed(id);

	return k && k->tables_need_samples;
}

/* The cursors of a stretch of runs: the runs, their results, the children. */
struct store_stretch {
	struct store_rows runs, results, values, points, replicas, hist, sentinel;
	struct db_stmt *samples, *usage;	/* a result's, when the reader wants them */
	int levels;		/* the runs and results alone, not their children */
};

/* Every cursor of the stretch on the runs lo to hi: 0, or -1 with the error in the connection. */
static int store_stretch_open(struct store_stretch *x, int64_t lo, int64_t hi)
{
	struct store_rows *all[] = { &x->runs, &x->results, &x->values, &x->points, &x->replicas,
				     &x->hist, &x->sentinel };

	/* Levels alone: the runs' and results' cursors, the first two. */
	for (size_t i = 0; i < (x->levels ? 2 : sizeof(all) / sizeof(all[0])); i++)
		if (store_rows_open(all[i], lo, hi) < 0)
			return -1;
	return 0;
}

/* Whether a cursor of the stretch failed (its last step's error). */
static int store_stretch_failed(const struct store_stretch *x)
{
	return x->runs.rc < 0 || x->results.rc < 0 || x->values.rc < 0 || x->points.rc < 0 ||
	       x->replicas.rc < 0 || x->hist.rc < 0 || x->sentinel.rc < 0;
}

static void store_stretch_reset(struct store_stretch *x)
{
	struct store_rows *all[] = { &x->runs, &x->results, &x->values, &x->points, &x->replicas,
				     &x->hist, &x->sentinel };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		db_reset(all[i]->stmt);
}

static void store_stretch_finalize(struct store_stretch *x)
{
	db_finalize(x->runs.stmt);
	db_finalize(x->results.stmt);
	db_finalize(x->values.stmt);
	db_finalize(x->points.stmt);
	db_finalize(x->replicas.stmt);
	db_finalize(x->hist.stmt);
	db_finalize(x->sentinel.stmt);
	db_finalize(x->samples);
	db_finalize(x->usage);
}

/* The statements of a stretch: 0, or -1 with err filled. */
static int store_stretch_prepare(struct store *st, struct store_stretch *x, char *err)
{
	int results_runcol = 1;

	memset(x, 0, sizeof(*x));
	for (size_t k = 0; k < field_nresult; k++)
		results_runcol += field_result[k].column != NULL;
	x->runs.runcol = STORE_RUNS_RUNCOL;
	x->results.runcol = results_runcol;
	/* A record's columns: the parent's id, idx, its fields, the run's id. */
	x->values.runcol = 2 + (int)record_value.nfields;
	x->points.runcol = 2 + (int)record_point.nfields;
	x->replicas.runcol = 2 + (int)record_replica.nfields;
	x->hist.runcol = 2 + (int)record_bucket.nfields;
	x->sentinel.runcol = 2 + (int)record_sentinel.nfields;
	if (store_prepare_results(st, STORE_SQL_SELECT, &x->results.stmt, err) < 0 ||
	    store_prepare_record(st, &record_value, STORE_SQL_SELECT, &x->values.stmt, err) < 0 ||
	    store_prepare_record(st, &record_point, STORE_SQL_SELECT, &x->points.stmt, err) < 0 ||
	    store_prepare_record(st, &record_replica, STORE_SQL_SELECT, &x->replicas.stmt, err) < 0 ||
	    store_prepare_record(st, &record_bucket, STORE_SQL_SELECT, &x->hist.stmt, err) < 0 ||
	    store_prepare_record(st, &record_sentinel, STORE_SQL_SELECT, &x->sentinel.stmt, err) < 0 ||
	    store_prepare_record(st, &record_usage, STORE_SQL_SELECT_ONE, &x->usage, err) < 0)
		return -1;
	if (store_prepare(st, store_sql_load_runs, &x->runs.stmt) != 0 ||
	    store_prepare(st, store_sql_load_samples, &x->samples) != 0) {
		errbuf_set(err, "cannot read runs from db '%s': %s", st->path, db_errmsg(st->db));
		return -1;
	}
	return 0;
}

/* A run's results, from the stretch's cursors: 0, or -1 with err filled. */
static int store_load_results(struct store *st, struct run_info *run, int want,
			      struct store_stretch *x, char *err)
{
	size_t cap = 0;

	for (; store_rows_run(&x->results, run->id); store_rows_next(&x->results)) {
		struct db_stmt *q = x->results.stmt;
		int64_t rid = db_column_int64(q, 0);

		if (run->nresults == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			struct result *v = realloc(run->results, ncap * sizeof(*v));
			if (!v) {
				errbuf_set(err, "cannot read db '%s': out of memory", st->path);
				return -1;
			}
			run->results = v;
			cap = ncap;
		}
		/* Counted before filling, so run_info_free frees a half-loaded result too. */
		struct result *r = &run->results[run->nresults++];
		if (store_row_result(st, q, r, err) < 0 ||
		    (!x->levels && store_load_children(st, &x->values, &x->points, &x->replicas,
							&x->hist, run->id, rid, r, err) < 0))
			return -1;
		/*
		 * Usage is beside the samples, so it comes with them or not at all;
		 * a kind whose tables are made from them (timed jobs) always has them.
		 */
		if (!x->levels && ((want & STORE_LOAD_SAMPLES) || store_tables_need_samples(r->id)) &&
		    (store_load_samples(st, x->samples, rid, r, err) < 0 ||
		     store_load_usage(st, x->usage, rid, r, err) < 0))
			return -1;
	}
	if (store_stretch_failed(x)) {
		errbuf_set(err, "cannot read results from db '%s': %s", st->path, db_errmsg(st->db));
		return -1;
	}
	return 0;
}

/* A run's own row, from the stretch's cursor: 0, or -1 with err filled. */
static int store_load_run(struct store *st, struct store_rows *c, struct run_info *run, char *err)
{
	struct db_stmt *qr = c->stmt;
	const char *json;

	if (!store_rows_run(c, run->id)) {
		errbuf_set(err, "cannot read runs from db '%s': %s", st->path,
			   c->rc < 0 ? db_errmsg(st->db) : "a selected run is gone");
		return -1;
	}
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
		return -1;
	}
	return 0;
}

int store_runs_load(struct store *st, const char *const *sel, size_t nsel, int want,
		    struct run_info **runs, char *err)
{
	struct store_ids ids = {0};
	struct run_info *out = NULL;
	struct store_stretch x;
	size_t nout = 0;

	*runs = NULL;
	memset(&x, 0, sizeof(x));
	/* One read transaction, so a run being written meanwhile is seen whole or not at all. */
	if (store_tx(st, DB_TX_READ, "cannot read", err) < 0)
		return -1;
	if (store_select(st, sel, nsel, &ids, err) < 0)
		goto fail;
	if (ids.n > INT_MAX) {
		errbuf_set(err, "cannot read db '%s': too many runs", st->path);
		goto fail;
	}
	out = calloc(ids.n ? ids.n : 1, sizeof(*out));
	if (!out) {
		errbuf_set(err, "cannot read db '%s': out of memory", st->path);
		goto fail;
	}
	if (store_stretch_prepare(st, &x, err) < 0)
		goto fail;
	x.levels = (want & STORE_LOAD_LEVELS) != 0;
	/* The selection, oldest first, in stretches of runs close together. */
	for (size_t i = 0, j; i < ids.n; i = j) {
		for (j = i + 1; j < ids.n && ids.v[j] - ids.v[j - 1] <= STORE_STRETCH_GAP; j++)
			;
		if (store_stretch_open(&x, ids.v[i], ids.v[j - 1]) < 0) {
			errbuf_set(err, "cannot read runs from db '%s': %s", st->path, db_errmsg(st->db));
			goto fail;
		}
		for (size_t k = i; k < j; k++) {
			struct run_info *run = &out[nout++];

			run->id = ids.v[k];
			if (store_load_run(st, &x.runs, run, err) < 0 ||
			    store_load_results(st, run, want, &x, err) < 0 ||
			    (!x.levels &&
			     store_load_records(st, &x.sentinel, &record_sentinel, run->id, run->id,
						&run->sentinel, &run->nsentinel, err) < 0))
				goto fail;
		}
		store_stretch_reset(&x);
	}
	store_stretch_finalize(&x);
	free(ids.v);
	/* Ending a read transaction: nothing was written, so rolling back loses nothing. */
	store_rollback(st);
	*runs = out;
	return (int)nout;
fail:
	store_stretch_finalize(&x);
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
	"DELETE FROM result_hist WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)",
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

