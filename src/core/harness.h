/*
 * The one place that times a benchmark: setup, calibration, warm-up,
 * adaptive sampling until the precision asked for, teardown, statistics.
 * Runs in-process; src/core/runner.c puts it in a child with a watchdog.
 */
#ifndef KB_HARNESS_H
#define KB_HARNESS_H

#include <stddef.h>

#include "core/bench.h"
#include "core/result.h"
#include "core/timer.h"

struct harness_cfg {
	struct timer_clock clock;	/* real clock, or a fake one in tests */
	double sample_target_ns;	/* a sample lasts at least this (10 ms) */
	double granularity_ns;		/* clock step; the target is >= 1000x it */
	double precision;		/* wanted CI half-width / median, 0.01 = 1% */
	double max_time_ns;		/* sampling budget per instance */
	size_t min_samples;		/* never stop before this many (10) */
	size_t max_samples;		/* never take more than this */
	size_t warmup_max;		/* cap on discarded warm-up samples */
	double loop_ns;			/* empty-loop cost per iteration, for BENCH_CHEAP */
	double clock_cost_ns;		/* one clock read, inside every timed interval */
	const char *tmpdir;		/* private directory lent to the benchmark */
	int interference;		/* read the machine's CPU use around sampling */
	enum placement placement;	/* for BENCH_PLACED rows; PLACE_NA = none */
	int parallel;			/* copies at once, each its own processes (1) */
	size_t msg_size;		/* for BENCH_MSG_SIZE rows; 0 = their default */
	size_t size;			/* for BENCH_SIZED rows; 0 = their default */
	int events;			/* --events: count the events behind the figure
					   over the timed calls (values ev_*) */
	unsigned suite;			/* the suite run (SUITE_* bit), 0 = none named */
	const struct result *prior;	/* results finished earlier in this run */
	size_t nprior;
	uint64_t iterations;		/* iterations per sample found by an earlier
					   replica of the instance; 0 = calibrate */
	uint64_t run_start_ns;		/* the run's start on cfg->clock, for the
					   samples' times; 0 = this call's start */
	int replica;			/* which replica this is, from 0 */
	/*
	 * The sentinel (issue 12): rows timed briefly just before and just
	 * after the samples, in this process and on its CPU, so that each
	 * replica says what the machine was doing where it ran.  sys.null and
	 * cpu.mhz, with their iterations; NULL: none is taken.
	 */
	const struct bench *sentinel_sys, *sentinel_user;
	uint64_t sentinel_nsys, sentinel_nuser;
};

/* The defaults of DESIGN.md, with the real clock. */
void harness_defaults(struct harness_cfg *cfg);

/*
 * Measure one benchmark and fill `r` (status ok, noisy, skip or fail; samples
 * malloc'd).  Returns 0; -1 only if memory ran out.
 *
 * With parallel > 1 the harness forks that many copies, each with its own
 * setup, and times them in lockstep: every sample starts all copies on the
 * same n, a sample's value is the copies' mean time per iteration (the
 * per-copy figure), and the aggregate comes from the window between the
 * first start and the last end.
 *
 * A curve (b->points) is measured point by point in this process, each
 * point on a share of the time budget; `r` gets every point, and its own
 * figure and samples are the last point's.
 */
int harness_run(const struct bench *b, const struct harness_cfg *cfg, struct result *r);

/*
 * A distribution's percentiles (BENCH_OBSERVED rows): the values p50,
 * p90, p99 and p999 of r's samples, nearest-rank, in r's unit, added or
 * updated; max is r's own.  Also after the replicas' samples are merged.
 */
void harness_percentiles(struct result *r);

/*
 * The events --events counts, by plat.h's enum: each one's name as the
 * value it is stored under ("ev_context_switches": per operation).
 */
extern const char *const harness_event_keys[];

/*
 * The sentinel's measurement: n iterations of b (a row without setup
 * state, sys.null or cpu.mhz) timed once, in this process, clock and loop
 * cost subtracted as for a sample; the time per operation in ns, or a
 * negative value when the row failed.  With *n 0, n is first calibrated
 * to about target_ns and returned for the next call.
 */
double harness_probe(const struct bench *b, const struct harness_cfg *cfg, double target_ns,
		     uint64_t *n);

/*
 * One point of the sentinel: each of its rows probed HARNESS_SENTINEL_PROBES
 * times for about HARNESS_SENTINEL_NS, the median kept (one probe that an
 * interrupt hit is not the machine changing), with the time since
 * cfg->run_start_ns and the CPU.  A row that failed leaves NaN.  With
 * cfg's iterations 0, they are calibrated and returned in *nsys, *nuser.
 */
#define HARNESS_SENTINEL_NS 1e6
#define HARNESS_SENTINEL_PROBES 3
void harness_sentinel(const struct harness_cfg *cfg, uint64_t *nsys, uint64_t *nuser,
		      struct sentinel_point *p);

#endif
