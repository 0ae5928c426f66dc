/*
 * Independent reference for kbench's mem.lat.main: a random pointer chase
 * over SIZE_MB MiB of memory, written separately and more simply than
 * kbench's.  malloc'd memory (the C library's, THP as the system sets it
 * for malloc), one node per 64-byte line holding the index of the next,
 * all lines on one cycle (Sattolo's shuffle), LOADS dependent loads timed
 * with clock_gettime(CLOCK_MONOTONIC), the median of TRIES (kbench quotes
 * medians too; the best would be biased low); prints nanoseconds per load
 * and nothing else.  No loop-overhead subtraction: at hundreds of
 * nanoseconds a load it is below a tenth of a percent.
 *
 * usage: chase [SIZE_MB [LOADS_MILLIONS [TRIES]]]   (defaults 1024, 20, 5)
 * build: cc -O2 -o chase chase.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct node {
	uint64_t next;
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

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], NULL, 10) : 1024;
	double loads = (argc > 2 ? atof(argv[2]) : 20) * 1e6;
	int tries = argc > 3 ? atoi(argv[3]) : 5;
	size_t n = mb * 1024 * 1024 / sizeof(struct node);
	struct node *a = malloc(n * sizeof(*a));
	uint32_t *perm = malloc(n * sizeof(*perm));
	uint64_t seed = 12345, p = 0;
	double per[64];

	if (tries < 1 || tries > 64) {
		fprintf(stderr, "chase: TRIES must be 1 to 64\n");
		return 2;
	}
	if (!a || !perm || n < 2 || n > UINT32_MAX) {
		fprintf(stderr, "chase: cannot allocate %zu MiB\n", mb);
		return 1;
	}
	/* Sattolo: a random permutation that is a single cycle. */
	for (size_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = rnd(&seed) % i;
		uint32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (size_t i = 0; i < n; i++)
		a[i].next = perm[i];
	free(perm);
	for (int t = 0; t < tries; t++) {
		double t0 = now_ns();
		for (double k = 0; k < loads; k++)
			p = a[p].next;
		per[t] = (now_ns() - t0) / loads;
	}
	/* Insertion sort: a handful of values. */
	for (int i = 1; i < tries; i++)
		for (int j = i; j > 0 && per[j] < per[j - 1]; j--) {
			double x = per[j];
			per[j] = per[j - 1];
			per[j - 1] = x;
		}
	/* p depends on every load: printing it keeps the chase. */
	fprintf(stderr, "chase: ended at node %llu\n", (unsigned long long)p);
	printf("%.1f\n", tries % 2 ? per[tries / 2] : (per[tries / 2 - 1] + per[tries / 2]) / 2);
	return 0;
}
