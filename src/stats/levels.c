/*
 * Cache levels from a latency curve.  Dependent loads over an array take
 * one cache's latency while the array fits that cache, then climb to the
 * next level's over a few octaves of size (associativity and physical
 * page placement blur the edge).  So the curve is flat stretches joined by
 * climbs: find the climbs, and the flat stretches before them are the
 * cache levels.
 *
 * A climb is a run of neighbours whose latency rises by more than
 * LEVELS_STEP each.  A flat stretch needs two points; a lone point between
 * two climbs is part of the climb.  Two stretches are two levels only when
 * their latencies differ by LEVELS_JUMP, so that one noisy point or the
 * creep of TLB misses is not taken for a cache.  A curve that ends on a
 * flat stretch has reached main memory; one that ends climbing has not,
 * and every stretch on it is a cache.
 */
#include "stats/levels.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rise between neighbouring points that makes them part of a climb (15%). */
#define LEVELS_STEP 1.15
/* Rise between two stretches that makes them two levels (40%). */
#define LEVELS_JUMP 1.40
#define LEVELS_MAX_STRETCHES 64

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median latency of points first..last (a stretch is short). */
static double stretch_ns(const double *ns, size_t first, size_t last)
{
	double v[256];
	size_t n = 0;

	for (size_t i = first; i <= last && n < sizeof(v) / sizeof(v[0]); i++)
		v[n++] = ns[i];
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int rises(const double *ns, size_t i)
{
	return ns[i + 1] > ns[i] * LEVELS_STEP;
}

/* The flat stretches of two points or more, and whether the last ends the curve. */
static size_t stretches(const double *size, const double *ns, size_t n, struct level *st,
			int *ends_flat)
{
	size_t nst = 0, i = 0;

	*ends_flat = 0;
	while (i < n && nst < LEVELS_MAX_STRETCHES) {
		size_t j = i;

		while (j + 1 < n && !rises(ns, j))
			j++;
		if (j > i) {
			st[nst] = (struct level){ size[j], stretch_ns(ns, i, j), i, j };
			nst++;
			*ends_flat = j == n - 1;
		}
		i = j + 1;
		/* Up the climb: its top is the first point of whatever follows. */
		while (i + 1 < n && rises(ns, i))
			i++;
	}
	return nst;
}

int levels_detect(const double *size, const double *ns, size_t n, struct levels *out,
		  char *why, size_t whylen)
{
	struct level st[LEVELS_MAX_STRETCHES], lv[LEVELS_MAX_STRETCHES];
	size_t nst, nlv = 0;
	int ends_flat;

	memset(out, 0, sizeof(*out));
	if (n < 4) {
		snprintf(why, whylen, "%zu points are too few to find a step", n);
		return 0;
	}
	for (size_t k = 0; k < n; k++)
		if (!(ns[k] > 0) || !isfinite(ns[k]) || !(size[k] > 0) ||
		    (k > 0 && !(size[k] > size[k - 1]))) {
			snprintf(why, whylen, "point %zu is not a positive latency at a growing size", k);
			return 0;
		}
	nst = stretches(size, ns, n, st, &ends_flat);
	if (nst == 0) {
		snprintf(why, whylen, "no flat stretch: the latency climbs all the way");
		return 0;
	}
	/* A stretch too close to the one before is the same level, interrupted by noise. */
	for (size_t k = 0; k < nst; k++) {
		if (nlv > 0 && st[k].ns < lv[nlv - 1].ns * LEVELS_JUMP) {
			struct level *l = &lv[nlv - 1];

			l->last = st[k].last;
			l->size = st[k].size;
			l->ns = stretch_ns(ns, l->first, l->last);
			continue;
		}
		lv[nlv++] = st[k];
	}
	if (ends_flat && nlv > 0) {
		out->has_main = 1;
		out->main = lv[--nlv];
	}
	if (nlv == 0) {
		snprintf(why, whylen, "no clear step: the latency stays within %.0f%% of %.3g ns "
			 "from %.0f to %.0f bytes", 100 * (LEVELS_JUMP - 1), out->main.ns, size[0],
			 size[n - 1]);
		return 0;
	}
	if (nlv > LEVELS_MAX) {
		snprintf(why, whylen, "%zu levels, more than %d: the curve is too noisy to read", nlv,
			 LEVELS_MAX);
		out->has_main = 0;
		return 0;
	}
	for (size_t k = 0; k < nlv; k++)
		out->cache[k] = lv[k];
	out->ncache = (int)nlv;
	return out->ncache;
}
