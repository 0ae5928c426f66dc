/*
 * The clock calls of kbench clocks: clock_gettime of four clocks,
 * gettimeofday and time, each a row of the hidden suite SUITE_CLOCKS, so
 * that the harness times them as it times every benchmark.  kbench clocks
 * measures them once under each clock source it switches to (this file
 * never switches) and stores each as clock.<source>.<call>; no other run
 * selects them, since a figure of theirs means nothing without the source.
 *
 * Beside its time, each row records as values how the call was answered
 * and the clock's resolution:
 * - "answered", "vdso" or "kernel": from a probe made in setup, before
 *   anything is timed: the call is made once in a child process under a
 *   seccomp filter that fails the time system calls with a mark
 *   (plat_time_syscall).  A call that comes back with the mark entered
 *   the kernel; one that succeeds was answered in user space.  That is
 *   exact in one call, where the process's system time over the samples
 *   (recorded too, "sys_share": system over user and system CPU time from
 *   setup to teardown) only tells in proportion and at the tick's
 *   resolution; the share decides where the probe cannot be made.
 * - "res_ns", clock_getres's answer (for gettimeofday at least its
 *   microsecond, for time its second), and "step_ns", the smallest
 *   nonzero step between two successive calls of the timed loop, not
 *   recorded when none was seen (time's second is seen only by sampling
 *   that crosses one).  The loop's compare is also its check: a monotonic
 *   clock that goes back fails the row.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

#include "bench/families.h"
#include "plat/plat.h"

/* How a row reads its clock. */
enum clock_kind { CALL_GETTIME, CALL_GETTIMEOFDAY, CALL_TIME };

/* A row's call, lent as ctx->arg. */
struct clock_call {
	enum clock_kind kind;
	clockid_t id;			/* the clock read, or whose resolution it has */
	int (*plat_id)(clockid_t *id);	/* the id where only the OS knows it, or NULL */
	int monotonic;			/* never goes back: a step back fails the row */
	double res_floor_ns;		/* the format's own resolution (gettimeofday's us) */
	const char *name;		/* the call, in messages */
};

/*
 * Without the probe, the share of system time above which a call entered
 * the kernel: a vDSO call spends next to none there, a system call most
 * of its time (entry, exit and the clock read are all the kernel's).
 */
#define CLOCK_KERNEL_SHARE 0.5

struct clock_state {
	const struct clock_call *c;
	clockid_t id;
	int64_t last;			/* the last reading, ns */
	int64_t step;			/* the smallest nonzero step seen, INT64_MAX none */
	int probe;			/* plat_time_syscall's answer: 1, 0, or -1 unknown */
	struct rusage ru0;		/* at setup, for the system time's share */
};

static int64_t clock_ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

/* One reading in ns: 0, or -1 with errno. */
static int clock_read(const struct clock_state *s, int64_t *ns)
{
	struct timespec ts;
	struct timeval tv;
	time_t t;

	switch (s->c->kind) {
	case CALL_GETTIME:
		if (clock_gettime(s->id, &ts) != 0)
			return -1;
		*ns = clock_ts_ns(&ts);
		return 0;
	case CALL_GETTIMEOFDAY:
		if (gettimeofday(&tv, NULL) != 0)
			return -1;
		*ns = (int64_t)tv.tv_sec * 1000000000 + (int64_t)tv.tv_usec * 1000;
		return 0;
	case CALL_TIME:
		if ((t = time(NULL)) == (time_t)-1)
			return -1;
		*ns = (int64_t)t * 1000000000;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

/* The probe's call: one reading in the child plat_time_syscall makes. */
static int clock_probe_call(void *arg)
{
	int64_t ns;

	return clock_read(arg, &ns);
}

static enum bench_status clock_setup(struct bench_ctx *ctx)
{
	const struct clock_call *c = ctx->arg;
	struct clock_state *s = calloc(1, sizeof(*s));
	struct timespec res;
	enum bench_status st = BENCH_OK;

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	s->c = c;
	s->id = c->id;
	s->step = INT64_MAX;
	if (c->plat_id && c->plat_id(&s->id) < 0)
		st = bench_skip(ctx, "the OS has no clock for %s", c->name);
	else if (clock_getres(s->id, &res) != 0)
		st = bench_fail(ctx, errno, "clock_getres for %s", c->name);
	else if (clock_read(s, &s->last) < 0)
		st = bench_fail(ctx, errno, "%s", c->name);
	else if ((s->probe = plat_time_syscall(clock_probe_call, s)) < 0 && errno == EIO)
		st = bench_fail(ctx, 0, "%s failed in the probe's child process", c->name);
	else if (getrusage(RUSAGE_SELF, &s->ru0) != 0)
		st = bench_fail(ctx, errno, "getrusage");
	if (st != BENCH_OK) {
		free(s);
		return st;
	}
	bench_value(ctx, "res_ns", fmax((double)clock_ts_ns(&res), c->res_floor_ns));
	ctx->priv = s;
	return BENCH_OK;
}

static double clock_tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void clock_teardown(struct bench_ctx *ctx)
{
	struct clock_state *s = ctx->priv;
	struct rusage ru;
	double share = -1;

	if (!s)
		return;
	if (getrusage(RUSAGE_SELF, &ru) == 0) {
		double user = clock_tv_s(&ru.ru_utime) - clock_tv_s(&s->ru0.ru_utime);
		double sys = clock_tv_s(&ru.ru_stime) - clock_tv_s(&s->ru0.ru_stime);

		if (user + sys > 0)
			share = sys / (user + sys);
	}
	if (share >= 0)
		bench_value(ctx, "sys_share", share);
	if (s->probe >= 0)
		bench_value_text(ctx, "answered", s->probe ? "kernel" : "vdso");
	else if (share >= 0)
		bench_value_text(ctx, "answered", share > CLOCK_KERNEL_SHARE ? "kernel" : "vdso");
	bench_value_text(ctx, "answered_by", s->probe >= 0 ? "seccomp" : "rusage");
	if (s->step != INT64_MAX)
		bench_value(ctx, "step_ns", (double)s->step);
	free(s);
	ctx->priv = NULL;
}

/*
 * Each loop below keeps the smallest step between readings and fails a
 * monotonic clock that goes back, with its own call written out, so that
 * no indirect call or switch is timed with the call.
 */
static enum bench_status clock_back(struct bench_ctx *ctx, const struct clock_state *s,
				    int64_t back)
{
	return bench_fail(ctx, 0, "%s went back %lld ns", s->c->name, (long long)back);
}

static enum bench_status clock_gettime_run(struct bench_ctx *ctx, uint64_t n)
{
	struct clock_state *s = ctx->priv;
	int64_t last = s->last, step = s->step;
	struct timespec ts;

	for (uint64_t i = 0; i < n; i++) {
		int64_t t;

		if (clock_gettime(s->id, &ts) != 0)
			return bench_fail(ctx, errno, "%s", s->c->name);
		t = clock_ts_ns(&ts);
		if (t == last)
			continue;
		if (t < last && s->c->monotonic)
			return clock_back(ctx, s, last - t);
		if (t > last && t - last < step)
			step = t - last;
		last = t;
	}
	s->last = last;
	s->step = step;
	return BENCH_OK;
}

static enum bench_status clock_gettimeofday_run(struct bench_ctx *ctx, uint64_t n)
{
	struct clock_state *s = ctx->priv;
	int64_t last = s->last, step = s->step;
	struct timeval tv;

	for (uint64_t i = 0; i < n; i++) {
		int64_t t;

		if (gettimeofday(&tv, NULL) != 0)
			return bench_fail(ctx, errno, "%s", s->c->name);
		t = (int64_t)tv.tv_sec * 1000000000 + (int64_t)tv.tv_usec * 1000;
		if (t == last)
			continue;
		if (t > last && t - last < step)
			step = t - last;
		last = t;
	}
	s->last = last;
	s->step = step;
	return BENCH_OK;
}

static enum bench_status clock_time_run(struct bench_ctx *ctx, uint64_t n)
{
	struct clock_state *s = ctx->priv;
	int64_t last = s->last, step = s->step;

	for (uint64_t i = 0; i < n; i++) {
		time_t now = time(NULL);
		int64_t t;

		if (now == (time_t)-1)
			return bench_fail(ctx, errno, "%s", s->c->name);
		t = (int64_t)now * 1000000000;
		if (t == last)
			continue;
		if (t > last && t - last < step)
			step = t - last;
		last = t;
	}
	s->last = last;
	s->step = step;
	return BENCH_OK;
}

static const char *clock_raw_unsupported(void)
{
	clockid_t id;

	return plat_clock_raw(&id) < 0 ? "the OS has no CLOCK_MONOTONIC_RAW" : NULL;
}

static const char *clock_coarse_unsupported(void)
{
	clockid_t id;

	return plat_clock_coarse(&id) < 0 ? "the OS has no CLOCK_MONOTONIC_COARSE" : NULL;
}

static const struct clock_call clock_monotonic = {
	CALL_GETTIME, CLOCK_MONOTONIC, NULL, 1, 0, "clock_gettime(CLOCK_MONOTONIC)",
};
static const struct clock_call clock_realtime = {
	CALL_GETTIME, CLOCK_REALTIME, NULL, 0, 0, "clock_gettime(CLOCK_REALTIME)",
};
static const struct clock_call clock_monotonic_raw = {
	CALL_GETTIME, CLOCK_MONOTONIC, plat_clock_raw, 1, 0, "clock_gettime(CLOCK_MONOTONIC_RAW)",
};
static const struct clock_call clock_monotonic_coarse = {
	CALL_GETTIME, CLOCK_MONOTONIC, plat_clock_coarse, 1, 0,
	"clock_gettime(CLOCK_MONOTONIC_COARSE)",
};
/* Realtime: NTP may step it back, which is no failure of the call. */
static const struct clock_call clock_gettimeofday_call = {
	CALL_GETTIMEOFDAY, CLOCK_REALTIME, NULL, 0, 1e3, "gettimeofday",
};
static const struct clock_call clock_time_call = {
	CALL_TIME, CLOCK_REALTIME, NULL, 0, 1e9, "time",
};

/*
 * The rows, in the order of the clocks table's columns.  An id is
 * "clockcall." and the call's name, which becomes the last word of
 * clock.<source>.<call> (core/catalog.c knows the calls from these rows).
 * To add a call: a struct clock_call above, a run loop if it is read in a
 * new way, and a row here.
 */
const struct bench clock_benches[] = {
	{ .id = "clockcall.monotonic", .metric = METRIC_NS, .better = BETTER_LOWER,
	  .suites = SUITE_CLOCKS, .flags = BENCH_CHEAP,
	  .summary = "clock_gettime(CLOCK_MONOTONIC), one call",
	  .setup = clock_setup, .run = clock_gettime_run, .teardown = clock_teardown,
	  .arg = &clock_monotonic },
	{ .id = "clockcall.realtime", .metric = METRIC_NS, .better = BETTER_LOWER,
	  .suites = SUITE_CLOCKS, .flags = BENCH_CHEAP,
	  .summary = "clock_gettime(CLOCK_REALTIME), one call",
	  .setup = clock_setup, .run = clock_gettime_run, .teardown = clock_teardown,
	  .arg = &clock_realtime },
	{ .id = "clockcall.monotonic_raw", .metric = METRIC_NS, .better = BETTER_LOWER,
	  .suites = SUITE_CLOCKS, .flags = BENCH_CHEAP,
	  .summary = "clock_gettime(CLOCK_MONOTONIC_RAW), one call",
	  .unsupported = clock_raw_unsupported,
	  .setup = clock_setup, .run = clock_gettime_run, .teardown = clock_teardown,
	  .arg = &clock_monotonic_raw },
	{ .id = "clockcall.monotonic_coarse", .metric = METRIC_NS, .better = BETTER_LOWER,
	  .suites = SUITE_CLOCKS, .flags = BENCH_CHEAP,
	  .summary = "clock_gettime(CLOCK_MONOTONIC_COARSE), one call",
	  .unsupported = clock_coarse_unsupported,
	  .setup = clock_setup, .run = clock_gettime_run, .teardown = clock_teardown,
	  .arg = &clock_monotonic_coarse },
	{ .id = "clockcall.gettimeofday", .metric = METRIC_NS, .better = BETTER_LOWER,
	  .suites = SUITE_CLOCKS, .flags = BENCH_CHEAP,
	  .summary = "gettimeofday, one call",
	  .setup = clock_setup, .run = clock_gettimeofday_run, .teardown = clock_teardown,
	  .arg = &clock_gettimeofday_call },
	{ .id = "clockcall.time", .metric = METRIC_NS, .better = BETTER_LOWER,
	  .suites = SUITE_CLOCKS, .flags = BENCH_CHEAP,
	  .summary = "time, one call",
	  .setup = clock_setup, .run = clock_time_run, .teardown = clock_teardown,
	  .arg = &clock_time_call },
};
const size_t clock_nbenches = sizeof(clock_benches) / sizeof(clock_benches[0]);
