/*
 * kbench compare: the same benchmark instances measured under a base and
 * one or more others (labels or runs), side by side, with the change and
 * whether it is real.
 *
 * An instance is (id, placement, copies): a pipe round trip on one CPU and
 * across two are different things and are never compared with each other.
 * A run's figure is its level (result_figure: the machine's fast state's,
 * the slow spells left out; the median of a run of an older kbench), and
 * a replica's its own fast level.  A side's figure is the median of its
 * runs' levels, and its interval is the 95% CI of that median (order
 * statistics, so with fewer than 6 runs it is their whole range), or with
 * one run that run's own interval.  The tests below take the runs' levels
 * and the replicas' fast levels where they say "median".
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
 * The table is built here once (judge_compare_build) and then written as
 * text, page or JSON (compare_out.c).  Nothing here reads the database or
 * measures.
 */
#include "judge/compare.h"
#include "judge/loose.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalog.h"
#include "stats/stats.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

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
size_t judge_section_other(void)
{
	return NELEM(cmp_sections) + catalog_count();
}

/* A row's section title. */
const char *judge_section_title(size_t sec)
{
	if (sec < NELEM(cmp_sections))
		return cmp_sections[sec].title;
	if (sec < judge_section_other())
		return catalog_at(sec - NELEM(cmp_sections))->title;
	return "Other";
}

int judge_section_units(size_t sec)
{
	return sec < NELEM(cmp_sections) && cmp_sections[sec].unit_column;
}

/* A section's short name: "proc"; a kind's is its prefix without the dot. */
void judge_section_id(size_t sec, char *buf, size_t size)
{
	if (sec < NELEM(cmp_sections))
		snprintf(buf, size, "%s", cmp_sections[sec].id);
	else if (sec < judge_section_other())
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
	return judge_section_other();
}

static int cmp_usable(const struct result *r)
{
	return (r->status == RES_OK || r->status == RES_NOISY) && isfinite(result_figure(r)) &&
	       result_figure(r) > 0 && r->npoints == 0;
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
static int cmp_gather(const struct judge_cmp_side *side, const double *run_adds,
		      const struct result *key, struct judge_cmp_cell *c, struct cmp_data *d)
{
	const double none = (double)NAN;
	double **meds = &d->meds;
	const char *set = NULL;

	*c = (struct judge_cmp_cell){ .median = none, .lo = none, .hi = none, .change = none,
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
			m[c->nruns++] = result_figure(r);
			/* The runs of a set are stored one after the other. */
			if (!set || strcmp(set, side->runs[i].set_uuid) != 0) {
				set = side->runs[i].set_uuid;
				c->sets++;
			}
			if (r->status == RES_NOISY) {
				struct judge_spread sp = judge_run_spread(&side->runs[i]);

				c->noisy |= judge_loose(r, &sp);
			}
			result_figure_ci(r, &c->lo, &c->hi);
			if (r->samples && r->n &&
			    cmp_push(&d->samples, &d->ns, &d->scap, r->samples, r->n) < 0)
				return -1;
			for (size_t k = 0; r->replicas && k < r->nreplicas; k++) {
				double fig = result_replica_figure(&r->replicas[k]);

				if (cmp_push(&d->reps, &d->nreps, &d->rcap, &fig, 1) < 0 ||
				    cmp_push(&d->repx, &d->nrepx, &d->xcap, &r->replicas[k].sentinel_user,
					     1) < 0)
					return -1;
			}
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
static int cmp_state(const struct judge_cmp_cell *base, const struct cmp_data *b,
		     struct judge_cmp_cell *o, const struct cmp_data *d, int lower,
		     struct cmp_levels *lv)
{
	const struct judge_cmp_cell *cell[2] = { base, o };
	const struct cmp_data *data[2] = { b, d };
	struct stats_state st;
	int used = 0;

	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < cell[s]->nruns; i++)
			if (!data[s]->repk[i])
				return 0;
	if (!(fabs(log(o->median / base->median)) < log1p(2 * JUDGE_CMP_STATE_WIDTH)) ||
	    stats_common_state(b->reps, b->repk, base->nruns, d->reps, d->repk, o->nruns, lower,
			       JUDGE_CMP_STATE_WIDTH, &st) < 0)
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
static int cmp_adjust(const struct judge_cmp_cell *base, const struct cmp_data *b,
		      const struct judge_cmp_cell *o, const struct cmp_data *d,
		      struct cmp_adjusted *adj)
{
	const struct judge_cmp_cell *cell[2] = { base, o };
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
static int cmp_pairs(const struct judge_cmp_side *base, const struct judge_cmp_side *other,
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
				pp->a[pp->n] = result_replica_figure(&x->replicas[k]);
				pp->b[pp->n++] = result_replica_figure(&y->replicas[k]);
			}
		}
	return 0;
}

void judge_level_widen(struct result *r, double s)
{
	double lo, hi;

	if (!(s > 0) || !result_level_known(r) || !(r->level > 0) || !(r->level_low > 0) ||
	    !(r->level_high > 0))
		return;
	lo = log(r->level / r->level_low);
	hi = log(r->level_high / r->level);
	r->level_low = r->level * exp(-sqrt(lo * lo + s * s));
	r->level_high = r->level * exp(sqrt(hi * hi + s * s));
}

void judge_level_sittings(struct result *r, const struct stats_sittings *st,
			  const struct stats_sittings *prior)
{
	double df = st->df > 0 ? st->df : 0, tau2 = st->df > 0 ? st->df * st->tau2 : 0, s;

	if (prior && prior->df > 0) {
		tau2 += JUDGE_PRIOR_DF * prior->tau2;
		df += JUDGE_PRIOR_DF;
	}
	if (!(df > 0) || !(tau2 > 0) || !result_level_known(r) ||
	    result_value(r, JUDGE_SITTINGS_VALUE))
		return;
	s = stats_t975(df) * sqrt(tau2 / df);
	judge_level_widen(r, s);
	/* Full (a curve's many values): the table's interval stands, a merge does not widen it again. */
	if (r->nvalues < BENCH_MAX_VALUES)
		result_value_add(r, JUDGE_SITTINGS_VALUE, s, NULL);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int judge_sittings_prior(const struct judge_cmp_side *hist, struct stats_sittings *prior)
{
	const struct run_info *newest;
	double *t;
	size_t n = 0;

	memset(prior, 0, sizeof(*prior));
	if (!hist || hist->nruns == 0)
		return 0;
	/* The instances of its largest run: a suite's figures, each once. */
	newest = &hist->runs[0];
	for (size_t i = 1; i < hist->nruns; i++)
		if (hist->runs[i].nresults > newest->nresults)
			newest = &hist->runs[i];
	if (!(t = malloc((newest->nresults ? newest->nresults : 1) * sizeof(*t))))
		return -1;
	for (size_t k = 0; k < newest->nresults; k++) {
		struct stats_sittings st;

		if (!cmp_usable(&newest->results[k]))
			continue;
		if (judge_compare_sittings(hist, &newest->results[k], LEVEL_FAST, &st) < 0) {
			free(t);
			return -1;
		}
		if (st.df > 0)
			t[n++] = st.tau2;
	}
	if (n) {
		qsort(t, n, sizeof(*t), cmp_double);
		prior->tau2 = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
		prior->df = (double)n;
		prior->sittings = n;
	}
	free(t);
	return 0;
}

int judge_compare_sittings(const struct judge_cmp_side *hist, const struct result *key,
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
static int cmp_same_sitting(const struct judge_cmp_side *a, const struct judge_cmp_side *b)
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
 * --as-measured); pairs_only: tested in pairs or not at
 * all (JUDGE_CMP_PAIRS_ONLY).
 */
static void cmp_test(struct judge_cmp_cell *base, const struct cmp_data *b,
		     struct judge_cmp_cell *o, const struct cmp_data *d, int lower, int measured,
		     int pairs_only, const struct cmp_pairs *pp, const struct stats_sittings *sit)
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
		size_t kept = stats_pairs_within(pp->a, pp->b, pp->n, JUDGE_CMP_STATE_WIDTH);

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
	if (pairs_only)
		return;

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

void judge_compare_machine(const struct judge_cmp_side *sides, size_t nsides,
			    struct judge_cmp_machine *m)
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
static int cmp_levels_differ(const struct judge_cmp_side *sides, size_t nsides,
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
static size_t cmp_count(const struct judge_cmp_cell *base, const struct judge_cmp_cell *o)
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
static void cmp_detectable(struct judge_cmp_cell *o, double bar, double threshold, double alpha,
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
	se = (log(o->ratio_hi) - log(o->ratio_lo)) / 2 / stats_t975(df);
	se_true = sqrt(se * se - o->sitting_var + o->sitting_var_hi);
	o->detectable = expm1(stats_detectable_at(se, se_true, df, alpha,
						  bar < 1 ? -log1p(-bar) : (double)INFINITY));
	lr = log(o->ratio);
	h = stats_t975(df) * se_true;
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

int judge_compare_build(const struct judge_cmp_side *sides, size_t nsides, double threshold,
			 unsigned flags, struct judge_cmp_row **rows_out, size_t *nrows_out)
{
	return judge_compare_build_history(sides, nsides, threshold, flags, NULL, rows_out,
					    nrows_out);
}

int judge_compare_build_history(const struct judge_cmp_side *sides, size_t nsides,
				 double threshold, unsigned flags,
				 const struct judge_cmp_side *history,
				 struct judge_cmp_row **rows_out, size_t *nrows_out)
{
	struct judge_cmp_row *rows = NULL;
	struct judge_cmp_machine machine[JUDGE_CMP_MAX_SIDES];
	size_t nrows = 0, np = 0;
	double *p = NULL, *adj = NULL, bar, *adds[JUDGE_CMP_MAX_SIDES] = { NULL };

	*rows_out = NULL;
	*nrows_out = 0;
	if (nsides < 2 || nsides > JUDGE_CMP_MAX_SIDES)
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
	int apart[JUDGE_CMP_MAX_SIDES] = { 0 };
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
			struct judge_cmp_row *more = realloc(rows, (nrows + 1) * sizeof(*rows));
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
		struct judge_cmp_row *row = &rows[k];
		int bad = cmp_gather(&sides[0], adds[0], row->key, &row->cell[0], &b) < 0 ||
			  judge_compare_sittings(history, row->key, LEVEL_FAST, &sit) < 0;

		for (size_t s = 1; s < nsides && !bad; s++) {
			struct judge_cmp_cell *o = &row->cell[s];

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
					 row->sentinel || (flags & JUDGE_CMP_AS_MEASURED),
					 !!(flags & JUDGE_CMP_PAIRS_ONLY), &pp, o->apart ? &sit : NULL);
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
	judge_compare_machine(sides, nsides, machine);
	/* The rows the correction kept, for each row's level: it joins them at (kept + 1) / np. */
	size_t kept = 0;
	for (size_t i = 0; i < np; i++)
		kept += adj[i] < JUDGE_CMP_ALPHA;
	size_t tested = np;
	np = 0;
	for (size_t k = 0; k < nrows; k++)
		for (size_t s = 1; s < nsides; s++) {
			struct judge_cmp_cell *o = &rows[k].cell[s];
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
			bar = threshold + (!(flags & JUDGE_CMP_AS_MEASURED) &&
					   o->test != CMP_TEST_ANCOVA_RUNS &&
					   o->test != CMP_TEST_WELCH_ADJUSTED &&
					   o->test != CMP_TEST_PAIRED &&
					   isfinite(machine[s].user_shift) ?
					   fabs(machine[s].user_shift) : 0);
			o->significant = o->p_adj < JUDGE_CMP_ALPHA && fabs(o->change) >= bar &&
					 (o->test != CMP_TEST_MW_SAMPLES ||
					  (!o->noisy && !rows[k].cell[0].noisy));
			cmp_detectable(o, bar, threshold,
				       JUDGE_CMP_ALPHA * (double)(kept - (o->p_adj < JUDGE_CMP_ALPHA) + 1) /
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


/* The median of a side's runs' value key for key's instance: NaN where none has it. */
static double cmp_event_median(const struct judge_cmp_side *side, const struct result *key,
			       const char *ev)
{
	double v[64], med = (double)NAN;
	struct stats_summary ss;
	size_t n = 0;

	for (size_t i = 0; i < side->nruns; i++)
		for (size_t j = 0; j < side->runs[i].nresults && n < NELEM(v); j++) {
			const struct result *r = &side->runs[i].results[j];
			const struct bench_value *bv;

			if (result_same_instance(r, key) && cmp_usable(r) && (bv = result_value(r, ev)) &&
			    !bv->text[0] && isfinite(bv->num) && bv->num >= 0)
				v[n++] = bv->num;
		}
	if (n && stats_summarize(v, n, &ss) == 0)
		med = ss.median;
	return med;
}

size_t judge_compare_events(const struct judge_cmp_side *sides, size_t s, const struct result *key,
			    struct judge_cmp_event *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < key->nvalues && n < max; i++) {
		const char *ev = key->values[i].key;
		double a, b;

		if (strncmp(ev, "ev_", 3) != 0)
			continue;
		a = cmp_event_median(&sides[0], key, ev);
		b = cmp_event_median(&sides[s], key, ev);
		if (!isfinite(a) || !isfinite(b) || fabs(b - a) < JUDGE_CMP_EVENT_FLOOR ||
		    (a > 0 && fabs(b / a - 1) < JUDGE_CMP_EVENT_MOVE))
			continue;
		snprintf(out[n].key, sizeof(out[n].key), "%s", ev);
		out[n].base = a;
		out[n].other = b;
		out[n].change = a > 0 ? b / a - 1 : (double)INFINITY;
		n++;
	}
	return n;
}
