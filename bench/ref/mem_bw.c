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
 * -8 reads or writes the buffer as 8 streams side by side, each over its
 * own eighth, as kbench's mem.read.bw and mem.write.bw do: more misses in
 * flight than one stream's prefetcher keeps, so closer to what the memory
 * can give; every word is still touched once a pass.
 *
 * With REF_BEST in the environment it prints the fastest of the PASSES
 * instead, each pass timed on its own (the most MB/s): the fast state's
 * figure, what kbench's level reads.
 * REF_P5 reads as REF_BEST: of 20 repetitions the 5th percentile is the
 * fastest but one, which this program does not keep.
 *
 * usage: mem_bw [-H] [-8] read|copy|write [SIZE_MIB [PASSES]]   (defaults 128, 20)
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

/*
 * Eight streams of n / 8 words side by side, and the rest: eight named
 * accumulators, so that the compiler makes each stream's adds vector adds.
 */
__attribute__((noinline)) static uint64_t sum_streams(const uint64_t *w, size_t n)
{
	const uint64_t *s0 = w, *s1, *s2, *s3, *s4, *s5, *s6, *s7;
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
	size_t m = n / 8, i;

	s1 = s0 + m, s2 = s1 + m, s3 = s2 + m, s4 = s3 + m, s5 = s4 + m, s6 = s5 + m, s7 = s6 + m;
	for (i = 0; i < m; i++) {
		a0 += s0[i];
		a1 += s1[i];
		a2 += s2[i];
		a3 += s3[i];
		a4 += s4[i];
		a5 += s5[i];
		a6 += s6[i];
		a7 += s7[i];
	}
	for (i = 8 * m; i < n; i++)
		a0 += w[i];
	return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}

__attribute__((noinline)) static void store_streams(uint64_t *w, size_t n, uint64_t v)
{
	uint64_t *s0 = w, *s1, *s2, *s3, *s4, *s5, *s6, *s7;
	size_t m = n / 8, i;

	s1 = s0 + m, s2 = s1 + m, s3 = s2 + m, s4 = s3 + m, s5 = s4 + m, s6 = s5 + m, s7 = s6 + m;
	for (i = 0; i < m; i++) {
		s0[i] = v;
		s1[i] = v;
		s2[i] = v;
		s3[i] = v;
		s4[i] = v;
		s5[i] = v;
		s6[i] = v;
		s7[i] = v;
	}
	for (i = 8 * m; i < n; i++)
		w[i] = v;
}

int main(int argc, char **argv)
{
	int huge = 0, eight = 0;
	volatile uint64_t sink;

	if (argc > 1 && strcmp(argv[1], "-H") == 0) {
		huge = 1;
		argc--;
		argv++;
	}
	if (argc > 1 && strcmp(argv[1], "-8") == 0) {
		eight = 1;
		argc--;
		argv++;
	}
	const char *op = argc > 1 ? argv[1] : "";
	size_t len = (size_t)(argc > 2 ? atol(argv[2]) : 128) << 20;
	long passes = argc > 3 ? atol(argv[3]) : 20;
	size_t n = len / sizeof(uint64_t);
	int copy = strcmp(op, "copy") == 0;
	uint64_t *a, *b = NULL;
	double t0, t1, best = 0;

	if ((!copy && strcmp(op, "read") != 0 && strcmp(op, "write") != 0) || len == 0 ||
	    passes <= 0) {
		fprintf(stderr, "usage: mem_bw [-H] [-8] read|copy|write [SIZE_MIB [PASSES]]\n");
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
		sink = eight ? sum_streams(a, n) : sum_words(a, n);
	else if (eight)
		store_streams(a, n, 1);
	else
		store_words(a, n, 1);
	/*
	 * Each pass read off the clock as it ends, so that REF_BEST has the
	 * fastest: one clock read between passes of milliseconds costs nothing
	 * the whole run's figure would see.
	 */
	t0 = t1 = now_s();
	for (long p = 0; p < passes; p++) {
		double end;

		/* Memory may have changed: no pass can be merged with another. */
		__asm__ volatile("" ::: "memory");
		if (copy)
			memcpy(b, a, len);
		else if (op[0] == 'r')
			sink = eight ? sum_streams(a, n) : sum_words(a, n);
		else if (eight)
			store_streams(a, n, (uint64_t)p);
		else
			store_words(a, n, (uint64_t)p);
		end = now_s();
		if (best == 0 || end - t1 < best)
			best = end - t1;
		t1 = end;
	}
	sink = copy ? b[n - 1] : a[n - 1];
	(void)sink;
	if ((getenv("REF_BEST") || getenv("REF_P5")))
		printf("%.1f\n", (double)len / best / 1e6);
	else
		printf("%.1f\n", (double)len * passes / (t1 - t0) / 1e6);
	return 0;
}
