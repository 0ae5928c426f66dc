/*
 * The scalability rows' shape, for the code that selects them (run's
 * --max-tasks) and the reports that draw their curves: the ids are
 * scale.<op>.<proc|thread>.<tasks>, tasks from 1 to SCALE_MAX_TASKS.
 */
#ifndef KB_BENCH_SCALE_H
#define KB_BENCH_SCALE_H

#define SCALE_PREFIX "scale."
/* The most tasks a point has: --max-tasks's limit. */
#define SCALE_MAX_TASKS 64
/* The operations scale.c's table has. */
#define SCALE_NOPS 7

#endif
