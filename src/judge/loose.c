/*
 * Loose figures: the mark that says a figure is less sure than the rest
 * of its run.  The machine's own spread floors every interval (the
 * sentinel's, core/replica.c), and on a shared VM that floor alone misses
 * a 1% precision, so "noisy" (missed its precision) is on every figure
 * and says nothing.  A figure is loose where it missed its precision and
 * its interval is over JUDGE_LOOSE_FACTOR times its run's typical
 * figure's: where its replicas disagree more than the machine made the
 * others' (bench/marks.py measures what the mark predicts of the next
 * invocation).  A run of a few figures has no typical one: the machine's
 * spread stands in, or, unknown, the precision missed is the mark.  Both
 * are weighed on the run's own intervals: what the host's spread between
 * sittings added to each (judge_level_sittings) is no replica's disagreement.
 */
#include "judge/loose.h"
#include "judge/compare.h"

#include <math.h>
#include <stdlib.h>

/* Below this many figures a run has no typical interval of its own. */
#define LOOSE_MIN_FIGURES 5

double judge_rel_halfwidth(const struct result *r)
{
	double lo, hi, m = result_figure(r), hw;

	result_figure_ci(r, &lo, &hi);
	hw = fmax(m - lo, hi - m);

	return m > 0 && isfinite(hw) ? hw / m : (double)NAN;
}

/* r's half-width without the sittings' part, as its replicas gave it. */
static double loose_within(const struct result *r)
{
	const struct bench_value *v = result_value(r, JUDGE_SITTINGS_VALUE);
	double h = judge_rel_halfwidth(r), l;

	if (!v || !(v->num > 0) || !isfinite(h))
		return h;
	l = log1p(h);
	return expm1(sqrt(fmax(0, l * l - v->num * v->num)));
}

static int loose_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double loose_median(double *x, size_t n)
{
	if (n == 0)
		return (double)NAN;
	qsort(x, n, sizeof(*x), loose_cmp);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static int loose_usable(const struct result *r)
{
	return (r->status == RES_OK || r->status == RES_NOISY) && isfinite(result_figure(r));
}

struct judge_spread judge_run_spread(const struct run_info *run)
{
	struct judge_spread sp = { (double)NAN, (double)NAN, 0 };
	size_t cap = run->nresults ? run->nresults : 1, nh = 0, nm = 0;
	double *hw = malloc(2 * cap * sizeof(*hw)), *mp;

	if (!hw)
		return sp;
	mp = hw + cap;
	for (size_t i = 0; i < run->nresults; i++) {
		const struct result *r = &run->results[i];
		const struct bench_value *v = result_value(r, "machine_share");
		double h = loose_within(r);

		if (!loose_usable(r) || !isfinite(h))
			continue;
		hw[nh++] = h;
		if (v && !v->text[0] && v->num > 0)
			mp[nm++] = v->num;
	}
	sp.n = nh;
	sp.typical = loose_median(hw, nh);
	sp.machine = loose_median(mp, nm);
	free(hw);
	return sp;
}

int judge_loose_typical(const struct judge_spread *sp)
{
	return sp->n >= LOOSE_MIN_FIGURES;
}

int judge_loose(const struct result *r, const struct judge_spread *sp)
{
	double base = judge_loose_typical(sp) ? sp->typical : sp->machine;

	return r && loose_usable(r) && r->status == RES_NOISY &&
	       !(loose_within(r) <= JUDGE_LOOSE_FACTOR * base);
}
