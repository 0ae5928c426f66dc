/*
 * Memory bandwidth, lmbench's bw_mem: copy a buffer with the C library's
 * memcpy and with a loop of our own, read it (a sum of its words) and write
 * it (a store of a word over all of it), in MB/s of 10^6 bytes.  One
 * iteration is one pass over the buffer; the bytes it counts are the bytes
 * copied, read or written once (lmbench's convention: a copy of N bytes is
 * N bytes, though memory moves at least 2N).
 *
 * The buffer is 4x the last-level cache and at least 256 MiB by default
 * (bench_buffer_size says why), so the figure is memory's, not a cache's; --size sets it, and in the full
 * suite each row is a curve over sizes from 4 KiB up to that size, where
 * the caches show as steps.
 *
 * Every pass is checked without a second pass over the data: the pass's
 * own tag (a value no earlier pass used) goes into a few words (the first,
 * the last, and one that moves from pass to pass) and must come out where
 * it should: in the copy's destination, in the written buffer, in the sum
 * read.  A pass skipped, repeated from a cache or optimised away fails the
 * run.  The copy routines and the sum are checked in full once, untimed,
 * in setup.
 *
 * Buffers are mapped fresh, aligned to 2 MiB and offered transparent huge
 * pages, then filled, so every page is faulted in before the clock runs.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench/families.h"
#include "plat/plat.h"
#include "bench/peer.h"
#include "core/timer.h"

enum mem_op { MEM_BCOPY_LIBC, MEM_BCOPY_HAND, MEM_READ, MEM_WRITE };

struct mem_param {
	enum mem_op op;		/* what a pass does */
	int nbufs;		/* buffers it needs: 2 for a copy */
};

/*
 * Alignment of every buffer: a huge page on x86-64, so that a kernel that
 * grants transparent huge pages can back the whole buffer with them.
 * Elsewhere it is merely generous.
 */
#define MEM_ALIGN (2u << 20)

/* One mapped buffer: what to unmap, and the aligned start within it. */
struct mem_buf {
	void *map;		/* what mmap gave, NULL when nothing is mapped */
	size_t maplen;		/* its length, the buffer's plus the alignment's */
	unsigned char *p;	/* the buffer: aligned, inside the mapping */
};

struct mem_state {
	struct mem_buf a, b;	/* a: read, written or copied from; b: copied to */
	size_t size;		/* bytes per pass */
	size_t nwords;		/* whole 64-bit words in a pass */
	size_t at, step;	/* the moving checked word, and how far it moves per pass */
	uint64_t pass;		/* passes since setup; names the next pass's tag */
	uint64_t sum;		/* read: what the buffer's words sum to now */
	/* Tests: the pass (from 1) that does no work, to see the check catch
	 * it; 0, none.  From $KBENCH_TEST_MEM_SKIP. */
	uint64_t skip;
};

/* ------------------------------------------------------------------ */
/* The loops                                                           */
/* ------------------------------------------------------------------ */

/*
 * 32-byte vectors (GCC's vector extension): with AVX2 one instruction
 * each, elsewhere two of SSE2.  may_alias: the same words are written and
 * checked as uint64_t.
 */
typedef uint64_t mem_v4 __attribute__((vector_size(32), may_alias));

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MEM_CLONES __attribute__((target_clones("avx2", "default"), noinline))
#else
#define MEM_CLONES __attribute__((noinline))
#endif

/*
 * Read and write walk the buffer as MEM_STREAMS streams side by side, each
 * over its own eighth, a line (two vectors) of each per step, rather than
 * as one stream from end to end.  Every byte is still touched once a pass;
 * what changes is that eight streams keep more misses to memory in flight
 * than the hardware prefetcher does for one: on the development VM (Zen 3)
 * the sum of a 128 MiB buffer went from about 11 to 13.5 GB/s and the
 * store from 7 to 8.5, while in the caches it costs up to 5% (L1, L2).
 * Memory bandwidth is a limit of the machine: the loop that comes closest
 * to it measures it best.
 */
#define MEM_STREAMS 8
#define MEM_LINE 64
/* Vectors each stream covers for len bytes; the rest, under 512 bytes, is done plainly. */
#define MEM_STREAM_VECS(len) ((len) / (MEM_STREAMS * MEM_LINE) * (MEM_LINE / sizeof(mem_v4)))

/*
 * The sum of len bytes of 64-bit words, a last partial word zero-filled.
 * Eight accumulators, one per stream, so that the adds' latency never
 * waits on a load.
 */
MEM_CLONES static uint64_t mem_sum(const void *buf, size_t len)
{
	const mem_v4 *v = buf;
	const unsigned char *p = buf;
	size_t m = MEM_STREAM_VECS(len), i;
	const mem_v4 *s0 = v, *s1 = v + m, *s2 = v + 2 * m, *s3 = v + 3 * m;
	const mem_v4 *s4 = v + 4 * m, *s5 = v + 5 * m, *s6 = v + 6 * m, *s7 = v + 7 * m;
	mem_v4 a0 = { 0 }, a1 = { 0 }, a2 = { 0 }, a3 = { 0 };
	mem_v4 a4 = { 0 }, a5 = { 0 }, a6 = { 0 }, a7 = { 0 }, x;
	uint64_t sum;

	for (i = 0; i < m; i += 2) {
		a0 += s0[i] + s0[i + 1];
		a1 += s1[i] + s1[i + 1];
		a2 += s2[i] + s2[i + 1];
		a3 += s3[i] + s3[i + 1];
		a4 += s4[i] + s4[i + 1];
		a5 += s5[i] + s5[i + 1];
		a6 += s6[i] + s6[i + 1];
		a7 += s7[i] + s7[i + 1];
	}
	x = (a0 + a1) + (a2 + a3) + (a4 + a5) + (a6 + a7);
	sum = x[0] + x[1] + x[2] + x[3];
	return sum + peer_sum_words(p, MEM_STREAMS * m * sizeof(mem_v4), len);
}

/*
 * Store w over len bytes (a last partial word gets w's first bytes), in
 * the same eight streams as the sum.  Plain stores, not non-temporal ones:
 * a program writing memory stores through the cache, and that is what this
 * measures, lmbench's "write".  A non-temporal store skips reading the line
 * for ownership and bypasses the cache, a different operation that
 * libraries pick for some sizes only; a curve that switched to it part way
 * would join two measurements.
 */
MEM_CLONES static void mem_store(void *buf, size_t len, uint64_t w)
{
	mem_v4 *v = buf, x = { w, w, w, w };
	unsigned char *p = buf;
	size_t m = MEM_STREAM_VECS(len), i;
	mem_v4 *s0 = v, *s1 = v + m, *s2 = v + 2 * m, *s3 = v + 3 * m;
	mem_v4 *s4 = v + 4 * m, *s5 = v + 5 * m, *s6 = v + 6 * m, *s7 = v + 7 * m;

	for (i = 0; i < m; i += 2) {
		s0[i] = s0[i + 1] = x;
		s1[i] = s1[i + 1] = x;
		s2[i] = s2[i + 1] = x;
		s3[i] = s3[i + 1] = x;
		s4[i] = s4[i + 1] = x;
		s5[i] = s5[i + 1] = x;
		s6[i] = s6[i + 1] = x;
		s7[i] = s7[i + 1] = x;
	}
	for (i = MEM_STREAMS * m * sizeof(mem_v4); i + sizeof(w) <= len; i += sizeof(w))
		memcpy(p + i, &w, sizeof(w));
	if (i < len)
		memcpy(p + i, &w, len - i);
}

/*
 * lmbench's "bcopy (hand)": 64-bit words, eight loads then eight stores a
 * step, whatever the compiler makes of it: GCC 12 at -O2 pairs them into
 * 16-byte moves, and does not turn the loop into a call to memcpy, which
 * would make this row the other one (objdump shows the loop).  The last
 * bytes, fewer than 64, are left to memcpy.
 */
__attribute__((noinline)) static void mem_copy_hand(void *dst, const void *src, size_t len)
{
	uint64_t *d = dst;
	const uint64_t *s = src;
	size_t n = len / sizeof(*d) / 8 * 8, i;

	for (i = 0; i < n; i += 8) {
		uint64_t w0 = s[i], w1 = s[i + 1], w2 = s[i + 2], w3 = s[i + 3];
		uint64_t w4 = s[i + 4], w5 = s[i + 5], w6 = s[i + 6], w7 = s[i + 7];

		d[i] = w0;
		d[i + 1] = w1;
		d[i + 2] = w2;
		d[i + 3] = w3;
		d[i + 4] = w4;
		d[i + 5] = w5;
		d[i + 6] = w6;
		d[i + 7] = w7;
	}
	memcpy(d + n, s + n, len - n * sizeof(*d));
}

/* The row's copy: the C library's or ours. */
static inline void mem_copy(enum mem_op op, void *dst, const void *src, size_t len)
{
	if (op == MEM_BCOPY_LIBC)
		memcpy(dst, src, len);
	else
		mem_copy_hand(dst, src, len);
}

/* ------------------------------------------------------------------ */
/* Patterns and tags                                                   */
/* ------------------------------------------------------------------ */

/*
 * The fill: distinct-looking words with the low bit clear.  A pass's tag
 * has the low bit set, so no tag is ever mistaken for the fill, and tags of
 * different passes differ (an odd multiplier is a bijection modulo 2^64;
 * setting the low bit can only merge passes 2^63 apart).
 */
static uint64_t mem_fill_word(size_t i, uint64_t seed)
{
	return ((uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull ^ seed) & ~(uint64_t)1;
}

static uint64_t mem_tag(uint64_t pass)
{
	return (pass + 1) * 0xbf58476d1ce4e5b9ull | 1;
}

static void mem_fill(unsigned char *buf, size_t len, uint64_t seed)
{
	size_t i;
	uint64_t w;

	for (i = 0; i + sizeof(w) <= len; i += sizeof(w)) {
		w = mem_fill_word(i / sizeof(w), seed);
		memcpy(buf + i, &w, sizeof(w));
	}
	for (; i < len; i++)
		buf[i] = (unsigned char)(i * 131u + seed);
}

/* The word checked this pass besides the first and last, then move it on. */
static size_t mem_next_at(struct mem_state *s)
{
	size_t at = s->at;

	s->at += s->step;
	if (s->at >= s->nwords)
		s->at -= s->nwords;
	return at;
}

static uint64_t mem_word(const unsigned char *buf, size_t i)
{
	uint64_t w;

	memcpy(&w, buf + i * sizeof(w), sizeof(w));
	return w;
}

static void mem_set_word(unsigned char *buf, size_t i, uint64_t w)
{
	memcpy(buf + i * sizeof(w), &w, sizeof(w));
}

/* ------------------------------------------------------------------ */
/* Set-up and tear-down                                                */
/* ------------------------------------------------------------------ */

/*
 * A fresh anonymous mapping, aligned to MEM_ALIGN when it is that large,
 * with transparent huge pages asked for: a streaming pass then walks 64
 * times fewer pages, and misses in the TLB cost this bandwidth up to a
 * tenth on the development VM.  Returns 1 when huge pages were asked for
 * and the kernel took the advice (whether it grants them is its choice), 0
 * when not, -1 with errno when there is no memory.
 */
static int mem_map(struct mem_buf *b, size_t len)
{
	size_t pad = len >= MEM_ALIGN ? MEM_ALIGN : 0;

	b->maplen = len + pad;
	b->map = plat_mmap(NULL, b->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			   0);
	if (b->map == MAP_FAILED) {
		b->map = NULL;
		return -1;
	}
	b->p = b->map;
	if (pad)
		b->p = (unsigned char *)(((uintptr_t)b->map + pad - 1) & ~(uintptr_t)(pad - 1));
#ifdef MADV_HUGEPAGE
	/*
	 * A kernel without transparent huge pages says EINVAL: 4 KiB pages
	 * then, and so on any failure, since the advice is only for speed (the
	 * result records whether it was taken).
	 */
	if (pad && plat_madvise(b->p, len, MADV_HUGEPAGE) == 0)
		return 1;
#endif
	return 0;
}

static void mem_teardown(struct bench_ctx *ctx)
{
	struct mem_state *s = ctx->priv;

	if (!s)
		return;
	if (s->a.map)
		munmap(s->a.map, s->a.maplen);
	if (s->b.map)
		munmap(s->b.map, s->b.maplen);
	free(s);
	ctx->priv = NULL;
}

/* One untimed pass checked in full, so a broken loop fails before it is timed. */
static enum bench_status mem_check_once(struct bench_ctx *ctx, struct mem_state *s)
{
	const struct mem_param *p = ctx->arg;
	uint64_t got;

	switch (p->op) {
	case MEM_BCOPY_LIBC:
	case MEM_BCOPY_HAND:
		mem_copy(p->op, s->b.p, s->a.p, s->size);
		if (memcmp(s->b.p, s->a.p, s->size) != 0)
			return bench_fail(ctx, 0, "a copy of %zu bytes came out different from its "
					  "source", s->size);
		return BENCH_OK;
	case MEM_READ:
		s->sum = peer_sum_words(s->a.p, 0, s->size);
		got = mem_sum(s->a.p, s->size);
		if (got != s->sum)
			return bench_fail(ctx, 0, "the sum of %zu bytes is %016llx, but word by word "
					  "it is %016llx", s->size, (unsigned long long)got,
					  (unsigned long long)s->sum);
		return BENCH_OK;
	case MEM_WRITE:
		mem_store(s->a.p, s->size, mem_tag(UINT64_MAX - 1));
		for (size_t i = 0; i < s->nwords; i++)
			if (mem_word(s->a.p, i) != mem_tag(UINT64_MAX - 1))
				return bench_fail(ctx, 0, "word %zu of %zu was not written", i,
						  s->nwords);
		return BENCH_OK;
	}
	BUG("bad memory operation %d", (int)p->op);
}

static enum bench_status mem_setup(struct bench_ctx *ctx)
{
	const struct mem_param *p = ctx->arg;
	size_t size = bench_buffer_size(ctx);
	struct mem_state *s;
	enum bench_status st;
	const char *env;
	int huge;

	if (size < sizeof(uint64_t))
		return bench_fail(ctx, 0, "a buffer of %zu bytes holds no 64-bit word", size);
	st = bench_check_memory(ctx, (double)size * p->nbufs,
				p->nbufs > 1 ? "two buffers" : "the buffer");
	if (st != BENCH_OK)
		return st;
	s = calloc(1, sizeof(*s));
	if (!s)
		return bench_fail(ctx, ENOMEM, "memory benchmark state");
	ctx->priv = s;
	s->size = size;
	s->nwords = size / sizeof(uint64_t);
	/* About 0.618 of the buffer, odd: the checked word visits it all over. */
	s->step = (size_t)((double)s->nwords * 0.6180339887) | 1;
	s->step %= s->nwords;
	env = getenv("KBENCH_TEST_MEM_SKIP");
	s->skip = env ? strtoull(env, NULL, 10) : 0;
	huge = mem_map(&s->a, size);
	if (huge >= 0 && p->nbufs > 1)
		huge = mem_map(&s->b, size) < 0 ? -1 : huge;
	if (huge < 0) {
		int e = errno;

		mem_teardown(ctx);
		return bench_fail(ctx, e, "mmap of %s of %zu bytes", p->nbufs > 1 ? "two buffers"
				  : "a buffer", size);
	}
	/* Every page written, so no fault is left for the timed passes. */
	mem_fill(s->a.p, size, 0);
	if (p->nbufs > 1)
		mem_fill(s->b.p, size, 0x5a5a5a5a5a5a5a5aull);
	st = mem_check_once(ctx, s);
	if (st != BENCH_OK) {
		mem_teardown(ctx);
		return st;
	}
	ctx->bytes_per_iter = (double)size;
	bench_value(ctx, "size", (double)size);
	bench_value(ctx, "huge_pages_asked", huge);
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* The timed passes                                                    */
/* ------------------------------------------------------------------ */

/* Words 0, at and last of buf hold tag: 0, else -1. */
static int mem_tagged(const unsigned char *buf, size_t at, size_t last, uint64_t tag)
{
	return mem_word(buf, 0) == tag && mem_word(buf, at) == tag &&
	       mem_word(buf, last) == tag ? 0 : -1;
}

/* The failure of a pass whose words 0, at and last of buf lack its tag. */
static enum bench_status mem_untagged(struct bench_ctx *ctx, const struct mem_state *s,
				      const char *what, const unsigned char *buf, size_t at,
				      uint64_t tag)
{
	size_t last = s->nwords - 1;

	return bench_fail(ctx, 0, "pass %llu did not %s: words 0, %zu, %zu %shold %016llx "
			  "%016llx %016llx, not %016llx", (unsigned long long)s->pass, what, at, last,
			  buf == s->b.p ? "of the destination " : "",
			  (unsigned long long)mem_word(buf, 0), (unsigned long long)mem_word(buf, at),
			  (unsigned long long)mem_word(buf, last), (unsigned long long)tag);
}

/*
 * A copy: the pass's tag goes into three words of the source, and must be
 * in the same words of the destination afterwards; the destination held an
 * older tag or the fill there, so a copy not done shows.
 */
static enum bench_status mem_bcopy_run(struct bench_ctx *ctx, uint64_t n)
{
	const struct mem_param *p = ctx->arg;
	struct mem_state *s = ctx->priv;
	size_t last = s->nwords - 1;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t tag = mem_tag(s->pass++);
		size_t at = mem_next_at(s);

		mem_set_word(s->a.p, 0, tag);
		mem_set_word(s->a.p, at, tag);
		mem_set_word(s->a.p, last, tag);
		if (s->pass != s->skip)
			mem_copy(p->op, s->b.p, s->a.p, s->size);
		if (mem_tagged(s->b.p, at, last, tag) < 0)
			return mem_untagged(ctx, s, "copy", s->b.p, at, tag);
	}
	timer_sink = mem_word(s->b.p, s->at);
	return BENCH_OK;
}

/*
 * A read: before each pass one word (a moving one) takes the pass's tag and
 * the expected sum follows it, so the sum differs from pass to pass and one
 * kept from an earlier pass cannot pass the check.  One store a pass.
 */
static enum bench_status mem_read_run(struct bench_ctx *ctx, uint64_t n)
{
	struct mem_state *s = ctx->priv;
	uint64_t got = 0;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t tag = mem_tag(s->pass++);
		size_t at = mem_next_at(s);

		s->sum += tag - mem_word(s->a.p, at);
		mem_set_word(s->a.p, at, tag);
		if (s->pass != s->skip)
			got = mem_sum(s->a.p, s->size);
		if (got != s->sum)
			return bench_fail(ctx, 0, "pass %llu read a sum of %016llx, expected %016llx",
					  (unsigned long long)s->pass, (unsigned long long)got,
					  (unsigned long long)s->sum);
	}
	timer_sink = got;
	return BENCH_OK;
}

/* A write: the first, the last and a moving word must hold the pass's tag. */
static enum bench_status mem_write_run(struct bench_ctx *ctx, uint64_t n)
{
	struct mem_state *s = ctx->priv;
	size_t last = s->nwords - 1;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t tag = mem_tag(s->pass++);
		size_t at = mem_next_at(s);

		if (s->pass != s->skip)
			mem_store(s->a.p, s->size, tag);
		if (mem_tagged(s->a.p, at, last, tag) < 0)
			return mem_untagged(ctx, s, "write", s->a.p, at, tag);
	}
	timer_sink = mem_word(s->a.p, s->at);
	return BENCH_OK;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

static const struct mem_param mem_bcopy_libc = { MEM_BCOPY_LIBC, 2 };
static const struct mem_param mem_bcopy_hand = { MEM_BCOPY_HAND, 2 };
static const struct mem_param mem_read = { MEM_READ, 1 };
static const struct mem_param mem_write = { MEM_WRITE, 1 };

#define MEM_ROW(name, runfn, what)                                                        \
	{ .id = "mem." #name ".bw", .metric = METRIC_MBPS, .better = BETTER_HIGHER,         \
	  .suites = SUITE_SUMMARY, .flags = BENCH_SIZED, .summary = what,                   \
	  .setup = mem_setup, .run = runfn, .teardown = mem_teardown, .points = bench_size_points, \
	  .arg = &mem_##name }

const struct bench mem_benches[] = {
	MEM_ROW(bcopy_libc, mem_bcopy_run,
		"memcpy of a buffer far above the caches (--size) to another; bytes copied"),
	MEM_ROW(bcopy_hand, mem_bcopy_run,
		"the same copy with an unrolled loop of 64-bit words (lmbench's bcopy hand)"),
	MEM_ROW(read, mem_read_run,
		"sum of the 64-bit words of a buffer far above the caches (--size), 8 streams side by side"),
	MEM_ROW(write, mem_write_run,
		"store of a 64-bit word over a buffer far above the caches (--size), 8 streams side by side"),
};
const size_t mem_nbenches = sizeof(mem_benches) / sizeof(mem_benches[0]);
