/*
 * Reading an export back (`kbench import`): the document report_export_json
 * writes, turned into runs the store can add.
 *
 * Every field is checked before the caller touches its database, and the
 * first fault refuses the whole file: a run half-imported, or a figure read
 * from a field somebody mistyped, would sit in the database looking like a
 * measurement.  So a field that is missing, of the wrong type, too long for
 * its column or out of range is an error naming the file, the run and the
 * result, and so are figures that contradict each other (a median outside
 * its own interval, fewer samples than n, a run finished before it
 * started), figures that cannot be (a negative time or spread), a
 * benchmark or unit this kbench does not know, and a uuid or a result
 * given twice.  Keys this kbench does not know are ignored: a newer kbench
 * of the same export version may add some.
 *
 * Memory is bounded before anything is parsed: a file larger than
 * REPORT_IMPORT_MAX_BYTES is refused from its size (standard input is read
 * up to that and no further), and what jansson allocates for the document
 * is counted against a budget, since a file of many tiny values (`[0,0,...`)
 * takes 36 times its size as a tree.
 */
#include "report/export.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/catalog.h"
#include "core/err.h"
#include "core/fields.h"
#include "core/parse.h"
#include "core/utf8.h"
#include "report/jsonw.h"

/*
 * What jansson may allocate for one document, 1 GiB: 16 times the largest
 * file, where an export as kbench writes it takes 6 to 8 times its size
 * (11 rewritten compactly, as jq -c does) and a file of bare small values
 * (`[0,0,...`) 36, counting malloc's own overhead (measured here).
 */
#define IMP_TREE_BUDGET ((size_t)16 * REPORT_IMPORT_MAX_BYTES)

/* Where the reader is, for the one line an error gets. */
struct imp {
	const char *path;	/* the file, as the user named it */
	char where[96];		/* "run 2, result 5 (sys.null)", or "" at the top */
	char item[32];		/* "replica 3" inside a result's list, or "" */
	int copies;		/* the result's parallel, bounding a usage's copy */
	char *err;		/* the caller's buffer, ERRBUF_LEN */
	int bad;		/* an error was recorded: keep the first */
};

static void imp_fail(struct imp *im, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void imp_fail(struct imp *im, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	if (im->bad)
		return;
	im->bad = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	errbuf_set(im->err, "cannot import '%s': %s%s%s%s%s", im->path, im->where,
		   im->where[0] ? ": " : "", im->item, im->item[0] ? ": " : "", msg);
}

/*
 * jansson's allocator while a document is read: every block counted, and
 * refused past the budget, so a hostile file fails with a message instead
 * of taking the machine's memory.  A size header in front of each block;
 * only jansson's own objects are allocated here, and all are freed before
 * the allocator is put back.
 */
union imp_head {
	size_t size;		/* what the block costs, as counted in imp_tree_used */
	max_align_t align;	/* keeps the block after it aligned for anything */
};

static size_t imp_tree_used;	/* bytes jansson holds now */
static int imp_tree_full;	/* a block was refused for the budget */

static void *imp_malloc(size_t n)
{
	union imp_head *h;

	/* What the block really costs: malloc's own header and rounding too. */
	size_t cost = (n + sizeof(*h) + sizeof(size_t) + 15) & ~(size_t)15;

	if (n > IMP_TREE_BUDGET || cost > IMP_TREE_BUDGET - imp_tree_used) {
		imp_tree_full = 1;
		return NULL;
	}
	h = malloc(sizeof(*h) + n);
	if (!h)
		return NULL;
	h->size = cost;
	imp_tree_used += cost;
	return h + 1;
}

static void imp_free(void *p)
{
	union imp_head *h = p;

	if (!p)
		return;
	h--;
	imp_tree_used -= h->size;
	free(h);
}

/* A string that must be there and fit dst (size bytes, so size - 1 characters). */
static void imp_str(struct imp *im, json_t *o, const char *key, char *dst, size_t size,
		    int nullable)
{
	json_t *v = json_object_get(o, key);
	const char *s;

	dst[0] = '\0';
	if (nullable && json_is_null(v))
		return;
	s = json_string_value(v);
	if (!s) {
		imp_fail(im, "\"%s\" is %s, not a string", key, v ? "of another type" : "missing");
		return;
	}
	if (strlen(s) >= size)
		imp_fail(im, "\"%s\" is longer than %zu characters", key, size - 1);
	else
		snprintf(dst, size, "%s", s);
}

/* A number, or null for "no figure" (NaN) where that is allowed. */
static double imp_num(struct imp *im, json_t *o, const char *key, int nullable)
{
	json_t *v = json_object_get(o, key);

	if (json_is_number(v))
		return json_number_value(v);
	if (nullable && json_is_null(v))
		return NAN;
	imp_fail(im, "\"%s\" is %s, not a number%s", key, v ? "of another type" : "missing",
		 nullable ? " or null" : "");
	return NAN;
}

/* A whole number within [min, max]; why, after the range in a message, says where it is from. */
static json_int_t imp_int_why(struct imp *im, json_t *o, const char *key, json_int_t min,
			      json_int_t max, const char *why)
{
	json_t *v = json_object_get(o, key);
	json_int_t x;

	if (!json_is_integer(v)) {
		imp_fail(im, "\"%s\" is %s, not a whole number", key, v ? "of another type" : "missing");
		return min;
	}
	x = json_integer_value(v);
	if (x < min || x > max) {
		imp_fail(im, "\"%s\" is %lld, outside %lld to %lld%s", key, (long long)x,
			 (long long)min, (long long)max, why);
		return min;
	}
	return x;
}

static json_int_t imp_int(struct imp *im, json_t *o, const char *key, json_int_t min,
			  json_int_t max)
{
	return imp_int_why(im, o, key, min, max, "");
}

/* An array or object that must be there. */
static json_t *imp_get(struct imp *im, json_t *o, const char *key, int want_array)
{
	json_t *v = json_object_get(o, key);

	if (want_array ? json_is_array(v) : json_is_object(v))
		return v;
	imp_fail(im, "\"%s\" is %s, not %s", key, v ? "of another type" : "missing",
		 want_array ? "an array" : "an object");
	return NULL;
}

/* 32 lowercase hex digits, as store_run_insert makes them. */
static void imp_uuid(struct imp *im, json_t *o, const char *key, char *dst, size_t size)
{
	imp_str(im, o, key, dst, size, 0);
	if (im->bad)
		return;
	if (strlen(dst) != 32 || strspn(dst, "0123456789abcdef") != 32)
		imp_fail(im, "\"%s\" is not 32 hexadecimal digits", key);
}

static void imp_values(struct imp *im, json_t *o, struct result *r)
{
	json_t *vals = imp_get(im, o, "values", 0), *v;
	const char *key;

	if (!vals)
		return;
	if (json_object_size(vals) > BENCH_MAX_VALUES) {
		imp_fail(im, "\"values\" has %zu entries, more than %d", json_object_size(vals),
			 BENCH_MAX_VALUES);
		return;
	}
	json_object_foreach(vals, key, v) {
		struct bench_value *bv = &r->values[r->nvalues++];

		if (strlen(key) >= sizeof(bv->key)) {
			imp_fail(im, "value \"%s\" has a name longer than %zu characters", key,
				 sizeof(bv->key) - 1);
			return;
		}
		/* A name is a benchmark's word, as core/bench.h has it; a show prints it bare. */
		if (!key[0] || strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(key)) {
			imp_fail(im, "value \"%s\" is not named in lowercase words joined by '_'",
				 key);
			return;
		}
		snprintf(bv->key, sizeof(bv->key), "%s", key);
		bv->num = NAN;
		if (json_is_string(v)) {
			if (strlen(json_string_value(v)) >= sizeof(bv->text)) {
				imp_fail(im, "value \"%s\" is longer than %zu characters", key,
					 sizeof(bv->text) - 1);
				return;
			}
			snprintf(bv->text, sizeof(bv->text), "%s", json_string_value(v));
		} else if (json_is_number(v)) {
			bv->num = json_number_value(v);
		} else if (!json_is_null(v)) {
			imp_fail(im, "value \"%s\" is neither a number nor a string", key);
			return;
		}
	}
}

static void imp_samples(struct imp *im, json_t *o, struct result *r)
{
	json_t *arr = imp_get(im, o, "samples", 1), *v;
	size_t i;

	if (!arr)
		return;
	/*
	 * A measured result is exported with all its samples (the harness keeps
	 * every one), a skip or a failure with none.
	 */
	if (json_array_size(arr) == 0) {
		if (r->n > 0 && (r->status == RES_OK || r->status == RES_NOISY))
			imp_fail(im, "no samples, but \"n\" is %zu", r->n);
		return;
	}
	if (json_array_size(arr) != r->n) {
		imp_fail(im, "%zu samples, but \"n\" is %zu", json_array_size(arr), r->n);
		return;
	}
	r->samples = malloc(r->n * sizeof(*r->samples));
	if (!r->samples) {
		imp_fail(im, "out of memory");
		return;
	}
	json_array_foreach(arr, i, v) {
		if (!json_is_number(v)) {
			imp_fail(im, "sample %zu is not a number", i + 1);
			return;
		}
		r->samples[i] = json_number_value(v);
		/* The harness refuses a sample that is not a positive time or rate. */
		if (!(r->samples[i] > 0)) {
			imp_fail(im, "sample %zu is %g, not positive", i + 1, r->samples[i]);
			return;
		}
	}
}

/*
 * The keys issue 12 added (replicas, where, drift, sentinel) are absent
 * from the exports of an older kbench of the same export version: absent
 * reads as "not known"; present, they are checked like the rest.
 */
static int imp_has(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return v && !json_is_null(v);
}

/*
 * The largest figure an import takes: 1e15 ns is eleven days, 1e15 MB/s or
 * operations a second no machine does; what is beyond is a hand edit.
 */
#define IMP_MAX_FIGURE 1e15
/* A run's machine description as JSON: this kbench's take 3 KiB. */
#define IMP_MAX_SYSINFO (64 << 10)
/* The smallest median: a millionth of any unit (1 fs in ns, 1 B/s in MB/s) no run measures. */
#define IMP_MIN_FIGURE 1e-6

/* Figures that cannot all be true: a hand edit, or a file damaged some other way. */
static void imp_consistent(struct imp *im, const struct result *r)
{
	int measured = r->status == RES_OK || r->status == RES_NOISY;

	/*
	 * Times, rates, spreads and their ratios: none of them can be below
	 * zero, and none reaches IMP_MAX_FIGURE (1e308 would print as 31
	 * digits in show and overflow summary's cells).
	 */
	for (size_t k = 0; k < field_nresult; k++) {
		const struct field *f = &field_result[k];
		double v;

		if (f->type != FIELD_REAL)
			continue;
		memcpy(&v, (const char *)r + f->off, sizeof(v));
		if (isfinite(v) && fabs(v) >= IMP_MAX_FIGURE) {
			imp_fail(im, "\"%s\" is %g, beyond any figure a benchmark gives (under %g)", f->key, v,
				 IMP_MAX_FIGURE);
			return;
		}
		if ((f->flags & FIELD_NONNEG) && v < 0) {
			imp_fail(im, "\"%s\" is %g, negative", f->key, v);
			return;
		}
	}
	if (!measured)
		return;
	if (!isfinite(r->median)) {
		imp_fail(im, "status \"%s\" but no median", result_status_name(r->status));
		return;
	}
	/* A cost or a rate: a measured one of 0, or a millionth of its unit, is a hand edit. */
	if (r->median < IMP_MIN_FIGURE) {
		imp_fail(im, "status \"%s\" but a median of %g, below any figure a benchmark gives "
			 "(at least %g)", result_status_name(r->status), r->median, IMP_MIN_FIGURE);
		return;
	}
	if ((isfinite(r->min) && r->median < r->min) || (isfinite(r->max) && r->median > r->max))
		imp_fail(im, "median %g is outside its min and max", r->median);
	else if ((isfinite(r->ci_low) && r->median < r->ci_low) ||
		 (isfinite(r->ci_high) && r->median > r->ci_high))
		imp_fail(im, "median %g is outside its confidence interval", r->median);
}

/*
 * The benchmark must be one this kbench knows, in its unit and direction:
 * a figure filed under a mistyped id would never be compared with anything,
 * and one in the wrong unit would be compared wrongly.  The catalogue knows
 * the ids beyond the registry's rows (contest.<load>, time.<name>).
 */
static void imp_known(struct imp *im, const struct result *r)
{
	enum bench_better better;
	const char *unit;

	if (!catalog_known(r->id, &unit, &better)) {
		imp_fail(im, "unknown benchmark \"%s\" (kbench list shows them)", r->id);
		return;
	}
	if (strcmp(r->unit, unit) != 0)
		imp_fail(im, "\"unit\" is \"%s\", but %s is measured in %s", r->unit, r->id, unit);
	else if (r->better != better)
		imp_fail(im, "\"better\" is \"%s\", but %s is better %s", bench_better_name(r->better),
			 r->id, bench_better_name(better));
}

/*
 * One of a result's fields (core/fields.h) from its key: null or, for one
 * an older kbench left out, absence where the field may say none.
 */
static void imp_field(struct imp *im, json_t *o, const struct field *f, void *obj)
{
	char *p = (char *)obj + f->off, name[32];
	json_t *v = json_object_get(o, f->key);
	double d;

	if ((f->flags & FIELD_OPTIONAL) && !v && f->type != FIELD_REAL)
		return;
	switch (f->type) {
	case FIELD_TEXT:
		imp_str(im, o, f->key, p, f->size, (f->flags & FIELD_EMPTY_NONE) != 0);
		if (!im->bad && (f->flags & FIELD_NOT_EMPTY) && !p[0])
			imp_fail(im, "\"%s\" is empty", f->key);
		break;
	case FIELD_REAL:
		d = (f->flags & FIELD_OPTIONAL) && !imp_has(o, f->key) ? (double)NAN
			: imp_num(im, o, f->key, !(f->flags & FIELD_NUMBER));
		/* null: not known (-1), as run --json writes it. */
		*(double *)(void *)p = (f->flags & FIELD_NEG_NONE) && isnan(d) ? -1 : d;
		break;
	case FIELD_SIZE:
		*(size_t *)(void *)p = (size_t)imp_int(im, o, f->key, f->lo, f->hi);
		break;
	case FIELD_U64:
		*(uint64_t *)(void *)p = (uint64_t)imp_int(im, o, f->key, f->lo, f->hi);
		break;
	case FIELD_INT:
		if ((f->flags & FIELD_ZERO_NONE) && !imp_has(o, f->key))
			return;
		*(int *)(void *)p = (int)((f->flags & FIELD_COPY) ?
			imp_int_why(im, o, f->key, f->lo, im->copies, " (\"parallel\")") :
			imp_int(im, o, f->key, f->lo, f->hi));
		break;
	case FIELD_BOOL:
		if (!json_is_boolean(v))
			imp_fail(im, "\"%s\" is not true or false", f->key);
		*(int *)(void *)p = json_is_true(v);
		break;
	case FIELD_BETTER:
		imp_str(im, o, f->key, name, sizeof(name), 0);
		if (!im->bad && strcmp(name, "lower") != 0 && strcmp(name, "higher") != 0)
			imp_fail(im, "\"better\" is \"%s\", not lower or higher", name);
		*(enum bench_better *)(void *)p = strcmp(name, "higher") == 0 ? BETTER_HIGHER
									 : BETTER_LOWER;
		break;
	case FIELD_STATUS:
		imp_str(im, o, f->key, name, sizeof(name), 0);
		if (!im->bad && result_status_parse(name, (enum result_status *)(void *)p) < 0)
			imp_fail(im, "unknown status \"%s\"", name);
		break;
	case FIELD_STOP:
		imp_str(im, o, f->key, name, sizeof(name), 0);
		if (!im->bad && result_stop_parse(name, (enum stop_reason *)(void *)p) < 0)
			imp_fail(im, "unknown stop \"%s\"", name);
		break;
	case FIELD_PLACE:
		*(enum placement *)(void *)p = PLACE_NA;
		if (json_is_null(v))
			break;
		imp_str(im, o, f->key, name, sizeof(name), 0);
		if (!im->bad && place_parse(name, (enum placement *)(void *)p) < 0)
			imp_fail(im, "unknown placement \"%s\"", name);
		break;
	}
}

/*
 * One record of rec's kind (core/fields.h) into obj from p, the i'th of
 * its list (from 1): each field as a result's are read, then what the
 * fields' flags promise of a real: a share from 0 to 1, never negative,
 * and never a figure no benchmark gives.
 */
static void imp_record(struct imp *im, json_t *p, const struct record *rec, size_t i, void *obj)
{
	if (!json_is_object(p)) {
		imp_fail(im, "%s %zu is not an object", rec->name, i);
		return;
	}
	snprintf(im->item, sizeof(im->item), "%s %zu", rec->name, i);
	for (size_t k = 0; k < rec->nfields && !im->bad; k++)
		imp_field(im, p, &rec->fields[k], obj);
	for (size_t k = 0; k < rec->nfields && !im->bad; k++) {
		const struct field *f = &rec->fields[k];
		double v;

		if (f->type != FIELD_REAL)
			continue;
		memcpy(&v, (const char *)obj + f->off, sizeof(v));
		if (isfinite(v) && fabs(v) >= IMP_MAX_FIGURE)
			imp_fail(im, "\"%s\" is %g, beyond any figure a benchmark gives (under %g)",
				 f->key, v, IMP_MAX_FIGURE);
		else if ((f->flags & FIELD_SHARE) && (v < 0 || v > 1))
			imp_fail(im, "\"%s\" is %g, not a share from 0 to 1", f->key, v);
		else if ((f->flags & FIELD_NONNEG) && v < 0)
			imp_fail(im, "\"%s\" is %g, negative", f->key, v);
	}
	im->item[0] = '\0';
}

/*
 * The list of rec's kind under its key in o, into a new array at *basep,
 * *n of them.  Absent or null it is none where optional (an older kbench
 * wrote none); want, unless SIZE_MAX, is how many it must hold.
 */
static void imp_records(struct imp *im, json_t *o, const struct record *rec, int optional,
			size_t want, void *basep, size_t *n)
{
	json_t *arr, *p;
	size_t i;
	char *base;

	if (optional && !imp_has(o, rec->key))
		return;
	if (!(arr = imp_get(im, o, rec->key, 1)))
		return;
	if (want != SIZE_MAX && json_array_size(arr) != want) {
		imp_fail(im, "\"%s\" has %zu entries, but \"n\" is %zu", rec->key,
			 json_array_size(arr), want);
		return;
	}
	if (json_array_size(arr) == 0)
		return;
	if (json_array_size(arr) > rec->max) {
		imp_fail(im, "\"%s\" has %zu entries, more than %zu", rec->key, json_array_size(arr),
			 rec->max);
		return;
	}
	if (!(base = calloc(json_array_size(arr), rec->size))) {
		imp_fail(im, "out of memory");
		return;
	}
	*(char **)basep = base;
	json_array_foreach(arr, i, p) {
		imp_record(im, p, rec, i + 1, base + i * rec->size);
		if (im->bad)
			return;
		(*n)++;
	}
}

/* Where each sample ran: absent or null, not known; present, one entry a sample. */
static void imp_where(struct imp *im, json_t *o, struct result *r)
{
	size_t n = 0;

	if (!imp_has(o, record_where.key))
		return;
	if (!r->samples) {
		imp_fail(im, "\"where\" without samples");
		return;
	}
	imp_records(im, o, &record_where, 1, r->n, &r->where, &n);
}

/* A timed job's "usage": absent for every other result; present, one entry a sample. */
static void imp_usage(struct imp *im, json_t *o, struct result *r)
{
	size_t n = 0;

	if (!imp_has(o, record_usage.key))
		return;
	if (!r->samples) {
		imp_fail(im, "\"usage\" without samples");
		return;
	}
	im->copies = r->parallel;
	imp_records(im, o, &record_usage, 1, r->n, &r->usage, &n);
}

static void imp_result(struct imp *im, json_t *o, struct result *r)
{
	memset(r, 0, sizeof(*r));
	if (!json_is_object(o)) {
		imp_fail(im, "not an object");
		return;
	}
	for (size_t k = 0; k < field_nresult && !im->bad; k++)
		if (!(field_result[k].flags & FIELD_DERIVED))
			imp_field(im, o, &field_result[k], r);
	if (im->bad)
		return;
	imp_known(im, r);
	if (im->bad)
		return;
	imp_values(im, o, r);
	result_values_upgrade(r);
	imp_records(im, o, &record_point, 0, SIZE_MAX, &r->points, &r->npoints);
	imp_samples(im, o, r);
	imp_records(im, o, &record_replica, 1, SIZE_MAX, &r->replicas, &r->nreplicas);
	imp_where(im, o, r);
	imp_usage(im, o, r);
	/* A distribution's histogram: absent from an older kbench's export, made again from its samples. */
	imp_records(im, o, &record_bucket, 1, SIZE_MAX, &r->buckets, &r->nbuckets);
	imp_consistent(im, r);
}

/* Results in the order of their instance: id, placement, copies, jobs. */
static int imp_result_cmp(const void *pa, const void *pb)
{
	const struct result *a = *(const struct result *const *)pa;
	const struct result *b = *(const struct result *const *)pb;
	int c = strcmp(a->id, b->id);

	if (c)
		return c;
	if (a->placement != b->placement)
		return a->placement < b->placement ? -1 : 1;
	if (a->parallel != b->parallel)
		return a->parallel < b->parallel ? -1 : 1;
	if (a->jobs != b->jobs)
		return a->jobs < b->jobs ? -1 : 1;
	/* Equal instances by position, so the message names the later one. */
	return a < b ? -1 : a > b;
}

/*
 * One instance measured twice in a run cannot be: a run measures each
 * instance once (its replicas are inside the one result), and the reports
 * key on it.  Sorted, not compared pairwise, so that a hostile file with a
 * million results costs a sort and not a trillion comparisons.
 */
static void imp_results_distinct(struct imp *im, const struct run_info *run, size_t idx)
{
	const struct result **v;

	if (run->nresults < 2)
		return;
	v = malloc(run->nresults * sizeof(*v));
	if (!v) {
		imp_fail(im, "out of memory");
		return;
	}
	for (size_t i = 0; i < run->nresults; i++)
		v[i] = &run->results[i];
	qsort(v, run->nresults, sizeof(*v), imp_result_cmp);
	for (size_t i = 1; i < run->nresults; i++) {
		const struct result *a = v[i - 1], *b = v[i];

		if (!result_same_instance(a, b))
			continue;
		snprintf(im->where, sizeof(im->where), "run %zu, result %zu (%.40s)", idx + 1,
			 (size_t)(b - run->results) + 1, b->id);
		imp_fail(im, "the same instance as result %zu (\"id\", \"placement\", \"parallel\" "
			 "and \"jobs\" alike)", (size_t)(a - run->results) + 1);
		break;
	}
	free(v);
}

static void imp_run(struct imp *im, json_t *o, size_t idx, struct run_info *run)
{
	json_t *results, *si, *res;
	time_t t0 = 0, t1 = 0;
	size_t i;

	snprintf(im->where, sizeof(im->where), "run %zu", idx + 1);
	if (!json_is_object(o)) {
		imp_fail(im, "not an object");
		return;
	}
	imp_uuid(im, o, "uuid", run->uuid, sizeof(run->uuid));
	imp_uuid(im, o, "set", run->set_uuid, sizeof(run->set_uuid));
	imp_str(im, o, "label", run->label, sizeof(run->label), 0);
	if (!im->bad && !run->label[0])
		imp_fail(im, "\"label\" is empty");
	imp_str(im, o, "host", run->host, sizeof(run->host), 0);
	imp_str(im, o, "os", run->os, sizeof(run->os), 0);
	imp_str(im, o, "started", run->started, sizeof(run->started), 0);
	if (!im->bad && parse_utc(run->started, &t0) < 0)
		imp_fail(im, "\"started\" is \"%s\", not a time as 2026-12-01T13:46:59Z", run->started);
	/* null: interrupted, as runs --json and export write it; "" is neither. */
	imp_str(im, o, "finished", run->finished, sizeof(run->finished), 1);
	if (!im->bad && json_is_string(json_object_get(o, "finished"))) {
		if (parse_utc(run->finished, &t1) < 0)
			imp_fail(im, "\"finished\" is \"%s\", not a time as 2026-12-01T13:46:59Z or null",
				 run->finished);
		else if (t1 < t0)
			imp_fail(im, "\"finished\" (%s) is before \"started\" (%s)", run->finished,
				 run->started);
	}
	run->mhz = imp_num(im, o, "mhz", 1);
	if (isnan(run->mhz))
		run->mhz = 0;
	else if (!im->bad && !(run->mhz > 0))
		imp_fail(im, "\"mhz\" is %g, not positive or null", run->mhz);
	si = json_object_get(o, "sysinfo");
	if (json_is_object(si)) {
		/*
		 * Stored as text, as `kbench run` stores it; compact is enough for
		 * a machine.  Copied out of jansson's counted heap, since the run
		 * outlives it and is freed with free().
		 */
		char *text = json_dumps(si, JSON_COMPACT);

		/* A machine is told in a few KiB: more is a crafted file each page would draw. */
		if (text && strlen(text) > IMP_MAX_SYSINFO) {
			imp_fail(im, "\"sysinfo\" is %zu bytes, more than a machine's description takes "
				 "(%d KiB)", strlen(text), IMP_MAX_SYSINFO >> 10);
			imp_free(text);
			return;
		}
		run->sysinfo_json = text ? strdup(text) : NULL;
		imp_free(text);
		if (!run->sysinfo_json)
			imp_fail(im, "out of memory");
	} else if (!json_is_null(si)) {
		imp_fail(im, "\"sysinfo\" is %s, not an object or null", si ? "of another type" : "missing");
	}
	imp_records(im, o, &record_sentinel, 1, SIZE_MAX, &run->sentinel, &run->nsentinel);
	results = imp_get(im, o, "results", 1);
	if (im->bad)
		return;
	run->results = calloc(json_array_size(results) + 1, sizeof(*run->results));
	if (!run->results) {
		imp_fail(im, "out of memory");
		return;
	}
	json_array_foreach(results, i, res) {
		json_t *id = json_object_get(res, "id");

		snprintf(im->where, sizeof(im->where), "run %zu, result %zu%s%.40s%s", idx + 1, i + 1,
			 json_is_string(id) ? " (" : "", json_is_string(id) ? json_string_value(id) : "",
			 json_is_string(id) ? ")" : "");
		/* Counted before filling, so run_info_free frees a half-read result too. */
		imp_result(im, res, &run->results[run->nresults++]);
		if (im->bad)
			return;
	}
	imp_results_distinct(im, run, idx);
}

/* Runs by uuid, for finding one given twice. */
static int imp_uuid_cmp(const void *pa, const void *pb)
{
	const struct run_info *a = *(const struct run_info *const *)pa;
	const struct run_info *b = *(const struct run_info *const *)pb;
	int c = strcmp(a->uuid, b->uuid);

	return c ? c : (a < b ? -1 : a > b);
}

/* A uuid names one run: two runs under it in one file, the file contradicts itself. */
static void imp_uuids_distinct(struct imp *im, const struct run_info *runs, size_t n)
{
	const struct run_info **v;

	if (n < 2)
		return;
	v = malloc(n * sizeof(*v));
	if (!v) {
		imp_fail(im, "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = &runs[i];
	qsort(v, n, sizeof(*v), imp_uuid_cmp);
	for (size_t i = 1; i < n; i++)
		if (strcmp(v[i - 1]->uuid, v[i]->uuid) == 0) {
			snprintf(im->where, sizeof(im->where), "run %zu", (size_t)(v[i] - runs) + 1);
			imp_fail(im, "uuid %s is also run %zu's", v[i]->uuid,
				 (size_t)(v[i - 1] - runs) + 1);
			break;
		}
	free(v);
}

/* The document, parsed with jansson's allocations counted; the runs, or -1. */
/*
 * The schema an export was written in (jsonw.h): 2 and after, "document":
 * "export" and "schema"; 1, the export's own "format" and "version".
 */
static int imp_schema(struct imp *im, json_t *root)
{
	const char *doc = json_string_value(json_object_get(root, "document"));
	const char *format = json_string_value(json_object_get(root, "format"));
	json_t *v;

	if (json_is_object(root) && doc && strcmp(doc, "export") == 0) {
		v = json_object_get(root, "schema");
		if (json_is_integer(v) && json_integer_value(v) > REPORT_JSON_SCHEMA) {
			imp_fail(im, "made by a newer kbench (JSON schema %lld, this kbench reads %d)",
				 (long long)json_integer_value(v), REPORT_JSON_SCHEMA);
			return -1;
		}
		return (int)imp_int(im, root, "schema", 2, REPORT_JSON_SCHEMA);
	}
	if (json_is_object(root) && format && strcmp(format, REPORT_EXPORT_FORMAT) == 0) {
		v = json_object_get(root, "version");
		if (json_is_integer(v) && json_integer_value(v) > 1) {
			imp_fail(im, "made by a newer kbench (export version %lld, this kbench reads 1)",
				 (long long)json_integer_value(v));
			return -1;
		}
		return (int)imp_int(im, root, "version", 1, 1);
	}
	if (json_is_object(root) && doc)
		imp_fail(im, "a kbench \"%s\" document, not an export (kbench export writes one)",
			 doc);
	else
		imp_fail(im, "not a kbench export (no \"document\": \"export\")");
	return -1;
}

/*
 * A schema 1 export's results in schema 2's shape, so that one reader
 * reads both: "where" was an object of four arrays ("t", "cpu",
 * "steal_ns", "replica"), now an array of one object a sample; a usage
 * entry's "status" is now "wait_status".  What is not in the old shape
 * (a column missing, columns of different lengths) is left for the reader
 * to refuse.  (The values in percent are renamed for the store too, by
 * result_values_upgrade.)
 */
static void imp_upgrade(json_t *root)
{
	static const char *const cols[] = { "t", "cpu", "steal_ns", "replica" };
	json_t *run, *res, *u;
	size_t i, j, k;

	json_array_foreach(json_object_get(root, "runs"), i, run) {
		json_array_foreach(json_object_get(run, "results"), j, res) {
			json_t *w = json_object_get(res, "where"), *a[4], *rows;
			size_t n = 0, c;

			json_array_foreach(json_object_get(res, "usage"), k, u)
				if (json_is_object(u) && !json_object_get(u, "wait_status") &&
				    json_object_get(u, "status")) {
					json_object_set(u, "wait_status", json_object_get(u, "status"));
					json_object_del(u, "status");
				}
			if (!json_is_object(w))
				continue;
			for (c = 0; c < 4; c++) {
				a[c] = json_object_get(w, cols[c]);
				if (!json_is_array(a[c]) || (c && json_array_size(a[c]) != n))
					break;
				n = json_array_size(a[c]);
			}
			if (c < 4 || !(rows = json_array()))
				continue;
			for (k = 0; k < n; k++) {
				json_t *o = json_object();

				for (c = 0; o && c < 4; c++)
					json_object_set(o, cols[c], json_array_get(a[c], k));
				json_array_append_new(rows, o);
			}
			json_object_set_new(res, "where", rows);
		}
	}
}

static int imp_document(struct imp *im, const char *buf, size_t len, struct run_info **runs_out)
{
	struct run_info *runs = NULL;
	json_error_t jerr;
	json_t *root, *arr, *v;
	size_t n = 0, i;

	/* Two keys of one name in an object: which one counts would be a guess. */
	root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		if (imp_tree_full)
			errbuf_set(im->err, "cannot import '%s': reading it would take more than %zu MiB "
				   "of memory (a file of many small values)", im->path,
				   IMP_TREE_BUDGET >> 20);
		else
			errbuf_set(im->err, "cannot import '%s': not valid JSON at line %d column %d: %s",
				   im->path, jerr.line, jerr.column, jerr.text);
		return -1;
	}
	if (imp_schema(im, root) == 1)
		imp_upgrade(root);
	if (im->bad)
		goto out;
	arr = imp_get(im, root, "runs", 1);
	if (im->bad)
		goto out;
	runs = calloc(json_array_size(arr) + 1, sizeof(*runs));
	if (!runs) {
		imp_fail(im, "out of memory");
		goto out;
	}
	json_array_foreach(arr, i, v) {
		/* Counted before filling, so a half-read run is freed too. */
		imp_run(im, v, i, &runs[n++]);
		if (im->bad)
			goto out;
	}
	imp_uuids_distinct(im, runs, n);
out:
	json_decref(root);
	if (im->bad) {
		for (i = 0; i < n; i++)
			run_info_free(&runs[i]);
		free(runs);
		return -1;
	}
	*runs_out = runs;
	return (int)n;
}

/*
 * The error line as it is safe to print: it quotes the file (a status, an
 * id, jansson's "near '...'"), and a file from someone else must not reach
 * the terminal with a newline or an escape sequence (utf8_escape).
 */
static int imp_refused(char *err)
{
	char raw[ERRBUF_LEN];

	memcpy(raw, err, ERRBUF_LEN);
	raw[ERRBUF_LEN - 1] = '\0';
	utf8_escape(err, ERRBUF_LEN, raw, -1);
	return -1;
}

int report_import_buf(const char *name, const char *buf, size_t len, struct run_info **runs_out,
		      size_t *nruns_out, char *err)
{
	struct imp im = { .path = name, .err = err };
	json_malloc_t old_malloc;
	json_free_t old_free;
	int n;

	*runs_out = NULL;
	*nruns_out = 0;
	if (len > REPORT_IMPORT_MAX_BYTES) {
		errbuf_set(err, "cannot import '%s': %.1f MiB, more than the %d MiB a file may hold "
			   "(export fewer runs a file: kbench export LABEL|RUN ...)", name,
			   (double)len / 1048576.0, REPORT_IMPORT_MAX_BYTES >> 20);
		return imp_refused(err);
	}
	json_get_alloc_funcs(&old_malloc, &old_free);
	json_set_alloc_funcs(imp_malloc, imp_free);
	imp_tree_used = 0;
	imp_tree_full = 0;
	n = imp_document(&im, buf, len, runs_out);
	json_set_alloc_funcs(old_malloc, old_free);
	if (n < 0)
		return imp_refused(err);
	*nruns_out = (size_t)n;
	return n;
}

/*
 * The whole of a file or of standard input, up to the limit and one byte
 * more (so that too much is seen without reading it all); NULL with err
 * filled.  A regular file is refused from its size, before any of it is read.
 */
static char *imp_slurp(const char *path, FILE *fp, size_t *len, char *err)
{
	size_t cap = 65536, n = 0;
	struct stat sb;
	char *buf = NULL, *more;

	if (fstat(fileno(fp), &sb) == 0) {
		if (S_ISDIR(sb.st_mode)) {
			errbuf_set(err, "cannot import '%s': is a directory", path);
			return NULL;
		}
		if (S_ISREG(sb.st_mode) && sb.st_size > REPORT_IMPORT_MAX_BYTES) {
			errbuf_set(err, "cannot import '%s': %.1f MiB, more than the %d MiB a file may "
				   "hold (export fewer runs a file: kbench export LABEL|RUN ...)", path,
				   (double)sb.st_size / 1048576.0, REPORT_IMPORT_MAX_BYTES >> 20);
			return NULL;
		}
		if (S_ISREG(sb.st_mode))
			cap = (size_t)sb.st_size + 1;
	}
	buf = malloc(cap);
	if (!buf)
		goto nomem;
	for (;;) {
		n += fread(buf + n, 1, cap - n, fp);
		if (n < cap) {
			if (!ferror(fp))
				break;
			errbuf_set(err, "cannot import '%s': %s", path, strerror(errno));
			free(buf);
			return NULL;
		}
		if (cap > REPORT_IMPORT_MAX_BYTES) {
			errbuf_set(err, "cannot import '%s': more than the %d MiB a file may hold "
				   "(export fewer runs a file: kbench export LABEL|RUN ...)", path,
				   REPORT_IMPORT_MAX_BYTES >> 20);
			free(buf);
			return NULL;
		}
		cap = cap > REPORT_IMPORT_MAX_BYTES / 2 ? (size_t)REPORT_IMPORT_MAX_BYTES + 1 : 2 * cap;
		more = realloc(buf, cap);
		if (!more) {
			free(buf);
			goto nomem;
		}
		buf = more;
	}
	*len = n;
	return buf;
nomem:
	errbuf_set(err, "cannot import '%s': out of memory", path);
	return NULL;
}

int report_import_json(const char *path, struct run_info **runs_out, size_t *nruns_out, char *err)
{
	size_t len = 0;
	char *buf;
	FILE *fp;
	int n;

	*runs_out = NULL;
	*nruns_out = 0;
	fp = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!fp) {
		errbuf_set(err, "cannot import '%s': %s", path,
			   errno == ENOENT ? "no such file" : errno == EACCES ? "permission denied" :
			   strerror(errno));
		return imp_refused(err);
	}
	buf = imp_slurp(path, fp, &len, err);
	if (fp != stdin)
		fclose(fp);
	if (!buf)
		return imp_refused(err);
	n = report_import_buf(path, buf, len, runs_out, nruns_out, err);
	free(buf);
	return n;
}

/* One run as export writes it, its label left out; malloc'd text, or NULL. */
static char *imp_run_text(const struct run_info *run)
{
	struct run_info copy = *run;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	copy.label[0] = '\0';
	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	if (report_export_json(f, &copy, 1) < 0) {
		fclose(f);
		free(text);
		return NULL;
	}
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The first key of a (an export's run or result) whose value b does not share. */
static const char *imp_first_change(json_t *a, json_t *b)
{
	const char *key;
	json_t *v;

	json_object_foreach(a, key, v)
		if (!json_equal(v, json_object_get(b, key)))
			return key;
	return NULL;
}

int report_run_differs(const struct run_info *a, const struct run_info *b, char *what, size_t size)
{
	char *ta = imp_run_text(a), *tb = imp_run_text(b);
	json_t *ja = NULL, *jb = NULL, *ra, *rb;
	const char *key;
	int rc = -1;

	snprintf(what, size, "content");
	if (!ta || !tb)
		goto out;
	if (strcmp(ta, tb) == 0) {
		rc = 0;
		goto out;
	}
	/* Different: parsed again only to say where, which a person needs to decide. */
	rc = 1;
	ja = json_loads(ta, 0, NULL);
	jb = json_loads(tb, 0, NULL);
	ra = json_array_get(json_object_get(ja, "runs"), 0);
	rb = json_array_get(json_object_get(jb, "runs"), 0);
	key = imp_first_change(ra, rb);
	if (!key)
		goto out;
	if (strcmp(key, "results") == 0) {
		json_t *la = json_object_get(ra, key), *lb = json_object_get(rb, key);
		size_t n = json_array_size(la), i;

		if (n != json_array_size(lb)) {
			snprintf(what, size, "number of results (%zu and %zu)", n, json_array_size(lb));
			goto out;
		}
		for (i = 0; i < n; i++) {
			json_t *xa = json_array_get(la, i), *xb = json_array_get(lb, i);
			const char *k = imp_first_change(xa, xb);

			const char *id = json_string_value(json_object_get(xa, "id"));

			if (k) {
				snprintf(what, size, "\"%s\" of result %zu (%.40s)", k, i + 1,
					 id ? id : "?");
				goto out;
			}
		}
	}
	snprintf(what, size, "\"%s\"", key);
out:
	json_decref(ja);
	json_decref(jb);
	free(ta);
	free(tb);
	return rc;
}
