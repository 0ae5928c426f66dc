/*
 * What locking costs: the primitives an SMP kernel and its C library pay
 * for where a UP one need not (the thread that found mutexes "very
 * expensive on SMP (253 cycles)" and asked how many barriers a lock and
 * unlock pair needs).  Each row is one primitive, uncontended, on memory
 * no other CPU touches, except lock.handoff, which sends a cache line to
 * another process and back as a lock passed between two CPUs does.
 *
 * The figures are in ns; the reports give cycles beside them, derived from
 * the run's measured clock rate.  With --cpus naming one CPU the same rows
 * give the UP figures against the SMP ones: the instructions are the same,
 * what the other CPUs do to them is not.
 *
 * Every run function checks that its work happened: the counter an atomic
 * added to, the chain an exchange passed along, what futex returned.  An
 * iteration is LOCK_UNROLL operations, so that the loop's own increment and
 * branch are a small share of a 2 ns atomic (and BENCH_CHEAP takes off the
 * rest).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/families.h"
#include "bench/peer.h"
#include "plat/plat.h"

#define LOCK_UNROLL 8
/* A cache line on every CPU kbench runs on; the shared word has one of its own. */
#define LOCK_LINE 64
/*
 * Spins on the handed line before yielding the CPU: far more than the
 * 100-300 ns a line takes between two CPUs, so that spread seldom yields,
 * and few enough that unpinned ends sharing a CPU get on.  Pinned to one
 * CPU (placement same) an end yields at once: spinning there only waits
 * for the tick.
 */
#define LOCK_SPINS 256
/* Yields between two looks at whether the other end is still alive. */
#define LOCK_ALIVE_EVERY 4096
/* What the handed line holds to tell the other end to stop: odd, like its turns. */
#define LOCK_QUIT UINT64_MAX

#if defined(__x86_64__) || defined(__i386__)
#define LOCK_X86 1
static inline void lock_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}
#else
#define LOCK_X86 0
static inline void lock_relax(void)
{
	__asm__ __volatile__("" ::: "memory");
}
#endif

struct lock_state {
	_Alignas(LOCK_LINE) uint64_t word;	/* the atomics' and the spin lock's count */
	_Alignas(LOCK_LINE) uint32_t spin;	/* the spin lock */
	_Alignas(LOCK_LINE) uint32_t futex;	/* the futex word, never waited on */
	pthread_mutex_t mutex;
	int have_mutex;
	volatile uint64_t *line;		/* lock.handoff: the shared line */
	size_t line_len;
	pid_t peer;
	uint64_t turn;				/* the last turn that came back */
	unsigned spins;				/* spins before a yield */
};

static unsigned lock_spins(const struct bench_ctx *ctx)
{
	return ctx->placement == PLACE_SAME ? 1 : LOCK_SPINS;
}

static enum bench_status lock_setup(struct bench_ctx *ctx)
{
	struct lock_state *s = aligned_alloc(LOCK_LINE, (sizeof(*s) + LOCK_LINE - 1) / LOCK_LINE * LOCK_LINE);

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	memset(s, 0, sizeof(*s));
	s->peer = -1;
	ctx->priv = s;
	ctx->ops_per_iter = LOCK_UNROLL;
	return BENCH_OK;
}

static void lock_teardown(struct bench_ctx *ctx)
{
	struct lock_state *s = ctx->priv;

	if (!s)
		return;
	if (s->have_mutex)
		pthread_mutex_destroy(&s->mutex);
	if (s->line) {
		__atomic_store_n(s->line, LOCK_QUIT, __ATOMIC_RELEASE);
		peer_stop(s->peer);
		munmap((void *)s->line, s->line_len);
	}
	free(s);
	ctx->priv = NULL;
}

/* Eight times, written out: the same in the plain reference (bench/ref/locks.c). */
#define LOCK_8(op) do { op; op; op; op; op; op; op; op; } while (0)

static enum bench_status add_run(struct bench_ctx *ctx, uint64_t n)
{
	struct lock_state *s = ctx->priv;
	uint64_t before = __atomic_load_n(&s->word, __ATOMIC_RELAXED);

	for (uint64_t i = 0; i < n; i++)
		LOCK_8(__atomic_fetch_add(&s->word, 1, __ATOMIC_SEQ_CST));
	if (__atomic_load_n(&s->word, __ATOMIC_RELAXED) != before + LOCK_UNROLL * n)
		return bench_fail(ctx, 0, "the atomic adds did not all land");
	return BENCH_OK;
}

/* Each exchange must give back what the one before put: the chain proves all happened. */
static enum bench_status xchg_run(struct bench_ctx *ctx, uint64_t n)
{
	struct lock_state *s = ctx->priv;
	uint64_t next = __atomic_load_n(&s->word, __ATOMIC_RELAXED) + 1, bad = 0;

	for (uint64_t i = 0; i < n; i++) {
		LOCK_8(bad |= __atomic_exchange_n(&s->word, next, __ATOMIC_SEQ_CST) ^ (next - 1); next++);
		if (bad)
			return bench_fail(ctx, 0, "an exchange gave back another value than the last one put");
	}
	return BENCH_OK;
}

static enum bench_status cas_run(struct bench_ctx *ctx, uint64_t n)
{
	struct lock_state *s = ctx->priv;
	uint64_t next = __atomic_load_n(&s->word, __ATOMIC_RELAXED) + 1, want;
	int ok = 1;

	for (uint64_t i = 0; i < n && ok; i++)
		LOCK_8(want = next - 1; ok &= __atomic_compare_exchange_n(&s->word, &want, next, 0,
									  __ATOMIC_SEQ_CST,
									  __ATOMIC_SEQ_CST); next++);
	if (!ok)
		return bench_fail(ctx, 0, "a compare-and-swap found another value than the last one put");
	return BENCH_OK;
}

/* Barriers: nothing to check, and asm volatile cannot be removed or merged. */
#if LOCK_X86
static const char *fence_unsupported(void)
{
	return NULL;
}

static enum bench_status lfence_run(struct bench_ctx *ctx, uint64_t n)
{
	(void)ctx;
	for (uint64_t i = 0; i < n; i++)
		LOCK_8(__asm__ __volatile__("lfence" ::: "memory"));
	return BENCH_OK;
}

static enum bench_status sfence_run(struct bench_ctx *ctx, uint64_t n)
{
	(void)ctx;
	for (uint64_t i = 0; i < n; i++)
		LOCK_8(__asm__ __volatile__("sfence" ::: "memory"));
	return BENCH_OK;
}

static enum bench_status mfence_run(struct bench_ctx *ctx, uint64_t n)
{
	(void)ctx;
	for (uint64_t i = 0; i < n; i++)
		LOCK_8(__asm__ __volatile__("mfence" ::: "memory"));
	return BENCH_OK;
}
#else
static const char *fence_unsupported(void)
{
	return "lfence, sfence and mfence are x86 instructions; this CPU is not one";
}

static enum bench_status no_fence_run(struct bench_ctx *ctx, uint64_t n)
{
	(void)n;
	return bench_skip(ctx, "%s", fence_unsupported());
}
#define lfence_run no_fence_run
#define sfence_run no_fence_run
#define mfence_run no_fence_run
#endif

static enum bench_status mutex_setup(struct bench_ctx *ctx)
{
	enum bench_status st = lock_setup(ctx);
	struct lock_state *s = ctx->priv;
	int e;

	if (st != BENCH_OK)
		return st;
	if ((e = pthread_mutex_init(&s->mutex, NULL)) != 0) {
		lock_teardown(ctx);
		return bench_fail(ctx, e, "pthread_mutex_init");
	}
	s->have_mutex = 1;
	return BENCH_OK;
}

/* A lock and unlock pair, a count kept inside it: each pair must have held the lock. */
static enum bench_status mutex_run(struct bench_ctx *ctx, uint64_t n)
{
	struct lock_state *s = ctx->priv;
	uint64_t before = s->word;
	int e = 0;

	for (uint64_t i = 0; i < n && e == 0; i++)
		LOCK_8(e |= pthread_mutex_lock(&s->mutex); s->word++; e |= pthread_mutex_unlock(&s->mutex));
	if (e)
		return bench_fail(ctx, e, "pthread_mutex_lock or unlock");
	if (s->word != before + LOCK_UNROLL * n)
		return bench_fail(ctx, 0, "the count kept under the mutex is wrong");
	return BENCH_OK;
}

/*
 * A test-and-test-and-set lock: an exchange to take it (the one barrier
 * x86 gives with it), a release store to give it back (none).
 */
static inline void spin_lock(uint32_t *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			lock_relax();
}

static inline void spin_unlock(uint32_t *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

static enum bench_status spin_run(struct bench_ctx *ctx, uint64_t n)
{
	struct lock_state *s = ctx->priv;
	uint64_t before = s->word;

	for (uint64_t i = 0; i < n; i++)
		LOCK_8(spin_lock(&s->spin); s->word++; spin_unlock(&s->spin));
	if (s->word != before + LOCK_UNROLL * n)
		return bench_fail(ctx, 0, "the count kept under the spin lock is wrong");
	return BENCH_OK;
}

static enum bench_status futex_setup(struct bench_ctx *ctx)
{
	enum bench_status st = lock_setup(ctx);
	struct lock_state *s = ctx->priv;

	if (st != BENCH_OK)
		return st;
	if (plat_futex_wake(&s->futex, 1) < 0) {
		int e = errno;

		lock_teardown(ctx);
		if (e == ENOSYS)
			return bench_skip(ctx, "this OS has no futex");
		return bench_fail(ctx, e, "futex wake");
	}
	return BENCH_OK;
}

/* FUTEX_WAKE on a word nobody waits on: the unlock of a lock nobody wanted. */
static enum bench_status futex_wake_run(struct bench_ctx *ctx, uint64_t n)
{
	struct lock_state *s = ctx->priv;
	int r = 0;

	for (uint64_t i = 0; i < n && r == 0; i++)
		LOCK_8(r |= plat_futex_wake(&s->futex, 1));
	if (r != 0)
		return bench_fail(ctx, r < 0 ? errno : 0, "futex wake with no waiter returned %d", r);
	return BENCH_OK;
}

/*
 * FUTEX_WAIT for a value the word does not hold: the kernel looks and
 * returns EAGAIN at once, the path of a lock freed between the look and
 * the wait.  Anything else (a sleep, another error) fails.
 */
static enum bench_status futex_wait_run(struct bench_ctx *ctx, uint64_t n)
{
	struct lock_state *s = ctx->priv;
	uint32_t other = s->futex + 1;

	for (uint64_t i = 0; i < n; i++)
		for (int k = 0; k < LOCK_UNROLL; k++)
			if (plat_futex_wait(&s->futex, other) != -1 || errno != EAGAIN)
				return bench_fail(ctx, errno, "futex wait for a value not held did not "
						  "return EAGAIN at once");
	return BENCH_OK;
}

/*
 * The other end of lock.handoff: wait for an odd turn, answer with the
 * next, until told to stop.  Spinning, as a lock's waiter on another CPU
 * does; yielding when the turn is slow to come, as it is on one CPU.
 */
static int handoff_peer(struct bench_ctx *ctx, void *arg)
{
	volatile uint64_t *line = arg;
	uint64_t seen = 0, t;
	unsigned limit = lock_spins(ctx);

	for (;;) {
		unsigned spins = 0;

		while ((t = __atomic_load_n(line, __ATOMIC_ACQUIRE)) == seen || !(t & 1)) {
			if (++spins % limit == 0)
				sched_yield();
			else
				lock_relax();
		}
		if (t == LOCK_QUIT)
			return PEER_OK;
		if (t != seen + 1)
			return PEER_BAD_DATA;
		seen = t + 1;
		__atomic_store_n(line, seen, __ATOMIC_RELEASE);
	}
}

static enum bench_status handoff_setup(struct bench_ctx *ctx)
{
	enum bench_status st = lock_setup(ctx);
	struct lock_state *s = ctx->priv;
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	if (st != BENCH_OK)
		return st;
	ctx->ops_per_iter = 1;
	ctx->nends = 2;
	s->spins = lock_spins(ctx);
	s->line_len = page > 0 ? (size_t)page : 4096;
	/* Shared and anonymous: the two ends are processes, pinned each as the placement says. */
	p = plat_mmap(NULL, s->line_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		int e = errno;

		lock_teardown(ctx);
		return bench_fail(ctx, e, "mmap of the shared line");
	}
	s->line = p;
	*s->line = 0;
	s->peer = peer_start(ctx, 1, handoff_peer, p);
	if (s->peer < 0) {
		munmap(p, s->line_len);
		s->line = NULL;
		lock_teardown(ctx);
		return BENCH_FAIL;
	}
	return BENCH_OK;
}

/* One round trip: the line goes to the other end with a turn and comes back with the next. */
static enum bench_status handoff_run(struct bench_ctx *ctx, uint64_t n)
{
	struct lock_state *s = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t mine = s->turn + 1, t;
		unsigned long spins = 0;

		__atomic_store_n(s->line, mine, __ATOMIC_RELEASE);
		while ((t = __atomic_load_n(s->line, __ATOMIC_ACQUIRE)) == mine) {
			if (++spins % s->spins != 0) {
				lock_relax();
				continue;
			}
			sched_yield();
			if (spins % ((unsigned long)s->spins * LOCK_ALIVE_EVERY) == 0 &&
			    waitpid(s->peer, NULL, WNOHANG) != 0)
				return peer_failed(ctx, &s->peer, "the other end stopped answering");
		}
		if (t != mine + 1)
			return peer_failed(ctx, &s->peer, "the line came back with a wrong turn");
		s->turn = t;
	}
	return BENCH_OK;
}

#define LOCK_SUITES SUITE_FULL
#define LOCK_ROW(name, what, fn, unsup)                                                     \
	{ .id = "lock." name, .metric = METRIC_NS, .better = BETTER_LOWER,                 \
	  .suites = LOCK_SUITES, .flags = BENCH_CHEAP, .summary = what,                     \
	  .setup = lock_setup, .run = fn, .teardown = lock_teardown, .unsupported = unsup }

const struct bench lock_benches[] = {
	LOCK_ROW("atomic_add", "an uncontended atomic add (lock add on x86)", add_run, NULL),
	LOCK_ROW("xchg", "an uncontended atomic exchange", xchg_run, NULL),
	LOCK_ROW("cas", "an uncontended compare-and-swap that succeeds", cas_run, NULL),
	LOCK_ROW("lfence", "lfence: the load barrier, one after another",
		 lfence_run, fence_unsupported),
	LOCK_ROW("sfence", "sfence: the store barrier, one after another",
		 sfence_run, fence_unsupported),
	LOCK_ROW("mfence", "mfence: the full memory barrier, one after another",
		 mfence_run, fence_unsupported),
	{ .id = "lock.mutex", .metric = METRIC_NS, .better = BETTER_LOWER, .suites = LOCK_SUITES,
	  .flags = BENCH_CHEAP, .summary = "an uncontended pthread mutex lock and unlock pair",
	  .setup = mutex_setup, .run = mutex_run, .teardown = lock_teardown },
	LOCK_ROW("spin", "an uncontended spin lock and unlock pair (exchange, release store)",
		 spin_run, NULL),
	{ .id = "lock.futex_wake", .metric = METRIC_NS, .better = BETTER_LOWER,
	  .suites = LOCK_SUITES, .flags = BENCH_CHEAP,
	  .summary = "FUTEX_WAKE on a word no one waits on: an unlock's system call",
	  .setup = futex_setup, .run = futex_wake_run, .teardown = lock_teardown },
	{ .id = "lock.futex_wait", .metric = METRIC_NS, .better = BETTER_LOWER,
	  .suites = LOCK_SUITES, .flags = BENCH_CHEAP,
	  .summary = "FUTEX_WAIT for a value the word lacks: EAGAIN at once, no sleep",
	  .setup = futex_setup, .run = futex_wait_run, .teardown = lock_teardown },
	{ .id = "lock.handoff", .metric = METRIC_NS, .better = BETTER_LOWER,
	  .suites = LOCK_SUITES, .flags = BENCH_PLACED,
	  .summary = "a cache line handed to another process and back, as a lock between CPUs",
	  .setup = handoff_setup, .run = handoff_run, .teardown = lock_teardown },
};
const size_t lock_nbenches = sizeof(lock_benches) / sizeof(lock_benches[0]);
