/*
 * Cache levels from a memory latency curve: where the latency of dependent
 * loads steps up as the array outgrows a cache.  Pure arithmetic on the
 * curve, so it is tested on synthetic curves with known steps.
 */
#ifndef KB_LEVELS_H
#define KB_LEVELS_H

#include <stddef.h>

/* One flat stretch of the curve. */
struct level {
	double size;		/* largest array size on the stretch, bytes */
	double ns;		/* latency on the stretch (median of its points) */
	size_t first, last;	/* indices of its first and last point */
};

#define LEVELS_MAX 6

struct levels {
	int ncache;			/* flat stretches followed by a climb */
	struct level cache[LEVELS_MAX];	/* from the smallest (L1) up */
	int has_main;			/* the curve ends on a flat stretch past them */
	struct level main;		/* that stretch: main memory */
};

/*
 * Read the cache levels off a curve (sizes ascending, latencies in ns): the
 * count of cache levels found.  0 means no clear step, and `why` says what
 * was wrong, rather than a guess.
 */
int levels_detect(const double *size, const double *ns, size_t n, struct levels *out,
		  char *why, size_t whylen);

#endif
