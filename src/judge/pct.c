/*
 * A distribution compared at a named percentile; see pct.h.
 */
#include "judge/pct.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"

int judge_pct_valid(double p)
{
	return isfinite(p) && p > 0 && p <= 100;
}

double judge_pct_of(const struct result *r)
{
	return r->figured_at > 0 ? r->figured_at : 0;
}

/* r at percentile p: 1 taken, 0 left out (no samples), -1 without memory. */
static int pct_take(struct result *r, double p)
{
	double est, lo, hi, *rep = NULL;
	int have;

	if (!r->samples || !r->where || !r->n || !r->replicas || !r->nreplicas)
		return 0;
	if (result_percentile(r, p, &est, &lo, &hi) < 0 || !(est > 0))
		return 0;
	if (!(rep = malloc(r->nreplicas * sizeof(*rep))))
		return -1;
	if ((have = result_replica_percentiles(r, p, rep, r->nreplicas)) < 0) {
		free(rep);
		return -1;
	}
	r->level = r->median = est;
	/* With one replica known, the interval is unknown: the test takes the runs'. */
	r->level_low = r->ci_low = isfinite(lo) ? lo : est;
	r->level_high = r->ci_high = isfinite(hi) ? hi : est;
	r->slow_share = (double)NAN;
	r->slow_depth = 0;
	r->p5 = r->p95 = (double)NAN;
	for (size_t k = 0; k < r->nreplicas; k++) {
		r->replicas[k].median = r->replicas[k].fast = rep[k];
		r->replicas[k].lo = r->replicas[k].hi = rep[k];
	}
	free(rep);
	r->figured_at = p;
	return 1;
}

int judge_pct_apply(struct run_info *runs, size_t nruns, double p, struct judge_pct_count *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < nruns; i++)
		for (size_t j = 0; j < runs[i].nresults; j++) {
			struct result *r = &runs[i].results[j];
			int rc;

			if (r->status != RES_OK && r->status != RES_NOISY)
				continue;
			if (!result_value(r, hist_pct_keys[0])) {
				c->levels++;
				continue;
			}
			if ((rc = pct_take(r, p)) < 0)
				return -1;
			if (rc) {
				c->taken++;
				continue;
			}
			c->unread++;
			r->status = RES_SKIP;
			snprintf(r->reason, sizeof(r->reason), "no samples of its replicas: no "
				 "percentile %g of its own", p);
		}
	return 0;
}
