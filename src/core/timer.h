/*
 * The clock.  CLOCK_MONOTONIC in nanoseconds, never gettimeofday (it jumps
 * with NTP).  Its cost and granularity are measured at start and recorded,
 * because a sample must be long against both.
 */
#ifndef KB_TIMER_H
#define KB_TIMER_H

#include <stdint.h>

/* A clock the harness reads; tests substitute a fake one. */
struct timer_clock {
	uint64_t (*now)(void *arg);	/* nanoseconds, monotonic */
	void *arg;
};

uint64_t timer_now(void);
extern const struct timer_clock timer_monotonic;

struct timer_info {
	double cost_ns;		/* one clock read, median of many */
	double granularity_ns;	/* smallest nonzero step seen */
	double loop_ns;		/* per-iteration cost of an empty counted loop */
};
void timer_measure(struct timer_info *ti);

/*
 * A sink the compiler cannot see through: benchmarks feed results here so
 * the work is not optimised away.
 */
extern volatile uint64_t timer_sink;

#endif
