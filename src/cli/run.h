/*
 * What run, ab and kernels share of run.c: the options they parse into,
 * their checks, the selection and its jobs, the harness's template, and
 * ab's rounds of sides with the report at their end.  kernels' sides
 * are guests booted from kernels instead of ab's two conditions, and
 * go through the same rounds, the same storing and the same comparison.
 */
#ifndef KB_CLI_RUN_H
#define KB_CLI_RUN_H

#include <stddef.h>

#include "cli/cli.h"
#include "cli/session.h"
#include "core/engine.h"

struct run_opts {
	const char *cmd;		/* "run", "ab" or "kernels", in messages */
	const char *suite, *only, *label, *db, *tmpdir, *placement, *cpus;
	int runs, replicas, no_store, json, quiet, verbose, parallel, offline_cpus;
	const char *format;		/* --format: text, json or gbench */
	enum cli_format fmt;		/* what --format and --json come to */
	const char *runs_arg;		/* --runs: a count, or "auto" */
	int runs_auto, max_runs;	/* --runs auto: runs until --target, at most max_runs */
	double target;			/* --target, % */
	double precision, max_time, watchdog, sample_ms;
	size_t msg_size, size;
	enum placement places[3];	/* parsed --placement, or the suite's */
	int nplaces;
	/* kbench ab's: its two conditions, A and B. */
	const char *cond[3], *wrap[3], *labels[3];	/* [1] A, [2] B */
	const char *restore;
	double timeout;			/* the longest a switch or the restore runs, s */
	int seed, seeded;
	int events;			/* run --events */
	const char *load;		/* run --load: contest's load behind the whole run, or NULL */
	const char *percentile_arg;	/* ab --percentile, NULL when not given */
	double percentile;		/* its value: NaN, or 0 in kernels, when not given */
	int max_tasks;			/* --max-tasks: scale.* rows up to this many tasks;
					   0 until run_select, then the online CPUs */
};

/* The options' checks and what they default to; dies with one line on bad input. */
void run_validate(struct run_opts *o, unsigned *suite_bits);
/* The selection, as run and ab take it from --only and --suite: dies when it is empty. */
const struct bench **run_select(const struct run_opts *o, unsigned suite_bits, size_t *nsel);
/* The jobs of a selection: its rows, each under the placements asked for or the suite's. */
struct engine_job *run_jobs(struct run_opts *o, unsigned suite_bits, const struct bench **sel,
			    size_t nsel, size_t *njobs);
/* The harness's template for the options: precision, budget, sizes, where. */
void run_harness(const struct run_opts *o, unsigned suite_bits, struct runner_cfg *rc);
/*
 * The jobs of one side, each nsides times in a row: under A (side 1),
 * then under B (side 2), and so on (kbench kernels: a side a kernel).
 */
struct engine_job *ab_jobs(const struct engine_job *one, size_t n, int nsides);
/*
 * The sides' rounds: e opened and set for pairs (its cond starts a side;
 * more than two sides in blocks), ses open and its nsides runs begun, in
 * the sides' order; each round's replicas merged
 * and stored as it ends, the runs ended (interrupted or stopped as the
 * session says).  The failures (a stop by cond is one); more (len bytes)
 * says how many replicas were not measured.
 */
size_t ab_rounds(const struct run_opts *o, struct engine *e, const struct engine_job *jobs,
		 size_t njobs, struct session *ses, struct run_info *const *runs, int nsides,
		 char *more, size_t len);
/*
 * The sides' tables, then each against the first as `compare A B C`
 * prints it; flags JUDGE_CMP_*.
 */
void ab_report(const struct run_opts *o, const struct session *ses, unsigned flags);

#endif
