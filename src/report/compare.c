/*
 * kbench compare: the same benchmark instances measured under a base and
 * one or more others (labels or runs), side by side, with the change and
 * whether it is real.
 *
 * An instance is (id, placement, copies): a pipe round trip on one CPU and
 * across two are different things and are never compared with each other.
 * A side's figure is the median of its runs' medians, and its interval is
 * the 95% CI of that median (order statistics, so with fewer than 6 runs
 * it is their whole range), or with one run that run's own CI.
 *
 * Which test: with 3 runs or more a side, the logarithms of the run
 * levels (runs are the independent repetitions: samples within one run
 * share its warm caches and its neighbours, and would call every
 * difference real), by Welch's t.  Where every replica has the sentinel's
 * adds measured around it, each replica is first moved to equal adds
 * along the slope its figure follows them within runs (cmp_adjust: a
 * replica's figure follows the machine's clock, which the adds measured
 * and no kernel change touches, and the machine's speed moves between
 * the sides), and a run's level is the median of its replicas moved;
 * else, where every run has a timeline, by analysis of covariance on each
 * run's median adds, else on the run medians as they are.  At equal adds,
 * the difference and the change printed are those.  A run's level is the
 * median of its replicas within 15% of one level both sides share
 * (stats_common_state), which for most figures is all of them (the run's
 * median): where a figure's replicas fall in
 * states far apart (the machine's: on this VM every figure between two
 * processes runs ~40% slower for tens of seconds at a time, all of them
 * together, and a run's median then depends on how many of its replicas
 * fell in each, 5-12% run to run), the runs are compared in the state both
 * sides share, and the change printed is that state's.  With fewer,
 * Welch's t on the logarithms of the replicas' medians of all its runs
 * (each replica is a fresh process at another moment of its run, the
 * level where a shared machine's variation is: issue 12), marked ~ as the
 * weaker evidence it is (not adjusted: the replicas' sentinels say how the
 * machine moved within a run, not how far one run's level sits from the
 * other's, which only more runs show); for runs measured before
 * replicas, Mann-Whitney on the samples, marked ~ too.  The p-values
 * of one table are adjusted together (Benjamini-Hochberg: a table of fifty
 * rows corrected with Holm would need p < 0.001 a row, which 3 runs a side
 * almost never give, see tests/unit/test_signif.c).  A change is marked
 * significant when its adjusted p is below 0.05 and it is at least
 * --threshold plus, unless it was taken at equal adds, how far the
 * machine itself moved between the sides (the sentinel's dependent adds,
 * which no kernel change touches); with --as-measured (a machine whose
 * clock the kernel sets) nothing is taken at equal adds nor the machine's
 * move added to the bar; on
 * samples, also only when neither side missed its precision, since samples
 * of one block understate the variation a noisy figure has.
 *
 * The table is built once (report_compare_build) and then written as text
 * or as JSON; both take a section's closing figures from cmp_tally, so the
 * two can never disagree.  Nothing here reads the database or measures.
 */
#include "report/compare.h"
#include "report/fmt.h"
#include "report/loose.h"
#include "report/jsonw.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "report/html.h"
#include "report/model.h"
#include "report/svg.h"
#include "core/catalog.h"
#include "stats/stats.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* The false discovery rate a table is held to (the text's header spells it out). */
#define CMP_ALPHA 0.05

/*
 * The sections of the registry's rows, in lmbench's order; an id goes to the
 * first that matches.  The catalogue's kinds (contest's, timed jobs) follow
 * them, a section each in the catalogue's order, then "Other".
 */
static const struct {
	const char *title;
	const char *id;		/* its tables' name in the page and the JSON */
	const char *prefixes[6];
	/* 1: each row ends with its unit, as the AIM9 comparisons people
	   scripted did (test, base, new, %diff, unit): its rows' units differ. */
	int unit_column;
} cmp_sections[] = {
	{ "Processor clock (MHz)", "cpu", { "cpu." }, 0 },
	{ "Processor, processes (us)", "proc", { "sys.", "sig.", "proc." }, 0 },
	{ "System call rates (calls/s)", "rates", { "rate." }, 0 },
	{ "Context switching (us)", "ctx", { "ctx." }, 0 },
	{ "Local communication latencies (us)", "ipc", { "ipc.pipe.lat", "ipc.unix.lat", "ipc.udp.lat",
						  "ipc.tcp.lat", "ipc.rpc_", "ipc.tcp.connect" }, 0 },
	{ "File & VM latencies (us)", "fsvm", { "fs.create", "fs.delete", "vm.mmap", "vm.prot",
					"vm.page" }, 0 },
	/* Every id ending in .bw, whatever its family: see cmp_section_of. */
	{ "Bandwidths (MB/s)", "bw", { NULL }, 0 },
	{ "Memory latencies (ns)", "memlat", { "mem.lat." }, 0 },
	{ "AIM Suite IX (operations per second, each in its unit)", "aim9", { "aim9." }, 1 },
};

#define CMP_SECTION_BW 6

/* The last section, "Other", for the ids no section claims. */
static size_t cmp_section_other(void)
{
	return NELEM(cmp_sections) + catalog_count();
}

/* A row's section title. */
static const char *cmp_section_title(size_t sec)
{
	if (sec < NELEM(cmp_sections))
		return cmp_sections[sec].title;
	if (sec < cmp_section_other())
		return catalog_at(sec - NELEM(cmp_sections))->title;
	return "Other";
}

/* A section's short name: "proc"; a kind's is its prefix without the dot. */
static void cmp_section_id(size_t sec, char *buf, size_t size)
{
	if (sec < NELEM(cmp_sections))
		snprintf(buf, size, "%s", cmp_sections[sec].id);
	else if (sec < cmp_section_other())
		snprintf(buf, size, "%.*s", (int)strcspn(catalog_at(sec - NELEM(cmp_sections))->prefix, "."),
			 catalog_at(sec - NELEM(cmp_sections))->prefix);
	else
		snprintf(buf, size, "other");
}

static size_t cmp_section_of(const char *id)
{
	const struct catalog_kind *kind = catalog_prefixed(id);
	size_t len = strlen(id);

	/* A kind's ids are its section's whatever they end in: time.x.bw is a job's time. */
	if (kind)
		for (size_t k = 0; k < catalog_count(); k++)
			if (catalog_at(k) == kind)
				return NELEM(cmp_sections) + k;
	/* Bandwidths by their unit's suffix, before the prefixes (mem., vm.mmap) claim them. */
	if (len > 3 && strcmp(id + len - 3, ".bw") == 0)
		return CMP_SECTION_BW;
	for (size_t s = 0; s < NELEM(cmp_sections); s++)
		for (size_t k = 0; k < NELEM(cmp_sections[s].prefixes) && cmp_sections[s].prefixes[k]; k++)
			if (strncmp(id, cmp_sections[s].prefixes[k],
				    strlen(cmp_sections[s].prefixes[k])) == 0)
				return s;
	return cmp_section_other();
}

static int cmp_usable(const struct result *r)
{
	return (r->status == RES_OK || r->status == RES_NOISY) && isfinite(r->median) &&
	       r->median > 0 && r->npoints == 0;
}

/* Appending to a growing array of doubles; 0, or -1 without memory. */
static int cmp_push(double **v, size_t *n, size_t *cap, const double *add, size_t nadd)
{
	if (*n + nadd > *cap) {
		size_t want = 2 * (*n + nadd);
		double *more = realloc(*v, want * sizeof(*more));

		if (!more)
			return -1;
		*v = more;
		*cap = want;
	}
	memcpy(*v + *n, add, nadd * sizeof(*add));
	*n += nadd;
	return 0;
}

/*
 * The median of the finite positive values of one operation (user: the
 * adds, else getppid) over the timelines of runs[0..n-1]; NaN with none.
 */
static double cmp_timeline_median(const struct run_info *runs, size_t n, int user)
{
	size_t nv = 0, cap = 0;
	double *v = NULL, med = (double)NAN;
	struct stats_summary ss;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; runs[i].sentinel && k < runs[i].nsentinel; k++) {
			const struct sentinel_point *p = &runs[i].sentinel[k];
			double x = user ? p->user_ns : p->sys_ns;

			if (isfinite(x) && x > 0 && cmp_push(&v, &nv, &cap, &x, 1) < 0) {
				free(v);
				return (double)NAN;
			}
		}
	if (nv && stats_summarize(v, nv, &ss) == 0)
		med = ss.median;
	free(v);
	return med;
}

/* A side's figures for one instance, gathered over its runs. */
struct cmp_data {
	double *meds;			/* the runs' medians, c->nruns of them */
	double *adds;			/* each run's sentinel adds (median), NaN none */
	double *samples, *reps;		/* every run's samples, every run's replica medians */
	double *repx;			/* beside reps, each replica's sentinel adds, NaN none
					   (nrepx is always nreps: cmp_push's own count) */
	size_t *repk;			/* how many of reps each run has, in order */
	size_t ns, nreps, scap, rcap, nrepx, xcap;
};

static void cmp_data_free(struct cmp_data *d)
{
	free(d->meds);
	free(d->adds);
	free(d->repk);
	free(d->samples);
	free(d->reps);
	free(d->repx);
}

/*
 * Gather one side's figures for the instance of `key` into d: the run
 * medians and each run's sentinel adds, the samples and the replica
 * medians of all runs, malloc'd for the caller to free, even on failure.
 * A figure the side does not have stays NaN, so that a reader of an absent
 * cell finds no number rather than a zero.  0, or -1 without memory.
 */
static int cmp_gather(const struct report_cmp_side *side, const double *run_adds,
		      const struct result *key, struct report_cmp_cell *c, struct cmp_data *d)
{
	const double none = (double)NAN;
	double **meds = &d->meds;
	const char *set = NULL;

	*c = (struct report_cmp_cell){ .median = none, .lo = none, .hi = none, .change = none,
				       .ratio = none, .ratio_lo = none, .ratio_hi = none,
				       .p = none, .p_adj = none, .slope = none, .df = none,
				       .detectable = none, .verdict = CMP_CANNOT_TELL };
	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < side->nruns; i++)
		for (size_t j = 0; j < side->runs[i].nresults; j++) {
			const struct result *r = &side->runs[i].results[j];

			if (!result_same_instance(r, key) || !cmp_usable(r))
				continue;
			double *m = realloc(*meds, (c->nruns + 1) * sizeof(*m));
			if (m)
				*meds = m;
			double *a = m ? realloc(d->adds, (c->nruns + 1) * sizeof(*a)) : NULL;
			if (a)
				d->adds = a;
			size_t *nk = a ? realloc(d->repk, (c->nruns + 1) * sizeof(*nk)) : NULL;
			if (nk)
				d->repk = nk;
			if (!m || !a || !nk)
				return -1;
			a[c->nruns] = run_adds[i];
			nk[c->nruns] = r->replicas ? r->nreplicas : 0;
			m[c->nruns++] = r->median;
			/* The runs of a set are stored one after the other. */
			if (!set || strcmp(set, side->runs[i].set_uuid) != 0) {
				set = side->runs[i].set_uuid;
				c->sets++;
			}
			if (r->status == RES_NOISY) {
				struct report_spread sp = report_run_spread(&side->runs[i]);

				c->noisy |= report_loose(r, &sp);
			}
			c->lo = r->ci_low;
			c->hi = r->ci_high;
			if (r->samples && r->n &&
			    cmp_push(&d->samples, &d->ns, &d->scap, r->samples, r->n) < 0)
				return -1;
			for (size_t k = 0; r->replicas && k < r->nreplicas; k++)
				if (cmp_push(&d->reps, &d->nreps, &d->rcap, &r->replicas[k].median, 1) < 0 ||
				    cmp_push(&d->repx, &d->nrepx, &d->xcap, &r->replicas[k].sentinel_user,
					     1) < 0)
					return -1;
		}
	if (c->nruns == 0)
		return 0;
	c->present = 1;
	if (c->nruns == 1) {
		c->median = (*meds)[0];
		return 0;
	}
	struct stats_summary ss;
	if (stats_summarize(*meds, c->nruns, &ss) < 0)
		return -1;
	c->median = ss.median;
	c->lo = ss.ci_low;
	c->hi = ss.ci_high;
	return 0;
}

/*
 * The window of the machine's states (stats_common_state): 15%, because
 * here they are 35-45% apart and each a few % wide, and a 5-10% change
 * must stay inside it.
 */
#define CMP_STATE_WIDTH 0.15

/* The runs' levels a test takes, a side each; with cmp_state, those in the common state. */
struct cmp_levels {
	const double *meds[2], *adds[2];
	size_t n[2];
	double *buf;			/* cmp_state's, to free */
};

/*
 * The runs compared in the common state (report/compare.c's top says
 * why), when their replicas say there are states: every run has replicas,
 * some lie outside the window (else each level is the run's median and the
 * test the plain one), 3 runs a side have a level inside, and the medians
 * moved by less than twice the window (a change that large would put one
 * side's fast state where the other's slow one is; the medians' test sees
 * it plainly).  1 with lv and the cell's counts set, else 0.
 */
static int cmp_state(const struct report_cmp_cell *base, const struct cmp_data *b,
		     struct report_cmp_cell *o, const struct cmp_data *d, int lower,
		     struct cmp_levels *lv)
{
	const struct report_cmp_cell *cell[2] = { base, o };
	const struct cmp_data *data[2] = { b, d };
	struct stats_state st;
	int used = 0;

	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < cell[s]->nruns; i++)
			if (!data[s]->repk[i])
				return 0;
	if (!(fabs(log(o->median / base->median)) < log1p(2 * CMP_STATE_WIDTH)) ||
	    stats_common_state(b->reps, b->repk, base->nruns, d->reps, d->repk, o->nruns, lower,
			       CMP_STATE_WIDTH, &st) < 0)
		return 0;
	if (st.in < st.all && st.ha >= 3 && st.hb >= 3 &&
	    (lv->buf = malloc(2 * (st.ha + st.hb) * sizeof(*lv->buf))) != NULL) {
		double *lev = lv->buf, *adds = lv->buf + st.ha + st.hb;
		const double *from[2] = { st.la, st.lb };

		for (int s = 0; s < 2; s++) {
			lv->meds[s] = lev;
			lv->adds[s] = adds;
			lv->n[s] = 0;
			for (size_t i = 0; i < cell[s]->nruns; i++)
				if (isfinite(from[s][i])) {
					*lev++ = from[s][i];
					*adds++ = data[s]->adds[i];
					lv->n[s]++;
				}
		}
		o->state_in = st.in;
		o->state_all = st.all;
		used = 1;
	}
	stats_state_free(&st);
	return used;
}

/* Both sides' figures with every replica taken at equal adds (cmp_adjust). */
struct cmp_adjusted {
	struct cmp_data side[2];	/* shallow copies, reps and meds adjusted */
	double slope;
	double *buf;			/* cmp_adjust's, to free */
};

/*
 * Every replica's figure taken at equal machine speed (the top of the file
 * says why): on a shared machine a replica's figure follows the clock the
 * sentinel's adds measured around it (r 0.5 to 0.85 within a run here for
 * the system calls, the signals, the rates: bench/replica_adds.py), and the machine's speed moves
 * between one side's runs and the other's.  The slope is the one within
 * runs, both sides pooled (stats_within_slope), so that neither a side's
 * change nor a run's own level shapes it, and sides with nothing between
 * them stay exchangeable; a replica's figure is moved along it to the
 * median adds of all, and a run's level is the median of its replicas
 * moved.  Only where every replica has its adds and every run at least 3
 * replicas (else 0, nothing changed); 1 with adj filled.
 */
static int cmp_adjust(const struct report_cmp_cell *base, const struct cmp_data *b,
		      const struct report_cmp_cell *o, const struct cmp_data *d,
		      struct cmp_adjusted *adj)
{
	const struct report_cmp_cell *cell[2] = { base, o };
	const struct cmp_data *data[2] = { b, d };
	size_t n = b->nreps + d->nreps, nr = base->nruns + o->nruns, at = 0, r = 0;
	double *ly, *lx, *moved, *meds, *scratch, x0;
	size_t *k;

	memset(adj, 0, sizeof(*adj));
	if (base->nruns < 3 || o->nruns < 3)
		return 0;
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < cell[s]->nruns; i++)
			if (data[s]->repk[i] < 3)
				return 0;
		for (size_t j = 0; j < data[s]->nreps; j++)
			if (!(data[s]->reps[j] > 0 && isfinite(data[s]->reps[j]) &&
			      data[s]->repx[j] > 0 && isfinite(data[s]->repx[j])))
				return 0;
	}
	adj->buf = malloc((4 * n + nr) * sizeof(*adj->buf) + nr * sizeof(*k));
	if (!adj->buf)
		return 0;
	ly = adj->buf;
	lx = ly + n;
	moved = lx + n;
	scratch = moved + n;
	meds = scratch + n;
	k = (size_t *)(meds + nr);
	for (int s = 0; s < 2; s++) {
		for (size_t j = 0; j < data[s]->nreps; j++, at++) {
			ly[at] = log(data[s]->reps[j]);
			lx[at] = log(data[s]->repx[j]);
		}
		for (size_t i = 0; i < cell[s]->nruns; i++)
			k[r++] = data[s]->repk[i];
	}
	if (stats_within_slope(ly, lx, k, nr, &adj->slope) < 0) {
		free(adj->buf);
		adj->buf = NULL;
		return 0;
	}
	memcpy(scratch, lx, n * sizeof(*scratch));
	x0 = stats_median_sort(scratch, n);
	for (size_t j = 0; j < n; j++)
		moved[j] = exp(ly[j] - adj->slope * (lx[j] - x0));
	at = 0;
	for (size_t i = 0; i < nr; at += k[i++]) {
		memcpy(scratch, moved + at, k[i] * sizeof(*scratch));
		meds[i] = stats_median_sort(scratch, k[i]);
	}
	for (int s = 0; s < 2; s++) {
		adj->side[s] = *data[s];
		adj->side[s].reps = moved + (s ? b->nreps : 0);
		adj->side[s].meds = meds + (s ? base->nruns : 0);
	}
	return 1;
}

/* Replica medians measured in pairs (cmp_pairs): a[i] beside b[i]. */
struct cmp_pairs {
	double *a, *b;
	size_t n, cap;
};

/*
 * The pairs of one instance between the base and another side: replicas
 * of the same round (their index) in two runs of one set under two labels,
 * which is what kbench ab stores (a --runs set is one label, measured run
 * after run, so its runs are never paired).  0, or -1 without memory.
 */
static int cmp_pairs(const struct report_cmp_side *base, const struct report_cmp_side *other,
		     const struct result *key, struct cmp_pairs *pp)
{
	memset(pp, 0, sizeof(*pp));
	for (size_t i = 0; i < base->nruns; i++)
		for (size_t j = 0; j < other->nruns; j++) {
			const struct run_info *ra = &base->runs[i], *rb = &other->runs[j];
			const struct result *x = NULL, *y = NULL;

			if (!ra->set_uuid[0] || strcmp(ra->set_uuid, rb->set_uuid) != 0 ||
			    strcmp(ra->label, rb->label) == 0)
				continue;
			for (size_t k = 0; k < ra->nresults && !x; k++)
				if (result_same_instance(&ra->results[k], key) && cmp_usable(&ra->results[k]))
					x = &ra->results[k];
			for (size_t k = 0; k < rb->nresults && !y; k++)
				if (result_same_instance(&rb->results[k], key) && cmp_usable(&rb->results[k]))
					y = &rb->results[k];
			for (size_t k = 0; x && y && x->replicas && y->replicas &&
					   k < x->nreplicas && k < y->nreplicas; k++) {
				if (pp->n == pp->cap) {
					size_t cap = pp->cap ? 2 * pp->cap : 16;
					double *a = realloc(pp->a, cap * sizeof(*a)), *b;

					if (!a)
						return -1;
					pp->a = a;
					if (!(b = realloc(pp->b, cap * sizeof(*b))))
						return -1;
					pp->b = b;
					pp->cap = cap;
				}
				pp->a[pp->n] = x->replicas[k].median;
				pp->b[pp->n++] = y->replicas[k].median;
			}
		}
	return 0;
}

int report_compare_sittings(const struct report_cmp_side *hist, const struct result *key,
			    enum result_level level, struct stats_sittings *st)
{
	size_t n = hist ? hist->nruns : 0, nsit = 0, at = 0;
	double *val = NULL, *x = NULL;
	size_t *sid = NULL, *nper = NULL, *cond = NULL, *first = NULL;
	int rc = -1;

	memset(st, 0, sizeof(*st));
	if (n == 0)
		return 0;
	val = malloc(n * sizeof(*val));
	x = malloc(n * sizeof(*x));
	sid = malloc(n * sizeof(*sid));
	nper = calloc(n, sizeof(*nper));
	cond = malloc(n * sizeof(*cond));
	first = malloc(n * sizeof(*first));	/* each sitting's first run */
	if (!val || !x || !sid || !nper || !cond || !first)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const struct run_info *run = &hist->runs[i];
		const struct result *r = NULL;
		size_t j;

		for (size_t k = 0; k < run->nresults && !r; k++)
			if (result_same_instance(&run->results[k], key) &&
			    cmp_usable(&run->results[k]))
				r = &run->results[k];
		if (!r)
			continue;
		for (j = 0; j < nsit; j++)
			if (!strcmp(hist->runs[first[j]].label, run->label) &&
			    !strcmp(hist->runs[first[j]].set_uuid, run->set_uuid))
				break;
		if (j == nsit) {
			first[nsit] = i;
			cond[nsit] = nsit;
			for (size_t c = 0; c < nsit; c++)
				if (!strcmp(hist->runs[first[c]].label, run->label)) {
					cond[nsit] = cond[c];
					break;
				}
			nsit++;
		}
		val[at] = result_level(r, level);
		sid[at++] = j;
		nper[j]++;
	}
	/* Grouped by sitting, as stats_sittings reads them. */
	for (size_t j = 0, o = 0; j < nsit; j++)
		for (size_t i = 0; i < at; i++)
			if (sid[i] == j)
				x[o++] = val[i];
	/* A figure no run could hold (imported) teaches nothing: none learnt. */
	if (stats_sittings(x, nper, cond, nsit, st) < 0)
		memset(st, 0, sizeof(*st));
	rc = 0;
out:
	free(val);
	free(x);
	free(sid);
	free(nper);
	free(cond);
	free(first);
	return rc;
}

/* Whether two sides share a sitting (the two labels of one ab session): nothing between them. */
static int cmp_same_sitting(const struct report_cmp_side *a, const struct report_cmp_side *b)
{
	for (size_t i = 0; i < a->nruns; i++)
		for (size_t j = 0; j < b->nruns; j++)
			if (a->runs[i].set_uuid[0] &&
			    !strcmp(a->runs[i].set_uuid, b->runs[j].set_uuid))
				return 1;
	return 0;
}

/*
 * The test of other against base for one instance: fills test and p, and
 * with Welch the ratio of geometric means and its 95% CI (no ratio comes
 * from Mann-Whitney, whose U says which side is larger, not by how much).
 * lower: the unit's better direction, for the states' window; measured:
 * the figures as they are, never at equal adds (the adds' own row, or
 * --as-measured).
 */
static void cmp_test(struct report_cmp_cell *base, const struct cmp_data *b,
		     struct report_cmp_cell *o, const struct cmp_data *d, int lower, int measured,
		     const struct cmp_pairs *pp, const struct stats_sittings *sit)
{
	struct stats_welch w;
	struct stats_mw mw;
	int test = CMP_TEST_NONE, state = 0;

	o->p = o->ratio = o->ratio_lo = o->ratio_hi = o->slope = o->df = (double)NAN;
	o->test = CMP_TEST_NONE;
	o->state_in = o->state_all = 0;
	o->pairs = o->pairs_all = 0;
	o->sitting_var = o->sitting_var_hi = 0;
	/*
	 * Measured in pairs (kbench ab): the pairs' ratios, whose machine moves
	 * cancel, those a jump of the machine split left out, by Student's t
	 * on their logarithms; the change their geometric mean, the sentinel not consulted
	 * (a condition that slows system calls moves it too).
	 */
	if (pp->n >= 3) {
		size_t kept = stats_pairs_within(pp->a, pp->b, pp->n, CMP_STATE_WIDTH);

		if (stats_paired_log(pp->a, pp->b, kept, &w) < 0)
			kept = 0;
		if (kept >= 3) {
			o->p = w.p;
			o->test = CMP_TEST_PAIRED;
			o->df = (double)kept - 1;
			o->pairs = kept;
			o->pairs_all = pp->n;
			o->ratio = exp(w.diff);
			o->ratio_lo = exp(w.diff_lo);
			o->ratio_hi = exp(w.diff_hi);
			o->change = o->ratio - 1;
			return;
		}
	}

	struct cmp_adjusted adj = { .buf = NULL };
	int adjusted = !measured && cmp_adjust(base, b, o, d, &adj);
	const struct cmp_data *tb = adjusted ? &adj.side[0] : b, *td = adjusted ? &adj.side[1] : d;
	struct cmp_levels lv = { { tb->meds, td->meds }, { b->adds, d->adds },
				 { base->nruns, o->nruns }, NULL };

	if (base->nruns >= 3 && o->nruns >= 3)
		state = cmp_state(base, tb, o, td, lower, &lv);
	/*
	 * Replicas at equal adds: Welch's on their runs' levels, not the
	 * covariance analysis on top, whose slope between runs would be taken
	 * where the machine's move and the sides' difference coincide (every
	 * run of one side after the other's), and cost it most of its power.
	 * stats_ancova_log refuses a run without adds (NaN): Welch's then.
	 */
	if (adjusted && lv.n[0] >= 3 && lv.n[1] >= 3 &&
	    stats_welch_log(lv.meds[0], lv.n[0], lv.meds[1], lv.n[1], &w) == 0) {
		test = CMP_TEST_WELCH_ADJUSTED;
		o->slope = adj.slope;
	} else if (!measured && lv.n[0] >= 3 && lv.n[1] >= 3 &&
	    stats_ancova_log(lv.meds[0], lv.adds[0], lv.n[0], lv.meds[1], lv.adds[1], lv.n[1], &w) == 0)
		test = CMP_TEST_ANCOVA_RUNS;
	else if (lv.n[0] >= 3 && lv.n[1] >= 3 &&
		 stats_welch_log(lv.meds[0], lv.n[0], lv.meds[1], lv.n[1], &w) == 0)
		test = CMP_TEST_WELCH_RUNS;
	else if (b->nreps >= 3 && d->nreps >= 3 &&
		 stats_welch_log(b->reps, b->nreps, d->reps, d->nreps, &w) == 0)
		test = CMP_TEST_WELCH_REPLICAS;
	free(lv.buf);
	free(adj.buf);
	if (test != CMP_TEST_NONE) {
		/*
		 * Sides from different sittings differ by what the machine did
		 * between them too, which neither side's runs saw: the host's
		 * history says how much (each side's mean over its sittings).
		 */
		if (sit && sit->tau2_hi > 0 && base->sets && o->sets) {
			double per = 1.0 / (double)base->sets + 1.0 / (double)o->sets;

			o->sitting_var = sit->tau2 * per;
			o->sitting_var_hi = sit->tau2_hi * per;
			stats_widen(&w, o->sitting_var, sit->df);
		}
		o->p = w.p;
		o->test = test;
		o->df = w.df;
		o->ratio = exp(w.diff);
		o->ratio_lo = exp(w.diff_lo);
		o->ratio_hi = exp(w.diff_hi);
		/*
		 * The change is the test's own estimate where the medians' is not
		 * the one tested: in the common state (the medians mix two states)
		 * and at equal machine speed (the medians' includes the machine's move).
		 */
		if (!state || test == CMP_TEST_WELCH_REPLICAS)
			o->state_in = o->state_all = 0;
		if (o->state_all || test == CMP_TEST_ANCOVA_RUNS || test == CMP_TEST_WELCH_ADJUSTED)
			o->change = o->ratio - 1;
	} else if (b->ns >= 2 && d->ns >= 2 &&
		   stats_mann_whitney(b->samples, b->ns, d->samples, d->ns, &mw) == 0) {
		o->p = mw.p;
		o->test = CMP_TEST_MW_SAMPLES;
		o->state_in = o->state_all = 0;
	}
}

void report_compare_machine(const struct report_cmp_side *sides, size_t nsides,
			    struct report_cmp_machine *m)
{
	for (size_t s = 0; s < nsides; s++) {
		m[s].sys_ns = cmp_timeline_median(sides[s].runs, sides[s].nruns, 0);
		m[s].user_ns = cmp_timeline_median(sides[s].runs, sides[s].nruns, 1);
		m[s].sys_shift = m[s].sys_ns / m[0].sys_ns - 1;
		m[s].user_shift = m[s].user_ns / m[0].user_ns - 1;
	}
}

/*
 * A figure measured at a cache level the curve detected (its value
 * "detected", mem.lat.l1 to l3) means the same thing in two runs only if
 * they found the level at about the same size: a run that saw two levels
 * instead of three calls the L3 its "L2".  True when the usable runs of
 * all sides found it more than 2x apart.
 */
static int cmp_levels_differ(const struct report_cmp_side *sides, size_t nsides,
			     const struct result *key)
{
	double lo = INFINITY, hi = 0;

	for (size_t s = 0; s < nsides; s++)
		for (size_t i = 0; i < sides[s].nruns; i++)
			for (size_t j = 0; j < sides[s].runs[i].nresults; j++) {
				const struct result *r = &sides[s].runs[i].results[j];
				const struct bench_value *v;

				if (!result_same_instance(r, key) || !cmp_usable(r))
					continue;
				v = result_value(r, "detected");
				if (!v || !(v->num > 0))
					continue;
				lo = fmin(lo, v->num);
				hi = fmax(hi, v->num);
			}
	return hi > 2 * lo;
}

/* What a cell's test compared, a side: rounds for pairs, replicas for replicas, else runs. */
static size_t cmp_count(const struct report_cmp_cell *base, const struct report_cmp_cell *o)
{
	if (o->test == CMP_TEST_PAIRED)
		return o->pairs;
	if (o->test == CMP_TEST_WELCH_REPLICAS)
		return 0;
	return base->nruns < o->nruns ? base->nruns : o->nruns;
}

/*
 * The change a cell's comparison would mark 80% of the time (report.h),
 * and its verdict.  The test's estimate has the spread se its 95%
 * interval says (half-width t.975 se), with the spread between sittings
 * at its estimate; the estimate's own spread may be as wide as se_true,
 * with that spread at its upper bound, since a few sittings that happened
 * to agree say little of the next.  A change is marked once the estimate
 * clears the interval at the row's level alpha and the bar; in the
 * logarithms, where the tests work, the bar the larger way (a fall of
 * 5% is a larger step than a rise of 5%), the answer back as a rise.
 * Unchanged: not marked, and the estimate's 95% interval, se_true wide,
 * inside +-threshold: a change of the threshold is ruled out, as "not
 * marked" alone never says.  needed and floor_bound from n, the count its
 * test compared a side.  NaN and cannot tell without an interval.
 */
static void cmp_detectable(struct report_cmp_cell *o, double bar, double threshold, double alpha,
			   size_t n)
{
	double df = isfinite(o->df) && o->df >= 1 ? o->df : 1e6, se, se_true, d, h, lr, runs, room,
	       want;

	o->needed = 0;
	o->floor_bound = 0;
	o->detectable = (double)NAN;
	o->verdict = o->significant ? CMP_CHANGED : CMP_CANNOT_TELL;
	if (!(o->ratio_lo > 0) || !(o->ratio_hi > 0) || !isfinite(o->ratio_lo) ||
	    !isfinite(o->ratio_hi))
		return;
	se = (log(o->ratio_hi) - log(o->ratio_lo)) / 2 / gsl_cdf_tdist_Qinv(0.025, df);
	se_true = sqrt(se * se - o->sitting_var + o->sitting_var_hi);
	o->detectable = expm1(stats_detectable_at(se, se_true, df, alpha,
						  bar < 1 ? -log1p(-bar) : (double)INFINITY));
	lr = log(o->ratio);
	h = gsl_cdf_tdist_Qinv(0.025, df) * se_true;
	if (!o->significant && lr - h >= log1p(-threshold) && lr + h <= log1p(threshold))
		o->verdict = CMP_UNCHANGED;
	/*
	 * The runs' part of the spread shrinks as the square root of their
	 * count, the sittings' part does not: the count that brings the
	 * test's (t.975 + t.80) se_true to the threshold, if any does.
	 */
	d = stats_detectable(se_true, df);
	runs = fmax(0, se * se - o->sitting_var);
	want = log1p(threshold) * se_true / d;
	room = want * want - o->sitting_var_hi;
	if (room <= 0)
		o->floor_bound = n > 0;
	else if (n > 0)
		o->needed = runs * (double)n / room > (double)n ?
			    (size_t)ceil(runs * (double)n / room) : n;
}

int report_compare_build(const struct report_cmp_side *sides, size_t nsides, double threshold,
			 unsigned flags, struct report_cmp_row **rows_out, size_t *nrows_out)
{
	return report_compare_build_history(sides, nsides, threshold, flags, NULL, rows_out,
					    nrows_out);
}

int report_compare_build_history(const struct report_cmp_side *sides, size_t nsides,
				 double threshold, unsigned flags,
				 const struct report_cmp_side *history,
				 struct report_cmp_row **rows_out, size_t *nrows_out)
{
	struct report_cmp_row *rows = NULL;
	struct report_cmp_machine machine[REPORT_CMP_MAX_SIDES];
	size_t nrows = 0, np = 0;
	double *p = NULL, *adj = NULL, bar, *adds[REPORT_CMP_MAX_SIDES] = { NULL };

	*rows_out = NULL;
	*nrows_out = 0;
	if (nsides < 2 || nsides > REPORT_CMP_MAX_SIDES)
		return -1;
	/* Each run's median sentinel adds, once: every instance of the run shares it. */
	for (size_t s = 0; s < nsides; s++) {
		adds[s] = malloc((sides[s].nruns ? sides[s].nruns : 1) * sizeof(*adds[s]));
		if (!adds[s])
			goto fail;
		for (size_t i = 0; i < sides[s].nruns; i++)
			adds[s][i] = cmp_timeline_median(&sides[s].runs[i], 1, 1);
	}
	/* Whether each other side shares no sitting with the base: the same for every row. */
	int apart[REPORT_CMP_MAX_SIDES] = { 0 };
	for (size_t s = 1; s < nsides; s++)
		apart[s] = !cmp_same_sitting(&sides[0], &sides[s]);
	/* Every instance the base has, in the order it was measured, once. */
	for (size_t i = 0; i < sides[0].nruns; i++)
		for (size_t j = 0; j < sides[0].runs[i].nresults; j++) {
			const struct result *key = &sides[0].runs[i].results[j];
			int seen = 0;

			if (!cmp_usable(key))
				continue;
			for (size_t k = 0; k < nrows && !seen; k++)
				seen = result_same_instance(rows[k].key, key);
			if (seen)
				continue;
			struct report_cmp_row *more = realloc(rows, (nrows + 1) * sizeof(*rows));
			if (!more)
				goto fail;
			rows = more;
			memset(&rows[nrows], 0, sizeof(rows[nrows]));
			rows[nrows].key = key;
			rows[nrows].section = cmp_section_of(key->id);
			rows[nrows].sentinel = !strcmp(key->id, SENTINEL_USER_ID);
			nrows++;
		}
	for (size_t k = 0; k < nrows; k++) {
		struct cmp_data b, d;
		struct stats_sittings sit;
		size_t common = 0;
		struct report_cmp_row *row = &rows[k];
		int bad = cmp_gather(&sides[0], adds[0], row->key, &row->cell[0], &b) < 0 ||
			  report_compare_sittings(history, row->key, LEVEL_MEDIAN, &sit) < 0;

		for (size_t s = 1; s < nsides && !bad; s++) {
			struct report_cmp_cell *o = &row->cell[s];

			struct cmp_pairs pp = { NULL, NULL, 0, 0 };

			bad = cmp_gather(&sides[s], adds[s], row->key, o, &d) < 0 ||
			      cmp_pairs(&sides[0], &sides[s], row->key, &pp) < 0;
			if (!bad && o->present) {
				common++;
				o->change = o->median / row->cell[0].median - 1;
				o->sitting_sd = sqrt(sit.tau2);
				o->sitting_sd_hi = sqrt(sit.tau2_hi);
				o->sittings = sit.sittings;
				o->apart = apart[s];
				cmp_test(&row->cell[0], &b, o, &d, row->key->better == BETTER_LOWER,
					 row->sentinel || (flags & REPORT_CMP_AS_MEASURED), &pp,
					 o->apart ? &sit : NULL);
			}
			free(pp.a);
			free(pp.b);
			cmp_data_free(&d);
		}
		cmp_data_free(&b);
		if (bad)
			goto fail;
		row->common = common > 0;
		row->levels_differ = cmp_levels_differ(sides, nsides, row->key);
		/* Different levels are different measurements: nothing to test. */
		for (size_t s = 1; s < nsides && row->levels_differ; s++) {
			row->cell[s].p = NAN;
			row->cell[s].test = CMP_TEST_NONE;
			row->cell[s].ratio = row->cell[s].ratio_lo = row->cell[s].ratio_hi = NAN;
			row->cell[s].slope = NAN;
			row->cell[s].state_in = row->cell[s].state_all = 0;
		}
	}
	/*
	 * One correction over the whole table.  Zeroed, though only the first
	 * np are read: GCC cannot see that, and warns.
	 */
	p = calloc(nrows * nsides + 1, sizeof(*p));
	adj = calloc(nrows * nsides + 1, sizeof(*adj));
	if (!p || !adj)
		goto fail;
	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; s < nsides; s++)
			if (rows[k].cell[s].present && isfinite(rows[k].cell[s].p))
				p[np++] = rows[k].cell[s].p;
	if (stats_bh(p, np, adj) < 0)
		goto fail;
	report_compare_machine(sides, nsides, machine);
	/* The rows the correction kept, for each row's level: it joins them at (kept + 1) / np. */
	size_t kept = 0;
	for (size_t i = 0; i < np; i++)
		kept += adj[i] < CMP_ALPHA;
	size_t tested = np;
	np = 0;
	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; s < nsides; s++) {
			struct report_cmp_cell *o = &rows[k].cell[s];
			int lower = rows[k].key->better == BETTER_LOWER;

			if (!o->present)
				continue;
			/* The direction is kept even when the change is not significant. */
			o->better = (o->change < 0) == lower;
			if (!isfinite(o->p))
				continue;
			o->p_adj = adj[np++];
			/*
			 * What the machine moved by is not the kernel's (see the top of
			 * the file); at equal machine speed it is out of the change
			 * already, and as measured the user counts it as the kernel's.
			 */
			bar = threshold + (!(flags & REPORT_CMP_AS_MEASURED) &&
					   o->test != CMP_TEST_ANCOVA_RUNS &&
					   o->test != CMP_TEST_WELCH_ADJUSTED &&
					   o->test != CMP_TEST_PAIRED &&
					   isfinite(machine[s].user_shift) ?
					   fabs(machine[s].user_shift) : 0);
			o->significant = o->p_adj < CMP_ALPHA && fabs(o->change) >= bar &&
					 (o->test != CMP_TEST_MW_SAMPLES ||
					  (!o->noisy && !rows[k].cell[0].noisy));
			cmp_detectable(o, bar, threshold,
				       CMP_ALPHA * (double)(kept - (o->p_adj < CMP_ALPHA) + 1) /
					       (double)tested,
				       cmp_count(&rows[k].cell[0], o));
		}
	free(p);
	free(adj);
	for (size_t s = 0; s < nsides; s++)
		free(adds[s]);
	*rows_out = rows;
	*nrows_out = nrows;
	return 0;
fail:
	free(p);
	free(adj);
	for (size_t s = 0; s < nsides; s++)
		free(adds[s]);
	free(rows);
	return -1;
}

/*
 * What a section's closing line says of one other side against the base,
 * over the section's rows both have: the geometric mean of the gain (base /
 * other for a time, other / base for a rate, so that above 1 is better
 * either way and a 2x gain and a 2x loss cancel) and how many changes are
 * significant each way.  The text says it of the first other, the JSON of
 * each.
 */
struct cmp_tally {
	size_t compared;		/* rows with a figure on both sides */
	double geomean;			/* NaN when compared is 0 */
	size_t better, worse;		/* marked, each way */
	size_t unchanged, untold;	/* not marked: unchanged within the threshold, or
					   cannot tell (report_cmp_cell's verdict) */
};

static void cmp_tally(const struct report_cmp_row *rows, size_t nrows, size_t sec, size_t side,
		      struct cmp_tally *t)
{
	double logsum = 0;

	*t = (struct cmp_tally){ .geomean = (double)NAN };
	for (size_t k = 0; k < nrows; k++) {
		const struct report_cmp_row *row = &rows[k];
		const struct report_cmp_cell *o = &row->cell[side];

		if (row->section != sec || !row->common || !o->present)
			continue;
		logsum += log(row->key->better == BETTER_LOWER ? 1 / (1 + o->change) : 1 + o->change);
		t->compared++;
		if (!o->significant && o->verdict == CMP_UNCHANGED)
			t->unchanged++;
		else if (!o->significant)
			t->untold++;
		else if (o->better)
			t->better++;
		else
			t->worse++;
	}
	if (t->compared)
		t->geomean = exp(logsum / (double)t->compared);
}

/* Whether some row of section sec is printed: one the base shares with another side. */
static int cmp_section_used(const struct report_cmp_row *rows, size_t nrows, size_t sec)
{
	for (size_t k = 0; k < nrows; k++)
		if (rows[k].section == sec && rows[k].common)
			return 1;
	return 0;
}

/* "2.060 +-0.5%": the figure and its CI half-width in percent. */
static void cmp_cell_text(char *buf, size_t size, const struct report_cmp_cell *c)
{
	char fig[32];
	double hw = fmax(c->median - c->lo, c->hi - c->median) / c->median * 100;

	report_fig(fig, sizeof(fig), c->median);
	if (isfinite(hw))
		snprintf(buf, size, "%s %s%.1f%%", fig, "+-", hw);
	else
		snprintf(buf, size, "%s", fig);
}

/*
 * What the sentinel says of the machines: for each other side whose runs
 * and the base's have a timeline, how much slower (+) its machine ran, the
 * system call and the adds apart.  A shift of the adds is the machine's
 * alone and raises the bar for *; one of the system call alone may be the
 * kernel's (the sentinel's call is sys.null), so it is only said.  Each a
 * note line of the legend.
 */
static void cmp_machine_notes(struct rm_doc *doc, const struct report_cmp_side *sides,
			      size_t nsides, const struct report_cmp_machine *m, double threshold,
			      unsigned flags)
{
	const char *why = flags & REPORT_CMP_AS_MEASURED ?
		": the machine itself moved, and as measured\n(--as-measured) its move is "
		"counted in every figure's change" :
		": the machine itself moved, and only at equal adds\ncan a change of that size be "
		"told from it";

	for (size_t s = 1; s < nsides; s++) {
		char a[512], b[512], line[1280], sys[32] = "?", user[32] = "?";
		int moved;

		if (!isfinite(m[s].user_shift) && !isfinite(m[s].sys_shift))
			continue;
		/* A side measured without one of the operations (an import): unknown, not nan. */
		if (isfinite(m[s].sys_shift))
			snprintf(sys, sizeof(sys), "%+.1f%%", 100 * m[s].sys_shift);
		if (isfinite(m[s].user_shift))
			snprintf(user, sizeof(user), "%+.1f%%", 100 * m[s].user_shift);
		moved = fabs(m[s].user_shift) > threshold || fabs(m[s].sys_shift) > threshold;
		snprintf(line, sizeof(line), "sentinel: %s against %s: getppid %s, adds %s%s",
			 report_cell(a, sizeof(a), sides[s].name, -1, 0),
			 report_cell(b, sizeof(b), sides[0].name, -1, 0), sys, user, moved ? why : "");
		rm_text(doc, RM_NOTE, line);
	}
}

/*
 * What the tests knew of sittings: how many figures took the spread the
 * host's history shows between them, or, for sides from different
 * sittings and no history, that it is not known.  A note line each.
 */
static void cmp_sitting_notes(struct rm_doc *doc, const struct report_cmp_row *rows,
			      size_t nrows, size_t nsides)
{
	size_t added = 0, most = 0, unknown = 0;
	char line[512];

	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; s < nsides; s++) {
			const struct report_cmp_cell *o = &rows[k].cell[s];

			if (!o->present || !o->apart || o->test == CMP_TEST_NONE ||
			    o->test == CMP_TEST_MW_SAMPLES)
				continue;
			added += o->sitting_var > 0;
			unknown += o->sittings == 0;
			most = o->sittings > most ? o->sittings : most;
		}
	if (added) {
		snprintf(line, sizeof(line), "between sittings: %zu figure%s tested with the spread "
			 "this host's history shows\nbetween sittings of one label (from up to %zu "
			 "sittings), which a side's own runs cannot show", added,
			 added == 1 ? "" : "s", most);
		rm_text(doc, RM_NOTE, line);
	}
	if (unknown)
		rm_text(doc, RM_NOTE, "between sittings: how far two sittings differ is not in the "
			"tests, as no label on\nthis host was measured in two (or --no-history): "
			"measure the base again, later, to learn it");
}

/*
 * The unmarked figures the comparison could not tell unchanged (their
 * intervals reach past the threshold): how many, and what would tell them,
 * the runs (rounds, for pairs) a side its spread asks for (the cells'
 * needed), or more sittings where the spread between them alone is too
 * wide (floor_bound).  One note line, none when every cell could tell.
 */
static void cmp_untold_note(struct rm_doc *doc, const struct report_cmp_row *rows, size_t nrows,
			    size_t nsides, double threshold)
{
	size_t untold = 0, lo = (size_t)-1, hi = 0, counted = 0, sittings = 0;
	char line[512], runs[160] = "", sit[96] = "";

	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; s < nsides; s++) {
			const struct report_cmp_cell *o = &rows[k].cell[s];

			if (!o->present || o->significant || o->verdict != CMP_CANNOT_TELL ||
			    !isfinite(o->detectable))
				continue;
			untold++;
			sittings += o->floor_bound;
			if (o->needed) {
				counted++;
				lo = o->needed < lo ? o->needed : lo;
				hi = o->needed > hi ? o->needed : hi;
			}
		}
	if (!untold)
		return;
	if (counted)
		snprintf(runs, sizeof(runs), "\nfor %zu, %zu to %zu runs a side would tell (rounds, in "
			 "pairs; JSON: needed)", counted, lo, hi);
	if (sittings)
		snprintf(sit, sizeof(sit), "%sfor %zu, only more sittings, as sittings differ by more",
			 counted ? "; " : "\n", sittings);
	snprintf(line, sizeof(line), "cannot tell: %zu unmarked figure%s may have moved %.0f%% or "
		 "more%s%s", untold, untold == 1 ? "" : "s", threshold * 100,
		 counted || sittings ? ":" : "", runs);
	snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s", sit);
	rm_text(doc, RM_NOTE, line);
}

/* Whether a row's other sides were tested by `test` (CMP_TEST_*), any of them. */
static int cmp_row_tested(const struct report_cmp_row *row, size_t nsides, int test)
{
	for (size_t s = 1; s < nsides; s++)
		if (row->cell[s].present && row->cell[s].test == test)
			return 1;
	return 0;
}

/* A row's instance in full: a placement, and a timed job's -j and copies, are part of it. */
static void cmp_row_name(const struct report_cmp_row *row, char *buf, size_t size)
{
	char jobs[16] = "", copies[16] = "";

	if (row->key->jobs)
		snprintf(jobs, sizeof(jobs), " -j%d", row->key->jobs);
	if (row->key->parallel > 1 && catalog_prefixed(row->key->id))
		snprintf(copies, sizeof(copies), " x%d", row->key->parallel);
	snprintf(buf, size, "%s%s%s%s%s", row->key->id,
		 row->key->placement == PLACE_NA ? "" : " ", place_name(row->key->placement), jobs,
		 copies);
}

/* The name column: 22 wide, wider for a longer name ("rate.clock_gettime_coarse"). */
#define CMP_NAME_W 22
#define CMP_NAME_MAX_W 40

static int cmp_name_width(const struct report_cmp_row *rows, size_t nrows)
{
	int w = CMP_NAME_W;
	char name[96];

	for (size_t k = 0; k < nrows; k++) {
		if (!rows[k].common)
			continue;
		cmp_row_name(&rows[k], name, sizeof(name));
		if ((int)strlen(name) > w)
			w = (int)strlen(name) < CMP_NAME_MAX_W ? (int)strlen(name) : CMP_NAME_MAX_W;
	}
	return w;
}

/*
 * The change's 95% interval, from the test's ratio ("+3.1..+7.6"): what the
 * runs allow the change to be, so that "unchanged" says how closely (a
 * change outside it would have been seen) and a reader can tell a row that
 * cannot see 5% from one that saw nothing.  "" where the test gives no
 * ratio (Mann-Whitney says which side is larger, not by how much) or the
 * row is not compared (?: report_compare_build leaves it no ratio).
 */
static void cmp_change_ci(char *buf, size_t len, const struct report_cmp_cell *o)
{
	buf[0] = '\0';
	if (isfinite(o->ratio_lo) && isfinite(o->ratio_hi))
		snprintf(buf, len, "%+.1f..%+.1f", (o->ratio_lo - 1) * 100, (o->ratio_hi - 1) * 100);
}

/* The cells' widths: the base's 15, the others' 14, the interval's 11, more for a wider one. */
#define CMP_BASE_W 15
#define CMP_OTHER_W 14
#define CMP_CI_W 11
#define CMP_CELL_MAX_W 40

/*
 * The widest figure cell of the base (side 0), of the others and of the
 * change's interval, at least the usual widths: a rate of hundreds of
 * millions with its interval ("168170891 +-27.9%") is wider than the times
 * the table was laid out for, and so is a change of +260%'s.
 */
static void cmp_cell_widths(const struct report_cmp_row *rows, size_t nrows, size_t nsides,
			    int *basew, int *otherw, int *ciw)
{
	char cell[64];

	*basew = CMP_BASE_W;
	*otherw = CMP_OTHER_W;
	*ciw = CMP_CI_W;
	for (size_t k = 0; k < nrows; k++) {
		if (!rows[k].common)
			continue;
		for (size_t s = 0; s < nsides; s++) {
			int *w = s == 0 ? basew : otherw;
			int len;

			if (s > 0 && !rows[k].cell[s].present)
				continue;
			cmp_cell_text(cell, sizeof(cell), &rows[k].cell[s]);
			len = (int)strlen(cell);
			if (len > *w)
				*w = len < CMP_CELL_MAX_W ? len : CMP_CELL_MAX_W;
			if (s > 0) {
				cmp_change_ci(cell, sizeof(cell), &rows[k].cell[s]);
				len = (int)strlen(cell);
				if (len > *ciw)
					*ciw = len < CMP_CELL_MAX_W ? len : CMP_CELL_MAX_W;
			}
		}
	}
}

/*
 * The comparison as the table model (report/model.h), which the text, the
 * page and the JSON render: first an untitled table of the legend's notes
 * (and what the sentinel says of the machines), then a table per section
 * used, its title after a blank line and no rule, a row per figure, the
 * section's line for the first other side as its note.  A row's cells: the
 * name; the base's figure and its noisy mark glued to it; for each other
 * side its figure, mark, change, the marks of the test (* ? ~) and the
 * change's interval, or one "-" for a side that did not measure it; the
 * unit where the section has one.  secs[t] is table t's section (secs holds cmp_section_other() + 2).
 */
static void cmp_model(struct rm_doc *doc, size_t *secs, const struct report_cmp_side *sides,
		      size_t nsides, const struct report_cmp_row *rows, size_t nrows,
		      double threshold, unsigned flags)
{
	/* Side names escaped by the writers (report_cell): a label may hold anything. */
	char cell[64], change[32], legend[1024], base[512], other[512], id[32], name[96];
	struct report_cmp_machine m[REPORT_CMP_MAX_SIDES];
	int namew = cmp_name_width(rows, nrows), basew, otherw, ciw;
	size_t nstate;

	cmp_cell_widths(rows, nrows, nsides, &basew, &otherw, &ciw);
	rm_table(doc, "legend", "");
	rm_plain(doc);
	secs[0] = (size_t)-1;
	snprintf(legend, sizeof(legend), "Base %s; change = other / base - 1, then its 95%% "
		 "interval (a..b, in %%); * = significant\n(Benjamini-Hochberg adjusted p < 0.05, "
		 "at least %.0f%%%s); = = unchanged\n(its interval inside +-%.0f%%); ~ = fewer than 3 "
		 "runs a side, their replicas compared\n(samples, for runs without); ! = loose in a run "
		 "of the side (its interval over\ntwice its run's typical one)",
		 report_cell(base, sizeof(base), sides[0].name, -1, 0), threshold * 100,
		 flags & REPORT_CMP_AS_MEASURED ? "" : " and what the machine moved", threshold * 100);
	rm_text(doc, RM_PARA, legend);
	report_compare_machine(sides, nsides, m);
	cmp_machine_notes(doc, sides, nsides, m, threshold, flags);
	for (size_t k = 0; k < nrows; k++)
		if (cmp_row_tested(&rows[k], nsides, CMP_TEST_WELCH_ADJUSTED)) {
			rm_text(doc, RM_NOTE, "replicas compared at equal machine speed: each moved "
				"along how its figure follows the sentinel adds\nwithin runs, to the adds "
				"of all; the change at equal adds");
			break;
		}
	for (size_t k = 0; k < nrows; k++)
		if (cmp_row_tested(&rows[k], nsides, CMP_TEST_PAIRED)) {
			size_t pairs = 0, out = 0;

			for (size_t j = 0; j < nrows; j++)
				for (size_t s = 1; s < nsides; s++)
					if (rows[j].cell[s].test == CMP_TEST_PAIRED) {
						pairs = rows[j].cell[s].pairs_all > pairs ?
							rows[j].cell[s].pairs_all : pairs;
						out += rows[j].cell[s].pairs_all - rows[j].cell[s].pairs;
					}
			snprintf(legend, sizeof(legend), "paired: the sides were measured round by round "
				 "in one session (kbench ab),\nup to %zu rounds; each round's ratio tested "
				 "(paired t on the logarithms),\nthe change their geometric mean", pairs);
			rm_text(doc, RM_NOTE, legend);
			if (out) {
				snprintf(legend, sizeof(legend), "%zu pair%s of rounds left out over the table: %s ratio beyond "
					 "%.0f%% of the\nothers' median (a jump of the machine between "
					 "the two halves of a pair)", out, out == 1 ? "" : "s",
					 out == 1 ? "its" : "their", CMP_STATE_WIDTH * 100);
				rm_text(doc, RM_NOTE, legend);
			}
			break;
		}
	cmp_sitting_notes(doc, rows, nrows, nsides);
	cmp_untold_note(doc, rows, nrows, nsides, threshold);
	for (size_t k = 0; k < nrows; k++)
		if (cmp_row_tested(&rows[k], nsides, CMP_TEST_ANCOVA_RUNS)) {
			rm_text(doc, RM_NOTE, "runs compared at equal machine speed: their figures "
				"against each run's sentinel adds, the change at equal adds");
			break;
		}
	nstate = 0;
	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; s < nsides; s++)
			if (rows[k].cell[s].present && rows[k].cell[s].state_all) {
				nstate++;
				break;
			}
	if (nstate) {
		snprintf(legend, sizeof(legend), "%zu figure%s with replicas beyond %.0f%% of a level both "
			 "sides share (the machine's states, outliers):\nruns compared on their replicas "
			 "within it, the change that level's", nstate, nstate == 1 ? "" : "s",
			 CMP_STATE_WIDTH * 100);
		rm_notes(doc, legend);
	}
	for (size_t k = 0; k < nrows; k++)
		if (rows[k].levels_differ && rows[k].common) {
			rm_text(doc, RM_NOTE, "? = the runs found this cache level at sizes more than "
				"2x apart: not compared");
			break;
		}
	for (size_t sec = 0; sec <= cmp_section_other(); sec++) {
		int unit = sec < NELEM(cmp_sections) && cmp_sections[sec].unit_column;
		struct cmp_tally t;

		if (!cmp_section_used(rows, nrows, sec))
			continue;
		cmp_section_id(sec, id, sizeof(id));
		secs[doc->ntables] = sec;
		rm_table(doc, id, cmp_section_title(sec));
		rm_plain(doc);
		rm_lead(doc);
		rm_line(doc, RM_HEAD);
		rm_cell(doc, namew, 0, "");
		for (size_t s = 0; s < nsides; s++) {
			rm_cell(doc, s == 0 ? basew + 1 : otherw + 12, 1, sides[s].name);
			if (s > 0) {
				/* The name over the figure and its change; the interval's column unnamed. */
				rm_span(doc, 3);
				rm_cell(doc, ciw, 0, "");
			}
		}
		if (unit) {
			rm_cell(doc, -1, 0, "");
			rm_gap(doc, 2);
		}
		for (size_t k = 0; k < nrows; k++) {
			const struct report_cmp_row *row = &rows[k];

			if (row->section != sec || !row->common)
				continue;
			rm_line(doc, RM_ROW);
			cmp_row_name(row, name, sizeof(name));
			rm_cell(doc, namew, 0, name);
			cmp_cell_text(cell, sizeof(cell), &row->cell[0]);
			rm_cell(doc, basew, 1, cell);
			rm_cell(doc, 1, 0, row->cell[0].noisy ? "!" : "");
			rm_gap(doc, 0);
			for (size_t s = 1; s < nsides; s++) {
				const struct report_cmp_cell *o = &row->cell[s];
				char marks[3] = { row->levels_differ ? '?' : o->significant ? '*' :
						  o->verdict == CMP_UNCHANGED ? '=' : ' ',
						  o->test == CMP_TEST_MW_SAMPLES ||
							  o->test == CMP_TEST_WELCH_REPLICAS ? '~' : ' ',
						  '\0' };

				if (!o->present) {
					rm_cell(doc, otherw + 13 + ciw, 1, "-");
					rm_span(doc, 4);
					continue;
				}
				cmp_cell_text(cell, sizeof(cell), o);
				rm_cell(doc, otherw, 1, cell);
				rm_cell(doc, 1, 0, o->noisy ? "!" : "");
				rm_gap(doc, 0);
				snprintf(change, sizeof(change), "%+.1f%%", o->change * 100);
				rm_cell(doc, 7, 1, change);
				if (o->significant && !row->levels_differ)
					rm_flags(doc, RM_SIGNIF);
				rm_cell(doc, 2, 0, marks);
				cmp_change_ci(change, sizeof(change), o);
				rm_cell(doc, ciw, 1, change);
			}
			if (unit) {
				rm_cell(doc, -1, 0, row->key->unit);
				rm_gap(doc, 2);
			}
		}
		/* The section's line speaks of the first other. */
		cmp_tally(rows, nrows, sec, 1, &t);
		if (t.compared) {
			char line[1400];

			snprintf(line, sizeof(line), "  %s against %s: geometric mean of the gain %.3fx (above 1 "
				 "is better); %zu better, %zu worse, %zu unchanged, %zu cannot tell",
				 report_cell(other, sizeof(other), sides[1].name, -1, 0), base,
				 t.geomean, t.better, t.worse, t.unchanged, t.untold);
			rm_text(doc, RM_NOTE, line);
		}
	}
}

/* The most curves compared (--curves): a table each. */
#define CMP_MAX_CURVES 32

static int cmp_curves_model(struct rm_doc *doc, size_t *secs, size_t nsecs,
			    const struct report_cmp_side *sides, size_t nsides, double threshold);

/*
 * The model of a comparison into doc, and with curves the curves' tables
 * after it; each table's section into *secs when secs is not NULL.
 */
static int cmp_model_new(struct rm_doc *doc, size_t **secs, const struct report_cmp_side *sides,
			 size_t nsides, const struct report_cmp_row *rows, size_t nrows,
			 double threshold, unsigned flags, int curves)
{
	size_t nsec = cmp_section_other() + 2 + CMP_MAX_CURVES;
	size_t *sec = malloc(nsec * sizeof(*sec));

	memset(doc, 0, sizeof(*doc));
	if (!sec)
		return -1;
	cmp_model(doc, sec, sides, nsides, rows, nrows, threshold, flags);
	if (doc->oom || (curves && cmp_curves_model(doc, sec, nsec, sides, nsides, threshold) < 0)) {
		rm_doc_free(doc);
		free(sec);
		return -1;
	}
	if (secs)
		*secs = sec;
	else
		free(sec);
	return 0;
}

int report_compare_text(FILE *out, const struct report_cmp_side *sides, size_t nsides,
			const struct report_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags)
{
	struct rm_doc doc;

	if (cmp_model_new(&doc, NULL, sides, nsides, rows, nrows, threshold, flags, 0) < 0)
		return -1;
	rm_write_text(out, &doc);
	rm_doc_free(&doc);
	return 0;
}

/*
 * `compare --html`: the comparison's model (cmp_model, the text's own)
 * rendered as the page's tables, each section's change against the base
 * drawn as a forest plot between its heading and its table; the
 * comparison embedded as its JSON.
 */
struct cmp_html_data {
	const struct report_cmp_side *sides;
	size_t nsides;
	const struct report_cmp_row *rows;
	size_t nrows;
	double threshold;
	unsigned flags;
	int curves;
	size_t sec;		/* the section whose chart is drawn next, or CMP_SEC_MARKED */
};

/* The chart at the head of the page: every marked change, of every section. */
#define CMP_SEC_MARKED ((size_t)-2)

static int cmp_html_json(FILE *out, const void *arg)
{
	const struct cmp_html_data *d = arg;

	return report_compare_json(out, d->sides, d->nsides, d->rows, d->nrows, d->threshold, d->flags,
				   d->curves);
}

/*
 * The section's forest plot for each other side: a row per figure, its
 * point the table's other / base, its interval the 95% interval of the
 * ratio where the test gave one (Welch's on the logarithms; none for
 * Mann-Whitney); significant rows filled; last the geometric mean of the
 * rows' other / base, in the rows' direction (the line under the table
 * turns it so that above 1 is better).  For CMP_SEC_MARKED, the marked
 * rows of every section, and no mean: what changed, first, at a glance.
 */
static void cmp_html_forest(FILE *out, const void *arg)
{
	const struct cmp_html_data *d = arg;
	const struct report_cmp_side *sides = d->sides;
	const struct report_cmp_row *rows = d->rows;
	size_t nsides = d->nsides, nrows = d->nrows, sec = d->sec;
	struct svg_row *fr = calloc(nrows ? nrows : 1, sizeof(*fr));
	char (*names)[96] = calloc(nrows ? nrows : 1, sizeof(*names));
	char title[512];

	if (!fr || !names) {
		fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
		free(fr);
		free(names);
		return;
	}
	for (size_t s = 1; s < nsides; s++) {
		struct svg_chart c = { 0 };
		struct svg_row gm = { "geometric mean of other / base", NAN, NAN, NAN, 0, 0, NULL };
		double logsum = 0;
		size_t n = 0, nlog = 0;

		for (size_t k = 0; k < nrows; k++) {
			const struct report_cmp_row *row = &rows[k];
			const struct report_cmp_cell *o = &row->cell[s];
			struct svg_row *r = &fr[n];

			if (!row->common ||
			    (sec == CMP_SEC_MARKED ? !o->present || !o->significant || row->levels_differ
						   : row->section != sec))
				continue;
			cmp_row_name(row, names[n], sizeof(names[n]));
			r->name = names[n];
			r->lo = r->hi = NAN;
			if (!o->present) {
				r->ratio = NAN;
				r->note = "not measured";
			} else {
				/* The table's change, with the test's interval of the ratio. */
				r->ratio = 1 + o->change;
				if (isfinite(o->ratio_lo) && isfinite(o->ratio_hi)) {
					r->lo = o->ratio_lo;
					r->hi = o->ratio_hi;
				}
			}
			r->signif = o->present && o->significant && !row->levels_differ;
			r->better = !r->signif ? 0 : o->better ? 1 : -1;
			if (o->present && 1 + o->change > 0 && isfinite(o->change)) {
				logsum += log(1 + o->change);
				nlog++;
			}
			n++;
		}
		if (nlog)
			gm.ratio = exp(logsum / (double)nlog);
		snprintf(title, sizeof(title), "%s%s against %s", sec == CMP_SEC_MARKED ?
			 "marked changes: " : "", sides[s].name, sides[0].name);
		c.title = title;
		c.xlabel = "other / base (log scale)";
		c.empty = sec == CMP_SEC_MARKED ? "no change marked" : "no figure to compare";
		if (svg_forest(out, &c, fr, n, nlog && sec != CMP_SEC_MARKED ? &gm : NULL) < 0)
			fputs("<p class=\"nochart\">No chart: out of memory.</p>\n", out);
	}
	free(fr);
	free(names);
}

int report_compare_html(FILE *out, const struct report_cmp_side *sides, size_t nsides,
			const struct report_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags, int curves)
{
	struct cmp_html_data d = { sides, nsides, rows, nrows, threshold, flags, curves, 0 };
	struct rm_doc doc;
	size_t *secs;
	char title[512];

	if (cmp_model_new(&doc, &secs, sides, nsides, rows, nrows, threshold, flags, curves) < 0)
		return -1;
	snprintf(title, sizeof(title), "kbench compare: base %s", sides[0].name);
	report_html_begin(out, title);
	/* What changed leads; the legend and the sections' tables and charts follow. */
	fputs("<h2 id=\"marked\">What changed</h2>\n", out);
	d.sec = CMP_SEC_MARKED;
	cmp_html_forest(out, &d);
	for (size_t t = 0; t < doc.ntables; t++) {
		d.sec = secs[t];
		report_html_table(out, &doc, t, secs[t] != (size_t)-1 ? cmp_html_forest : NULL, &d);
	}
	report_html_data(out, cmp_html_json, &d);
	report_html_end(out);
	rm_doc_free(&doc);
	free(secs);
	return ferror(out) ? -1 : 0;
}

/* The "verdict" key's values, by CMP_CHANGED etc. */
static const char *const cmp_verdict_names[] = {
	[CMP_CANNOT_TELL] = "cannot tell",
	[CMP_CHANGED] = "changed",
	[CMP_UNCHANGED] = "unchanged",
};

/* The "test" key's values, by CMP_TEST_*; none is null. */
static const char *const cmp_test_names[] = {
	[CMP_TEST_NONE] = NULL,
	[CMP_TEST_WELCH_RUNS] = "welch-log-runs",
	[CMP_TEST_MW_SAMPLES] = "mann-whitney-samples",
	[CMP_TEST_WELCH_REPLICAS] = "welch-log-replicas",
	[CMP_TEST_ANCOVA_RUNS] = "ancova-log-runs",
	[CMP_TEST_WELCH_ADJUSTED] = "welch-log-runs-adjusted",
	[CMP_TEST_PAIRED] = "paired-log-rounds",
};

/* One cell; the keys after "noisy" only for an other side (other = 1). */
static json_t *cmp_cell_json(const char *name, const struct report_cmp_cell *c, int other,
			     int *bad)
{
	json_t *o = json_object();
	const char *test = c->test >= 0 && (size_t)c->test < NELEM(cmp_test_names) ?
			   cmp_test_names[c->test] : NULL;

	report_jset(o, "side", report_jstr(name), bad);
	report_jset(o, "present", json_boolean(c->present), bad);
	report_jset(o, "runs", json_integer((json_int_t)c->nruns), bad);
	report_jset(o, "median", report_jreal(c->median), bad);
	report_jset(o, "ci_low", report_jreal(c->lo), bad);
	report_jset(o, "ci_high", report_jreal(c->hi), bad);
	report_jset(o, "noisy", json_boolean(c->noisy), bad);
	if (!other)
		return o;
	report_jset(o, "change", report_jreal(c->change), bad);
	report_jset(o, "ratio", report_jreal(c->ratio), bad);
	report_jset(o, "ratio_ci_low", report_jreal(c->ratio_lo), bad);
	report_jset(o, "ratio_ci_high", report_jreal(c->ratio_hi), bad);
	report_jset(o, "test", test ? json_string(test) : json_null(), bad);
	/* The runs compared in the machine's common state: how many replicas it held. */
	if (c->state_all) {
		json_t *st = json_object();

		report_jset(st, "replicas_in", json_integer((json_int_t)c->state_in), bad);
		report_jset(st, "replicas", json_integer((json_int_t)c->state_all), bad);
		report_jset(st, "width", json_real(CMP_STATE_WIDTH), bad);
		report_jset(o, "state", st, bad);
	} else {
		report_jset(o, "state", json_null(), bad);
	}
	/* Replicas taken at equal adds: the slope they were moved along. */
	report_jset(o, "slope", report_jreal(c->slope), bad);
	/* Measured in pairs (kbench ab): the rounds tested, of those paired. */
	if (c->test == CMP_TEST_PAIRED) {
		json_t *pr = json_object();

		report_jset(pr, "tested", json_integer((json_int_t)c->pairs), bad);
		report_jset(pr, "rounds", json_integer((json_int_t)c->pairs_all), bad);
		report_jset(pr, "width", json_real(CMP_STATE_WIDTH), bad);
		report_jset(o, "pairs", pr, bad);
	} else {
		report_jset(o, "pairs", json_null(), bad);
	}
	report_jset(o, "p", report_jreal(c->p), bad);
	report_jset(o, "p_adj", report_jreal(c->p_adj), bad);
	report_jset(o, "significant", json_boolean(c->significant), bad);
	/* The smallest change this comparison could see, and what it says of this one. */
	report_jset(o, "detectable", report_jreal(c->detectable), bad);
	report_jset(o, "verdict", report_jstr(cmp_verdict_names[c->verdict]), bad);
	/* How many a side would see the threshold (runs; rounds for pairs), where it can be said. */
	report_jset(o, "needed", c->needed ? json_integer((json_int_t)c->needed) : json_null(), bad);
	/*
	 * What the host's history said of sittings: their spread (a fraction,
	 * as change), how many it was learnt from, and whether the test took
	 * it; more_sittings: no count of runs a side gets to the threshold.
	 */
	if (c->sittings) {
		json_t *si = json_object();

		report_jset(si, "spread", report_jreal(expm1(c->sitting_sd)), bad);
		report_jset(si, "spread_hi", report_jreal(expm1(c->sitting_sd_hi)), bad);
		report_jset(si, "sittings", json_integer((json_int_t)c->sittings), bad);
		report_jset(si, "added", json_boolean(c->sitting_var > 0), bad);
		report_jset(si, "more_sittings", json_boolean(c->floor_bound), bad);
		report_jset(o, "between_sittings", si, bad);
	} else {
		report_jset(o, "between_sittings", json_null(), bad);
	}
	report_jset(o, "sets", json_integer((json_int_t)c->sets), bad);
	/* A side without the instance has no direction either. */
	report_jset(o, "better", c->present ? json_boolean(c->better) : json_null(), bad);
	return o;
}

static json_t *cmp_row_json(const struct report_cmp_side *sides, size_t nsides,
			    const struct report_cmp_row *row, int *bad)
{
	const struct result *key = row->key;
	json_t *o = json_object(), *cells = json_array();

	report_jset(o, "id", json_string(key->id), bad);
	/* null, not "", for a benchmark that takes no placement, as in run --json. */
	report_jset(o, "placement", key->placement == PLACE_NA ? json_null()
							  : json_string(place_name(key->placement)), bad);
	report_jset(o, "parallel", json_integer(key->parallel), bad);
	/* null, not 0, for an instance without a {jobs} value, as in run --json. */
	report_jset(o, "jobs", key->jobs ? json_integer(key->jobs) : json_null(), bad);
	report_jset(o, "unit", json_string(key->unit), bad);
	report_jset(o, "better", json_string(bench_better_name(key->better)), bad);
	report_jset(o, "section", json_string(cmp_section_title(row->section)), bad);
	report_jset(o, "levels_differ", json_boolean(row->levels_differ), bad);
	for (size_t s = 0; s < nsides; s++)
		report_jpush(cells, cmp_cell_json(sides[s].name, &row->cell[s], s > 0, bad), bad);
	report_jset(o, "cells", cells, bad);
	return o;
}

/* A section's closing figures for one other side: cmp_tally's, as the text's line. */
static json_t *cmp_section_json(const struct report_cmp_side *side,
				const struct report_cmp_row *rows, size_t nrows, size_t sec,
				size_t s, int *bad)
{
	json_t *o = json_object();
	struct cmp_tally t;

	cmp_tally(rows, nrows, sec, s, &t);
	report_jset(o, "title", json_string(cmp_section_title(sec)), bad);
	report_jset(o, "side", report_jstr(side->name), bad);
	report_jset(o, "compared", json_integer((json_int_t)t.compared), bad);
	report_jset(o, "geomean", report_jreal(t.geomean), bad);
	report_jset(o, "better", json_integer((json_int_t)t.better), bad);
	report_jset(o, "worse", json_integer((json_int_t)t.worse), bad);
	report_jset(o, "unchanged", json_integer((json_int_t)t.unchanged), bad);
	report_jset(o, "cannot_tell", json_integer((json_int_t)t.untold), bad);
	return o;
}

int report_compare_json(FILE *out, const struct report_cmp_side *sides, size_t nsides,
			const struct report_cmp_row *rows, size_t nrows, double threshold,
			unsigned flags, int curves)
{
	json_t *root = json_object(), *jsides = json_array(), *jrows = json_array();
	json_t *jsecs = json_array();
	struct report_cmp_machine m[REPORT_CMP_MAX_SIDES];
	struct rm_doc doc;
	int bad = 0, rc = -1;

	report_compare_machine(sides, nsides, m);
	report_jset(root, "kbench", json_string(KB_VERSION), &bad);
	report_jset(root, "base", report_jstr(sides[0].name), &bad);
	for (size_t s = 0; s < nsides; s++) {
		json_t *o = json_object();

		report_jset(o, "name", report_jstr(sides[s].name), &bad);
		report_jset(o, "runs", json_integer((json_int_t)sides[s].nruns), &bad);
		report_jset(o, "sentinel_sys_ns", report_jreal(m[s].sys_ns), &bad);
		report_jset(o, "sentinel_user_ns", report_jreal(m[s].user_ns), &bad);
		report_jset(o, "sentinel_sys_shift", report_jreal(m[s].sys_shift), &bad);
		report_jset(o, "sentinel_user_shift", report_jreal(m[s].user_shift), &bad);
		report_jpush(jsides, o, &bad);
	}
	report_jset(root, "sides", jsides, &bad);
	report_jset(root, "threshold", json_real(threshold), &bad);
	report_jset(root, "as_measured", json_boolean(flags & REPORT_CMP_AS_MEASURED), &bad);
	report_jset(root, "correction", json_string("benjamini-hochberg"), &bad);
	report_jset(root, "alpha", json_real(CMP_ALPHA), &bad);
	/* The text's rows in the text's order: section by section, as the base measured them. */
	for (size_t sec = 0; sec <= cmp_section_other() && !bad; sec++) {
		if (!cmp_section_used(rows, nrows, sec))
			continue;
		for (size_t k = 0; k < nrows; k++)
			if (rows[k].section == sec && rows[k].common)
				report_jpush(jrows, cmp_row_json(sides, nsides, &rows[k], &bad), &bad);
		for (size_t s = 1; s < nsides; s++)
			report_jpush(jsecs, cmp_section_json(&sides[s], rows, nrows, sec, s, &bad), &bad);
	}
	report_jset(root, "rows", jrows, &bad);
	report_jset(root, "sections", jsecs, &bad);
	if (!bad && cmp_model_new(&doc, NULL, sides, nsides, rows, nrows, threshold, flags,
				  curves) == 0) {
		report_jset(root, "tables", report_model_json(&doc, &bad), &bad);
		rm_doc_free(&doc);
	} else {
		bad = 1;
	}
	/*
	 * 15 digits, not the 17 an export needs to read back the same double:
	 * nothing reads these figures back, and 17 prints 0.05 as
	 * 0.050000000000000003.
	 */
	if (!bad && json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) == 0 &&
	    fputc('\n', out) != EOF)
		rc = 0;
	json_decref(root);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Curves, point by point (--curves)                                   */
/* ------------------------------------------------------------------ */

/*
 * One side's runs at one point of a curve: the y of each usable run whose
 * curve has a point of that series at exactly that x (the sizes are the
 * same doubles wherever the same grid was measured), and whether any of
 * them missed its precision.  The count; vals holds max.
 */
static size_t cmp_point_runs(const struct report_cmp_side *side, const struct result *key,
			     const struct result_point *at, double *vals, size_t max, int *noisy)
{
	size_t n = 0;

	for (size_t i = 0; i < side->nruns; i++)
		for (size_t j = 0; j < side->runs[i].nresults; j++) {
			const struct result *r = &side->runs[i].results[j];

			if (!result_same_instance(r, key) || r->npoints == 0 || !r->points)
				continue;
			for (size_t k = 0; k < r->npoints && n < max; k++) {
				const struct result_point *p = &r->points[k];

				if (p->x == at->x && strcmp(p->series, at->series) == 0 &&
				    isfinite(p->y) && p->y > 0) {
					vals[n++] = p->y;
					*noisy |= p->noisy;
				}
			}
		}
	return n;
}

/* One point of one side: its median over the runs and the test against the base. */
struct cmp_pt {
	int present, noisy;
	double median, change, p, p_adj;
	int significant;
};

static int cmp_curve(struct rm_doc *doc, const struct report_cmp_side *sides, size_t nsides,
		     const struct result *key, double threshold)
{
	char title[256];
	size_t np = key->npoints, nt = 0;
	struct cmp_pt *pt = calloc(np * nsides + 1, sizeof(*pt));
	double *p = calloc(np * nsides + 1, sizeof(*p)), *adj = calloc(np * nsides + 1, sizeof(*adj));
	double bv[256], ov[256];
	char size[16], fig[32];
	int rc = -1;

	if (!pt || !p || !adj)
		goto out;
	for (size_t k = 0; k < np; k++) {
		struct cmp_pt *b = &pt[k * nsides];
		size_t nb = cmp_point_runs(&sides[0], key, &key->points[k], bv, 256, &b->noisy);
		struct stats_summary ss;

		if (nb == 0 || stats_summarize(bv, nb, &ss) < 0)
			continue;
		b->present = 1;
		b->median = ss.median;
		for (size_t s = 1; s < nsides; s++) {
			struct cmp_pt *o = &pt[k * nsides + s];
			size_t no = cmp_point_runs(&sides[s], key, &key->points[k], ov, 256, &o->noisy);
			struct stats_welch w;

			o->p = NAN;
			if (no == 0 || stats_summarize(ov, no, &ss) < 0)
				continue;
			o->present = 1;
			o->median = ss.median;
			o->change = o->median / b->median - 1;
			/* Runs are the repetitions, as for the other rows: 3 a side or no test. */
			if (nb >= 3 && no >= 3 && stats_welch_log(bv, nb, ov, no, &w) == 0)
				p[nt++] = o->p = w.p;
		}
	}
	/* One correction over the curve's points, as over a table's rows. */
	if (stats_bh(p, nt, adj) < 0)
		goto out;
	nt = 0;
	for (size_t k = 0; k < np; k++)
		for (size_t s = 1; s < nsides; s++) {
			struct cmp_pt *o = &pt[k * nsides + s];

			if (!o->present || !isfinite(o->p))
				continue;
			o->p_adj = adj[nt++];
			o->significant = o->p_adj < CMP_ALPHA && fabs(o->change) >= threshold &&
					 !o->noisy && !pt[k * nsides].noisy;
		}
	snprintf(title, sizeof(title), "%s (%s): each point's median over the runs", key->id,
		 key->unit);
	rm_table(doc, "curve", title);
	rm_plain(doc);
	rm_lead(doc);
	rm_line(doc, RM_HEAD);
	rm_cell(doc, 8, 1, "size");
	rm_cell(doc, 8, 0, "series");
	for (size_t s = 0; s < nsides; s++) {
		rm_cell(doc, s == 0 ? 10 : 18, 1, sides[s].name);
		/* A side's columns in the page: its figure and its change (marks glued). */
		if (s > 0)
			rm_span(doc, 2);
	}
	for (size_t k = 0; k < np; k++) {
		const struct cmp_pt *b = &pt[k * nsides];

		if (!b->present)
			continue;
		rm_line(doc, RM_ROW);
		report_size(size, sizeof(size), key->points[k].x, 8);
		rm_cell(doc, 8, 1, size);
		rm_cell(doc, 8, 0, key->points[k].series);
		report_fig(fig, sizeof(fig), b->median);
		rm_cell(doc, 9, 1, fig);
		rm_cell(doc, 1, 0, b->noisy ? "!" : "");
		rm_gap(doc, 0);
		for (size_t s = 1; s < nsides; s++) {
			const struct cmp_pt *o = &pt[k * nsides + s];
			char change[16];

			if (!o->present) {
				rm_cell(doc, 18, 1, "-");
				rm_span(doc, 2);
				continue;
			}
			report_fig(fig, sizeof(fig), o->median);
			rm_cell(doc, 8, 1, fig);
			rm_cell(doc, 1, 0, o->noisy ? "!" : "");
			rm_gap(doc, 0);
			snprintf(change, sizeof(change), "%+.1f%%", o->change * 100);
			rm_cell(doc, 7, 1, change);
			if (o->significant)
				rm_flags(doc, RM_SIGNIF);
			rm_cell(doc, 1, 0, o->significant ? "*" : "");
			rm_gap(doc, 0);
		}
	}
	rc = 0;
out:
	free(pt);
	free(p);
	free(adj);
	return rc;
}

/* The curves' tables at the end of doc; the section of each in secs (none). */
static int cmp_curves_model(struct rm_doc *doc, size_t *secs, size_t nsecs,
			    const struct report_cmp_side *sides, size_t nsides, double threshold)
{
	const struct result *done[CMP_MAX_CURVES];
	size_t ndone = 0;

	for (size_t i = 0; i < sides[0].nruns; i++)
		for (size_t j = 0; j < sides[0].runs[i].nresults; j++) {
			const struct result *key = &sides[0].runs[i].results[j];
			int seen = 0, other = 0;

			if (key->npoints == 0 || !key->points || key->npoints > 256)
				continue;
			for (size_t d = 0; d < ndone && !seen; d++)
				seen = result_same_instance(done[d], key);
			if (seen || ndone == sizeof(done) / sizeof(done[0]))
				continue;
			done[ndone++] = key;
			for (size_t s = 1; s < nsides && !other; s++)
				for (size_t r = 0; r < sides[s].nruns && !other; r++)
					for (size_t q = 0; q < sides[s].runs[r].nresults && !other; q++)
						other = result_same_instance(&sides[s].runs[r].results[q], key) &&
							sides[s].runs[r].results[q].npoints > 0;
			if (other && cmp_curve(doc, sides, nsides, key, threshold) < 0)
				return -1;
			/* No forest plot for a curve's table. */
			for (size_t t = 0; t < doc->ntables && t < nsecs; t++)
				if (strcmp(doc->tables[t].id, "curve") == 0)
					secs[t] = (size_t)-1;
		}
	return doc->oom ? -1 : 0;
}

int report_compare_curves(FILE *out, const struct report_cmp_side *sides, size_t nsides,
			  double threshold)
{
	struct rm_doc doc = { 0 };
	size_t secs[CMP_MAX_CURVES];
	int rc = cmp_curves_model(&doc, secs, CMP_MAX_CURVES, sides, nsides, threshold);

	if (rc == 0)
		rm_write_text(out, &doc);
	rm_doc_free(&doc);
	return rc;
}
