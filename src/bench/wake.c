/*
 * Wakeup latency, as a distribution: how late a sleeping task runs after
 * the moment it should have.  A scheduler or PREEMPT_RT change is judged
 * by this tail, not by a level, so each row is BENCH_OBSERVED: a sample is
 * one wakeup, its value the lateness the row saw, and the result carries
 * the percentiles (core/bench.h).
 *
 * wake.timer is cyclictest's measurement: one thread, SCHED_FIFO where
 * the system permits it and SCHED_OTHER where not (the result says which
 * and why), sleeping with clock_nanosleep to an absolute deadline a fixed
 * interval after the last; its latency is the time it woke less the
 * deadline.  Deadlines missed while late are skipped, as cyclictest's are,
 * so one long delay is one sample, not a train of them.
 *
 * wake.msg is schbench's: a message thread (the caller) wakes its worker
 * threads through a futex, one a sample in turn, having noted the time
 * just before the wake; the worker's latency is the time it ran less that
 * note.  As schbench's, the threads are left to the scheduler, one worker
 * per CPU kbench may use.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/families.h"
#include "core/timer.h"
#include "plat/plat.h"

/* cyclictest's default interval (-i 1000), in ns. */
#define WAKE_INTERVAL_NS 1000000
/* The real-time priority asked for: high, below the kernel's own threads at 99. */
#define WAKE_FIFO_PRIO 90
/* Workers of wake.msg at most. */
#define WAKE_MAX_WORKERS 16
#define WAKE_LINE 64

struct wake_timer {
	uint64_t next;		/* the next deadline on CLOCK_MONOTONIC, 0 before the first */
	int fifo;		/* under SCHED_FIFO: to be put back at teardown */
};

static enum bench_status timer_setup(struct bench_ctx *ctx)
{
	struct wake_timer *w = calloc(1, sizeof(*w));
	int e;

	if (!w)
		return bench_fail(ctx, ENOMEM, "setup");
	ctx->priv = w;
	bench_value(ctx, "interval_us", WAKE_INTERVAL_NS / 1000);
	if (plat_rt_enter(WAKE_FIFO_PRIO) == 0) {
		w->fifo = 1;
		bench_value_text(ctx, "policy", "SCHED_FIFO");
		bench_value(ctx, "priority", WAKE_FIFO_PRIO);
		return BENCH_OK;
	}
	/* Measured all the same, under the policy there is, and said. */
	e = errno;
	bench_value_text(ctx, "policy", "SCHED_OTHER");
	bench_value_text(ctx, "fifo_refused", e == EPERM || e == EACCES ? "no permission for SCHED_FIFO"
					      : e == ENOSYS ? "no SCHED_FIFO on this OS" : strerror(e));
	return BENCH_OK;
}

static void timer_teardown(struct bench_ctx *ctx)
{
	struct wake_timer *w = ctx->priv;

	if (w && w->fifo)
		plat_rt_leave();
	free(w);
	ctx->priv = NULL;
}

static enum bench_status timer_run(struct bench_ctx *ctx, uint64_t n)
{
	struct wake_timer *w = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		struct timespec ts;
		uint64_t woke;
		int rc;

		if (w->next == 0)
			w->next = timer_now() + WAKE_INTERVAL_NS;
		ts.tv_sec = (time_t)(w->next / 1000000000u);
		ts.tv_nsec = (long)(w->next % 1000000000u);
		while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) == EINTR)
			;
		woke = timer_now();
		if (rc != 0)
			return bench_fail(ctx, rc, "clock_nanosleep to an absolute deadline");
		if (woke < w->next)
			return bench_fail(ctx, 0, "woke %llu ns before the deadline",
					  (unsigned long long)(w->next - woke));
		ctx->observed_ns = (double)(woke - w->next);
		do
			w->next += WAKE_INTERVAL_NS;
		while (w->next <= woke);
	}
	return BENCH_OK;
}

/* One worker: its own lines for what it is told and what it answers. */
struct wake_worker {
	_Alignas(WAKE_LINE) uint32_t go;	/* raised by the messenger: wake up */
	uint64_t stamp;				/* the messenger's clock just before the wake */
	_Alignas(WAKE_LINE) uint32_t done;	/* set to go's value once it has run */
	uint64_t latency;			/* its clock on waking, less the stamp */
	pthread_t thread;
	int started;
	const uint32_t *quit;
};

struct wake_msg {
	struct wake_worker w[WAKE_MAX_WORKERS];
	int nworkers;
	int next;		/* the worker the next sample wakes */
	uint32_t quit;
};

static void *msg_worker(void *arg)
{
	struct wake_worker *w = arg;
	uint32_t seen = 0, g;

	for (;;) {
		while ((g = __atomic_load_n(&w->go, __ATOMIC_ACQUIRE)) == seen)
			plat_futex_wait(&w->go, seen);
		seen = g;
		if (__atomic_load_n(w->quit, __ATOMIC_ACQUIRE))
			return NULL;
		w->latency = timer_now() - w->stamp;
		__atomic_store_n(&w->done, seen, __ATOMIC_RELEASE);
		plat_futex_wake(&w->done, 1);
	}
}

static void msg_teardown(struct bench_ctx *ctx)
{
	struct wake_msg *m = ctx->priv;

	if (!m)
		return;
	__atomic_store_n(&m->quit, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < m->nworkers; i++) {
		if (!m->w[i].started)
			continue;
		__atomic_add_fetch(&m->w[i].go, 1, __ATOMIC_RELEASE);
		plat_futex_wake(&m->w[i].go, 1);
		pthread_join(m->w[i].thread, NULL);
	}
	free(m);
	ctx->priv = NULL;
}

static enum bench_status msg_setup(struct bench_ctx *ctx)
{
	struct wake_msg *m = aligned_alloc(WAKE_LINE, (sizeof(*m) + WAKE_LINE - 1) / WAKE_LINE * WAKE_LINE);
	int cpus[BENCH_MAX_CPUS], ncpu = plat_cpus_allowed(cpus, BENCH_MAX_CPUS), e;
	uint32_t probe = 0;

	if (!m)
		return bench_fail(ctx, ENOMEM, "setup");
	memset(m, 0, sizeof(*m));
	ctx->priv = m;
	if (plat_futex_wake(&probe, 1) < 0) {
		e = errno;
		msg_teardown(ctx);
		return e == ENOSYS ? bench_skip(ctx, "this OS has no futex to wake the workers with")
				   : bench_fail(ctx, e, "futex wake");
	}
	if (ncpu <= 0)
		ncpu = plat_ncpu_online();
	m->nworkers = ncpu < 1 ? 1 : ncpu > WAKE_MAX_WORKERS ? WAKE_MAX_WORKERS : ncpu;
	for (int i = 0; i < m->nworkers; i++) {
		m->w[i].quit = &m->quit;
		if ((e = pthread_create(&m->w[i].thread, NULL, msg_worker, &m->w[i])) != 0) {
			msg_teardown(ctx);
			return bench_fail(ctx, e, "cannot start worker thread %d", i + 1);
		}
		m->w[i].started = 1;
	}
	bench_value(ctx, "workers", m->nworkers);
	bench_value_text(ctx, "policy", "SCHED_OTHER");
	return BENCH_OK;
}

static enum bench_status msg_run(struct bench_ctx *ctx, uint64_t n)
{
	struct wake_msg *m = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		struct wake_worker *w = &m->w[m->next];
		uint32_t g = w->go + 1, d;

		m->next = (m->next + 1) % m->nworkers;
		w->stamp = timer_now();
		__atomic_store_n(&w->go, g, __ATOMIC_RELEASE);
		if (plat_futex_wake(&w->go, 1) < 0)
			return bench_fail(ctx, errno, "futex wake of a worker");
		while ((d = __atomic_load_n(&w->done, __ATOMIC_ACQUIRE)) != g)
			if (plat_futex_wait(&w->done, d) < 0 && errno != EAGAIN && errno != EINTR)
				return bench_fail(ctx, errno, "futex wait for a worker's answer");
		ctx->observed_ns = (double)w->latency;
	}
	return BENCH_OK;
}

const struct bench wake_benches[] = {
	{ .id = "wake.timer", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_FULL,
	  .flags = BENCH_OBSERVED,
	  .summary = "timer wakeup latency, as cyclictest: 1 ms period, SCHED_FIFO where allowed",
	  .setup = timer_setup, .run = timer_run, .teardown = timer_teardown },
	{ .id = "wake.msg", .metric = METRIC_US, .better = BETTER_LOWER, .suites = SUITE_FULL,
	  .flags = BENCH_OBSERVED,
	  .summary = "a worker thread's wakeup latency after a futex wake, as schbench",
	  .setup = msg_setup, .run = msg_run, .teardown = msg_teardown },
};
const size_t wake_nbenches = sizeof(wake_benches) / sizeof(wake_benches[0]);
