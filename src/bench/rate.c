/*
 * System call rates: how many times a second a process makes each of a few
 * cheap calls (getppid, a byte of I/O, socket, select, the clocks), the
 * figures of the FreeBSD 4.7 thread that compared UP and SMP kernels and
 * found the difference in the clock.  lmbench's null call is the same
 * question asked in microseconds; here the answer is in calls per second,
 * so that a table of them reads as that thread's did.
 *
 * Every call goes through the plat layer's replaceable calls, so a test
 * can make it fail, and every run function checks what it returns: a call
 * that fails quickly, or a clock that stands still, must not pass for a
 * fast one.  Nothing here times itself; the harness does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "bench/families.h"
#include "bench/sys.h"
#include "plat/plat.h"

/* select's pipes: the seed's figure is for a handful of descriptors, none ready. */
enum { RATE_PIPES = 10 };

/*
 * A clock must have moved once the reference clock has moved this much
 * more than twice its resolution: twice, so that a coarse clock's tick has
 * come whatever its phase; and 100 ms more, since the coarse clocks and
 * time() move only when the CPU keeping time runs its tick, which a
 * hypervisor can hold up for tens of milliseconds.
 */
#define RATE_STILL_SLACK_NS 100000000

/* One row's state, from setup to teardown; what a row does not use stays -1 or 0. */
struct rate {
	pid_t ppid;			/* getppid's answer, learnt in setup */
	int pipes[RATE_PIPES][2];	/* select's pipes, nothing ever written */
	int maxfd;			/* the highest read end */
	fd_set set;			/* the read ends, selected on */
	clockid_t clock;		/* clock_gettime's clock */
	char what[48];			/* the clock's call, as a failure names it */
	int64_t still_ns;		/* the reference's move after which the clock
					   must have moved too */
	int64_t mark;			/* the clock's reading (ns) at ref_mark */
	int64_t ref_mark;		/* the reference clock then */
};

static enum bench_status rate_new(struct bench_ctx *ctx, struct rate **out)
{
	struct rate *s = calloc(1, sizeof(*s));

	if (!s)
		return bench_fail(ctx, ENOMEM, "setup");
	for (int i = 0; i < RATE_PIPES; i++)
		s->pipes[i][0] = s->pipes[i][1] = -1;
	s->maxfd = -1;
	FD_ZERO(&s->set);
	ctx->priv = s;
	*out = s;
	return BENCH_OK;
}

static void rate_free(struct rate *s)
{
	for (int i = 0; i < RATE_PIPES; i++)
		for (int e = 0; e < 2; e++)
			if (s->pipes[i][e] >= 0)
				close(s->pipes[i][e]);
	free(s);
}

/* A setup that failed frees what it made; teardown only follows one that worked. */
static enum bench_status rate_undo(struct bench_ctx *ctx, enum bench_status st)
{
	rate_free(ctx->priv);
	ctx->priv = NULL;
	return st;
}

static void rate_teardown(struct bench_ctx *ctx)
{
	rate_free(ctx->priv);
}

/* ------------------------------------------------------------ getppid */

static enum bench_status getppid_setup(struct bench_ctx *ctx)
{
	struct rate *s;
	enum bench_status st = rate_new(ctx, &s);

	/* The plain call: what the answer must be is not the thing measured. */
	if (st == BENCH_OK)
		s->ppid = getppid();
	return st;
}

static enum bench_status getppid_run(struct bench_ctx *ctx, uint64_t n)
{
	struct rate *s = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		pid_t p = plat_getppid();

		if (p != s->ppid)
			return bench_fail(ctx, p < 0 ? errno : 0, "getppid returned %ld, not the "
					  "parent %ld", (long)p, (long)s->ppid);
	}
	return BENCH_OK;
}

/* ------------------------------------------------- a byte of I/O */

/*
 * read and write are sys.read's and sys.write's own setup and bodies
 * (bench/sys.h): the same call, the figure turned into calls per second.
 */
/* ------------------------------------------------------------- socket */

static enum bench_status socket_setup(struct bench_ctx *ctx)
{
	struct rate *s;

	return rate_new(ctx, &s);
}

/* A socket made and closed: what the seed's socket figure counts. */
static enum bench_status socket_run(struct bench_ctx *ctx, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		int fd = plat_socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0)
			return bench_fail(ctx, errno, "socket(AF_INET, SOCK_STREAM)");
		if (close(fd) != 0)
			return bench_fail(ctx, errno, "close of a new socket");
	}
	return BENCH_OK;
}

/* ------------------------------------------------------------- select */

static enum bench_status select_setup(struct bench_ctx *ctx)
{
	struct rate *s;
	enum bench_status st = rate_new(ctx, &s);

	if (st != BENCH_OK)
		return st;
	for (int i = 0; i < RATE_PIPES; i++) {
		if (plat_pipe(s->pipes[i]) != 0) {
			/* A failed pipe() may have written anything into the pair. */
			s->pipes[i][0] = s->pipes[i][1] = -1;
			return rate_undo(ctx, bench_fail(ctx, errno, "cannot make pipe %d of %d "
							 "for select (pipe)", i + 1, RATE_PIPES));
		}
		if (s->pipes[i][0] >= FD_SETSIZE)
			return rate_undo(ctx, bench_skip(ctx, "descriptor %d is beyond FD_SETSIZE",
							 s->pipes[i][0]));
		FD_SET(s->pipes[i][0], &s->set);
		if (s->pipes[i][0] > s->maxfd)
			s->maxfd = s->pipes[i][0];
	}
	return BENCH_OK;
}

/* Nothing is ever written to the pipes: every call must find none ready. */
static enum bench_status select_run(struct bench_ctx *ctx, uint64_t n)
{
	struct rate *s = ctx->priv;

	for (uint64_t i = 0; i < n; i++) {
		fd_set rd = s->set;
		struct timeval tv = { 0, 0 };
		int ready = plat_select(s->maxfd + 1, &rd, NULL, NULL, &tv);

		if (ready < 0)
			return bench_fail(ctx, errno, "select");
		if (ready != 0)
			return bench_fail(ctx, 0, "select found %d of %d empty pipes ready", ready,
					  RATE_PIPES);
	}
	return BENCH_OK;
}

/* ------------------------------------------------------------- clocks */

/*
 * The reference a clock is held to: the plain CLOCK_MONOTONIC, which no
 * fault or replaced call reaches.  It times nothing; it only says how long
 * the clock measured has had to move.
 */
static int64_t ref_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		return 0;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static int64_t tv_ns(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000000 + (int64_t)tv->tv_usec * 1000;
}

/* What the clocks' setups share: the first reading, made through the call measured. */
static enum bench_status clock_mark(struct rate *s, const char *what, double res_ns,
				    int64_t first)
{
	snprintf(s->what, sizeof(s->what), "%s", what);
	s->still_ns = (int64_t)(2 * res_ns) + RATE_STILL_SLACK_NS;
	s->mark = first;
	s->ref_mark = ref_now();
	return BENCH_OK;
}

/*
 * A sample's first and last readings: never backwards within it, and
 * forward once the reference has moved by more than twice the clock's
 * resolution since the clock last did (for time(), a second's resolution,
 * that spans several samples).  A stuck clock is cheap to read; it must
 * not pass for a fast one.
 */
static enum bench_status clock_check(struct bench_ctx *ctx, int64_t first, int64_t last)
{
	struct rate *s = ctx->priv;
	int64_t ref = ref_now();

	if (last < first)
		return bench_fail(ctx, 0, "%s went back %lld ns within a sample", s->what,
				  (long long)(first - last));
	if (ref - s->ref_mark < s->still_ns)
		return BENCH_OK;
	if (last <= s->mark)
		return bench_fail(ctx, 0, "%s did not move forward in %.1f ms", s->what,
				  (double)(ref - s->ref_mark) / 1e6);
	s->mark = last;
	s->ref_mark = ref;
	return BENCH_OK;
}

static enum bench_status gettimeofday_setup(struct bench_ctx *ctx)
{
	struct rate *s;
	struct timeval tv;
	enum bench_status st = rate_new(ctx, &s);

	if (st != BENCH_OK)
		return st;
	if (plat_gettimeofday(&tv) != 0)
		return rate_undo(ctx, bench_fail(ctx, errno, "gettimeofday"));
	return clock_mark(s, "gettimeofday", 1e3, tv_ns(&tv));
}

static enum bench_status gettimeofday_run(struct bench_ctx *ctx, uint64_t n)
{
	struct timeval first, last;
	plat_gettimeofday_fn call;

	if (n == 0)
		return BENCH_OK;
	call = plat_gettimeofday_loop(n);
	if (call(&first) != 0)
		return bench_fail(ctx, errno, "gettimeofday");
	last = first;
	for (uint64_t i = 1; i < n; i++)
		if (call(&last) != 0)
			return bench_fail(ctx, errno, "gettimeofday");
	return clock_check(ctx, tv_ns(&first), tv_ns(&last));
}

/* clock_gettime of one clock, named for the messages, its resolution as clock_getres says. */
static enum bench_status clockid_setup(struct bench_ctx *ctx, clockid_t clock, const char *what)
{
	struct rate *s;
	struct timespec res, now;
	enum bench_status st = rate_new(ctx, &s);

	if (st != BENCH_OK)
		return st;
	s->clock = clock;
	if (clock_getres(clock, &res) != 0)
		return rate_undo(ctx, bench_fail(ctx, errno, "clock_getres for %s", what));
	if (plat_clock_gettime(clock, &now) != 0)
		return rate_undo(ctx, bench_fail(ctx, errno, "%s", what));
	return clock_mark(s, what, (double)ts_ns(&res), ts_ns(&now));
}

static enum bench_status monotonic_setup(struct bench_ctx *ctx)
{
	return clockid_setup(ctx, CLOCK_MONOTONIC, "clock_gettime(CLOCK_MONOTONIC)");
}

static enum bench_status coarse_setup(struct bench_ctx *ctx)
{
	clockid_t clock;

	if (plat_clock_coarse(&clock) != 0)
		return bench_skip(ctx, "the OS has no CLOCK_MONOTONIC_COARSE");
	return clockid_setup(ctx, clock, "clock_gettime(CLOCK_MONOTONIC_COARSE)");
}

static const char *coarse_unsupported(void)
{
	clockid_t clock;

	return plat_clock_coarse(&clock) != 0 ? "the OS has no CLOCK_MONOTONIC_COARSE" : NULL;
}

static enum bench_status clockid_run(struct bench_ctx *ctx, uint64_t n)
{
	struct rate *s = ctx->priv;
	struct timespec first, last;
	plat_clock_gettime_fn call;

	if (n == 0)
		return BENCH_OK;
	call = plat_clock_gettime_loop(n);
	if (call(s->clock, &first) != 0)
		return bench_fail(ctx, errno, "%s", s->what);
	last = first;
	for (uint64_t i = 1; i < n; i++)
		if (call(s->clock, &last) != 0)
			return bench_fail(ctx, errno, "%s", s->what);
	return clock_check(ctx, ts_ns(&first), ts_ns(&last));
}

static enum bench_status time_setup(struct bench_ctx *ctx)
{
	struct rate *s;
	time_t t;
	enum bench_status st = rate_new(ctx, &s);

	if (st != BENCH_OK)
		return st;
	t = plat_time(NULL);
	if (t == (time_t)-1)
		return rate_undo(ctx, bench_fail(ctx, errno, "time"));
	return clock_mark(s, "time", 1e9, (int64_t)t * 1000000000);
}

static enum bench_status time_run(struct bench_ctx *ctx, uint64_t n)
{
	time_t first, last;
	plat_time_fn call;

	if (n == 0)
		return BENCH_OK;
	call = plat_time_loop(n);
	first = last = call(NULL);
	if (first == (time_t)-1)
		return bench_fail(ctx, errno, "time");
	for (uint64_t i = 1; i < n; i++)
		if ((last = call(NULL)) == (time_t)-1)
			return bench_fail(ctx, errno, "time");
	return clock_check(ctx, (int64_t)first * 1000000000, (int64_t)last * 1000000000);
}

/*
 * One row per call, in the order of the rates table.  Every row is a rate
 * in calls per second, bigger is better, in the rates and standard suites;
 * none subtracts the loop's overhead, since the seed's figures, and a
 * plain loop of the call to compare with, include it.
 */
#define RATE_ROW .metric = METRIC_CALLS, .better = BETTER_HIGHER, \
	.suites = SUITE_RATES | SUITE_STANDARD, .teardown = rate_teardown

const struct bench rate_benches[] = {
	{ .id = "rate.getppid", RATE_ROW, .summary = "getppid() calls per second",
	  .setup = getppid_setup, .run = getppid_run },
	{ .id = "rate.write", .metric = METRIC_CALLS, .better = BETTER_HIGHER,
	  .suites = SUITE_RATES | SUITE_STANDARD,
	  .summary = "write() of 1 byte to /dev/null, calls per second",
	  .setup = sys_write_setup, .run = sys_write_run, .teardown = sys_dev_teardown },
	{ .id = "rate.read", .metric = METRIC_CALLS, .better = BETTER_HIGHER,
	  .suites = SUITE_RATES | SUITE_STANDARD,
	  .summary = "read() of 1 byte from /dev/zero, calls per second",
	  .setup = sys_read_setup, .run = sys_read_run, .teardown = sys_dev_teardown },
	{ .id = "rate.socket", RATE_ROW,
	  .summary = "socket(AF_INET, SOCK_STREAM) and its close(), pairs per second",
	  .setup = socket_setup, .run = socket_run },
	{ .id = "rate.select", RATE_ROW,
	  .summary = "select() on 10 pipes, none ready, zero timeout, calls per second",
	  .setup = select_setup, .run = select_run },
	{ .id = "rate.gettimeofday", RATE_ROW, .summary = "gettimeofday() calls per second",
	  .setup = gettimeofday_setup, .run = gettimeofday_run },
	{ .id = "rate.clock_gettime", RATE_ROW,
	  .summary = "clock_gettime(CLOCK_MONOTONIC) calls per second",
	  .setup = monotonic_setup, .run = clockid_run },
	{ .id = "rate.clock_gettime_coarse", RATE_ROW,
	  .summary = "clock_gettime(CLOCK_MONOTONIC_COARSE) calls per second",
	  .unsupported = coarse_unsupported, .setup = coarse_setup, .run = clockid_run },
	{ .id = "rate.time", RATE_ROW, .summary = "time() calls per second",
	  .setup = time_setup, .run = time_run },
};
const size_t rate_nbenches = sizeof(rate_benches) / sizeof(rate_benches[0]);
