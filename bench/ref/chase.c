/*
 * Independent reference for kbench's memory latencies: a pointer chase
 * over SIZE_MB MiB of memory (a fraction for a cache: 0.015625 is 16 KiB),
 * written separately and more simply than kbench's.  The C library's
 * memory on a page boundary (THP as the system sets it), one node per 64-byte
 * line holding the address of the next, LOADS dependent loads timed with
 * clock_gettime(CLOCK_MONOTONIC), the median of TRIES; prints nanoseconds per load
 * and nothing else.  ORDER "line" (mem.lat.main): all lines on one cycle
 * (Sattolo's shuffle).  ORDER "page" (mem.lat.l1 to l3): the pages in a
 * random order and each page's lines in a random order, one page after
 * the other, so that a TLB miss comes once per page's lines and the
 * caches are what is timed.  No loop-overhead subtraction: the counter is
 * an integer apart from the chain of loads, which the CPU runs beside it.
 *
 * With REF_BEST in the environment it prints the fastest of the TRIES
 * instead: the fast state's figure, what kbench's level reads.
 * With REF_P5 it prints their 5th percentile instead (pick.h says why).
 *
 * usage: chase [SIZE_MB [LOADS_MILLIONS [TRIES [ORDER]]]]   (1024, 20, 5, line)
 * build: cc -O2 -o chase chase.c
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pick.h"

struct node {
	struct node *next;
	char pad[56];
};

static uint64_t rnd(uint64_t *s)
{
	/* splitmix64: a different generator from kbench's on purpose. */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * v = 0..n-1 shuffled: every order alike (Fisher-Yates), or with cycle a
 * single cycle (Sattolo's: v[i] is where i goes next).
 */
static void shuffle(uint32_t *v, size_t n, uint64_t *seed, int cycle)
{
	for (size_t i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = rnd(seed) % (cycle ? i : i + 1);
		uint32_t t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

int main(int argc, char **argv)
{
	double mb = argc > 1 ? strtod(argv[1], NULL) : 1024;
	uint64_t loads = (uint64_t)((argc > 2 ? atof(argv[2]) : 20) * 1e6);
	int tries = argc > 3 ? atoi(argv[3]) : 5;
	const char *order = argc > 4 ? argv[4] : "line";
	size_t n = (size_t)(mb * 1024 * 1024) / sizeof(struct node);
	size_t per_page = 4096 / sizeof(struct node);
	struct node *a = NULL;
	uint32_t *perm = malloc(n * sizeof(*perm));
	uint64_t seed = 12345;
	struct node *p;
	double per[64];

	if (tries < 1 || tries > 64 || loads < 1) {
		fprintf(stderr, "chase: TRIES must be 1 to 64, LOADS above 0\n");
		return 2;
	}
	if (strcmp(order, "line") != 0 && (strcmp(order, "page") != 0 || n % per_page)) {
		fprintf(stderr, "chase: ORDER is line or page (whole 4 KiB pages)\n");
		return 2;
	}
	if (n < 2 || n > UINT32_MAX || posix_memalign((void **)&a, 4096, n * sizeof(*a)) || !perm) {
		fprintf(stderr, "chase: cannot allocate %g MiB\n", mb);
		return 1;
	}
	if (strcmp(order, "line") == 0) {
		shuffle(perm, n, &seed, 1);
		for (size_t i = 0; i < n; i++)
			a[i].next = &a[perm[i]];
	} else {
		/* The visiting order: pages shuffled, then the lines within each. */
		size_t pages = n / per_page, at = 0;
		uint32_t *pg = malloc(pages * sizeof(*pg)), ln[4096 / sizeof(struct node)];

		if (!pg) {
			fprintf(stderr, "chase: cannot allocate the page order\n");
			return 1;
		}
		shuffle(pg, pages, &seed, 0);
		for (size_t i = 0; i < pages; i++) {
			shuffle(ln, per_page, &seed, 0);
			for (size_t l = 0; l < per_page; l++)
				perm[at++] = (uint32_t)(pg[i] * per_page + ln[l]);
		}
		free(pg);
		/* Each node points to the next in that order, the last to the first. */
		for (size_t i = 0; i < n; i++)
			a[perm[i]].next = &a[perm[(i + 1) % n]];
	}
	free(perm);
	p = a;
	for (int t = 0; t < tries; t++) {
		double t0 = ref_now_ns();
		for (uint64_t k = 0; k < loads; k++)
			p = p->next;
		per[t] = (ref_now_ns() - t0) / (double)loads;
	}
	/* Insertion sort: a handful of values. */
	for (int i = 1; i < tries; i++)
		for (int j = i; j > 0 && per[j] < per[j - 1]; j--) {
			double x = per[j];
			per[j] = per[j - 1];
			per[j - 1] = x;
		}
	/* p depends on every load: printing it keeps the chase. */
	fprintf(stderr, "chase: ended at node %td\n", p - a);
	printf("%.2f\n", ref_pick(per, tries));
	return 0;
}
