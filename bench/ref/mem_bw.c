/*
 * Plain reference for kbench's mem.read.bw, mem.bcopy_libc.bw and
 * mem.write.bw: one buffer (two for a copy) of SIZE_MIB MiB, filled (so
 * every page is faulted in) and passed over once before the clock starts,
 * then PASSES passes timed together with clock_gettime(CLOCK_MONOTONIC);
 * prints the bytes of one pass x PASSES / time in MB/s (MB = 10^6 bytes,
 * a copy counting the bytes copied, as kbench and lmbench do) and nothing
 * else on stdout.  No check of the data beyond a sink for the sum: the
 * simplest honest loop, which kbench should match.
 *
 *   read   sum of the buffer's 64-bit words, four accumulators; at -O3
 *          -march=native GCC makes them vectors
 *   copy   memcpy of the whole buffer into the other, the C library's
 *   write  a 64-bit word stored over the whole buffer, a plain loop
 *
 * -H maps the buffers aligned to 2 MiB and asks for transparent huge pages
 * (madvise MADV_HUGEPAGE), as kbench does, to measure what that is worth;
 * without it the buffers come from malloc, as a program's would.
 *
 * usage: mem_bw [-H] read|copy|write [SIZE_MIB [PASSES]]   (defaults 128, 20)
 * build: cc -O3 -march=native -o mem_bw mem_bw.c
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define HUGE_ALIGN (2ul << 20)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *get(size_t len, int huge)
{
	char *p;

	if (!huge)
		return malloc(len);
	p = mmap(NULL, len + HUGE_ALIGN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	p = (char *)(((uintptr_t)p + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1));
	madvise(p, len, MADV_HUGEPAGE);
	return p;
}

__attribute__((noinline)) static uint64_t sum_words(const uint64_t *w, size_t n)
{
	uint64_t a = 0, b = 0, c = 0, d = 0;
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		a += w[i];
		b += w[i + 1];
		c += w[i + 2];
		d += w[i + 3];
	}
	for (; i < n; i++)
		a += w[i];
	return a + b + c + d;
}

__attribute__((noinline)) static void store_words(uint64_t *w, size_t n, uint64_t v)
{
	for (size_t i = 0; i < n; i++)
		w[i] = v;
}

int main(int argc, char **argv)
{
	int huge = 0;
	volatile uint64_t sink;

	if (argc > 1 && strcmp(argv[1], "-H") == 0) {
		huge = 1;
		argc--;
		argv++;
	}
	const char *op = argc > 1 ? argv[1] : "";
	size_t len = (size_t)(argc > 2 ? atol(argv[2]) : 128) << 20;
	long passes = argc > 3 ? atol(argv[3]) : 20;
	size_t n = len / sizeof(uint64_t);
	int copy = strcmp(op, "copy") == 0;
	uint64_t *a, *b = NULL;
	double t0, t1;

	if ((!copy && strcmp(op, "read") != 0 && strcmp(op, "write") != 0) || len == 0 ||
	    passes <= 0) {
		fprintf(stderr, "usage: mem_bw [-H] read|copy|write [SIZE_MIB [PASSES]]\n");
		return 2;
	}
	a = get(len, huge);
	if (copy)
		b = get(len, huge);
	if (!a || (copy && !b)) {
		fprintf(stderr, "mem_bw: cannot allocate %zu MiB\n", len >> 20);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		a[i] = i * 0x9e3779b97f4a7c15ull;
	if (copy)
		memset(b, 0x5a, len);
	/* One pass untimed: the same start for every tool. */
	if (copy)
		memcpy(b, a, len);
	else if (op[0] == 'r')
		sink = sum_words(a, n);
	else
		store_words(a, n, 1);
	t0 = now_s();
	for (long p = 0; p < passes; p++) {
		/* Memory may have changed: no pass can be merged with another. */
		__asm__ volatile("" ::: "memory");
		if (copy)
			memcpy(b, a, len);
		else if (op[0] == 'r')
			sink = sum_words(a, n);
		else
			store_words(a, n, (uint64_t)p);
	}
	t1 = now_s();
	sink = copy ? b[n - 1] : a[n - 1];
	(void)sink;
	printf("%.1f\n", (double)len * passes / (t1 - t0) / 1e6);
	return 0;
}
