/*
 * Cache levels from a memory latency curve: where the latency of dependent
 * loads steps up as the array outgrows a cache.  Pure arithmetic on the
 * curve, so it is tested on synthetic curves with known steps.
 */
#ifndef KB_LEVELS_H
#define KB_LEVELS_H

#include <stddef.h>

/* One plateau of the curve: a cache level, or main memory (the last). */
struct level {
	double size;		/* largest array size on the plateau, bytes */
	double ns;		/* latency on the plateau (median of its points) */
	size_t first, last;	/* indices of its first and last point */
};

#define LEVELS_MAX 6

/*
 * Find the plateaus of the curve (sizes ascending, latencies in ns) and
 * return how many (at most LEVELS_MAX).  Fewer than two means no clear step:
 * 0 is returned and `why` says what was wrong, rather than a guess.
 */
int levels_detect(const double *size, const double *ns, size_t n, struct level *out,
		  char *why, size_t whylen);

#endif
