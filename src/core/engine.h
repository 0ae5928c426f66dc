/*
 * The measuring engine: the one place that decides what is measured when.
 * A command (run, clocks) names its jobs and stores what they give; the
 * engine runs the session's prelude in the worker (the clock, the MHz),
 * then, run by run, the rounds: every round takes one replica of every
 * job in a fresh worker (core/runner.h), so that each job's replicas are
 * spread over the whole run and a slow spell of the machine hits all of
 * them alike instead of a few whole figures; the sentinel is measured
 * around every replica, in its worker, and gathered into the run's
 * timeline.  It never stores or prints: after each round the command
 * merges and stores the jobs that took a replica in it.  time and
 * contest, whose jobs are a user's command and a load rather than
 * instances, give the engine a step instead (engine_steps): the same
 * rounds, warm-up first, the same Ctrl-Z between steps, while the step
 * runs, stores and prints its job.
 */
#ifndef KB_ENGINE_H
#define KB_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "core/runner.h"
#include "core/wire.h"

/* The most sides a run in blocks has (kbench kernels' kernels): as many as a comparison shows. */
#define ENGINE_MAX_SIDES 8

/*
 * One thing to measure: an instance, under one placement when it has ends;
 * with two conditions (kbench ab), under one of them.
 */
struct engine_job {
	const struct bench *b;
	enum placement place;
	int side;			/* 0 with one condition; 1 (A) or 2 (B) */
};

/* A job's replicas in the run being measured. */
struct engine_reps {
	struct result *reps;		/* as the runner returned them, in order */
	size_t n;
	size_t merged;			/* replicas the command last merged (engine_merged) */
};

/*
 * How the engine measures: runner_run and runner_prelude, in a fresh
 * worker (engine_open sets them); a test gives its own, on a fake clock.
 */
struct engine_ops {
	int (*measure)(const struct bench *b, const struct runner_cfg *cfg, struct result *r);
	int (*prelude)(const struct runner_cfg *cfg, enum wire_kind kind, const struct harness_cfg *hc,
		       struct wire_prelude *p, char *err);
};

struct engine {
	const char *cmd;		/* names it in messages: "run", "clocks" */
	struct engine_ops ops;		/* how it measures */
	struct runner_cfg rc;		/* the harness's template, where, the watchdog */
	struct wire_prelude pre;	/* the session's prelude, measured by the worker */
	int sentinel;			/* take the sentinel around every replica */
	/*
	 * Two conditions (kbench ab): the jobs come in pairs, A then B, and
	 * every round measures the two of a pair one after the other, in an
	 * order drawn from seed and the round, so that each measurement of A
	 * has one of B next to it in time.  Before a replica of the other
	 * side than the last, cond puts the machine in it: 0, or -1 to stop
	 * (it said why).
	 */
	int paired;
	/*
	 * With pairs: each round measures every job of one side, then every
	 * job of the other, the side first drawn from seed and the round;
	 * cond is called at the start of both blocks, also when the round
	 * before ended on that side.  For sides whose start is dear (a guest
	 * booted from a kernel: kbench kernels), started once a round each,
	 * where a switch at every pair would cost a boot a replica.
	 */
	int blocks;
	/*
	 * With blocks: how many sides (0 is 2).  The jobs come in groups of
	 * nsides, sides 1..nsides in order, and each round measures the
	 * sides' blocks in an order drawn from seed and the round
	 * (engine_side_order): kbench kernels with more than two kernels.
	 */
	int nsides;
	uint64_t seed;
	int (*cond)(void *arg, int side);
	void *cond_arg;
	int side_now;			/* the side the machine is in, 0 before the first */
	/* The run being measured (engine_begin .. engine_end). */
	const struct engine_job *jobs;
	size_t njobs;
	int rounds, round;		/* replicas a job takes, the round next measured */
	struct engine_reps *jr;		/* njobs */
	struct result *firsts;		/* each job's first replica, for the rows after it */
	size_t *order;			/* a paired round's order of the jobs */
	struct sentinel_point *tl;	/* the run's timeline, in the order taken */
	size_t ntl, captl;
};

/* What a round came to. */
enum engine_state {
	ENGINE_MORE = 0,		/* measured; more rounds to go */
	ENGINE_DONE,			/* the last round is measured */
	ENGINE_INTERRUPTED,		/* a signal stopped it: what finished is kept */
	ENGINE_STOPPED,			/* a step stopped it (an error, said by the step) */
};

/*
 * What one step came to.  A step measures one job once in one round: a
 * replica of an instance (engine_round's), a timed command's run, a
 * contest load's measurement (engine_steps').
 */
enum engine_step {
	ENGINE_STEP_OK = 0,		/* measured, or failed and the job goes on */
	ENGINE_STEP_RETIRE,		/* the job takes no more steps (it failed, --keep-going) */
	ENGINE_STEP_STOP,		/* the command stops: the step said why */
	ENGINE_STEP_INTERRUPTED,	/* a signal: what finished is kept */
};

/*
 * A schedule of steps, for the commands whose jobs are not the registry's
 * instances measured in a worker (time's commands, contest's loads): the
 * warm-up rounds (numbered -warmup..-1), then the rounds (0..rounds-1),
 * every job that has not retired once in each, in order, so that the
 * jobs are interleaved against the machine's drift.
 */
struct engine_steps {
	size_t njobs;
	int warmup, rounds;
	enum engine_step (*step)(void *arg, size_t job, int round);
	void *arg;
};

/*
 * The session's prelude, before anything is stored or measured: find the
 * worker and check it is this build's, and have it measure the clock and
 * the MHz (e->pre), which rc's harness then uses.  rc is the command's
 * template (clock figures are filled here); sentinel: take the sentinel
 * in the runs.  0, or -1 with err (ERRBUF_LEN) when the worker cannot be
 * had or a signal came first (runner_interrupted says which).
 */
int engine_open(struct engine *e, const char *cmd, const struct runner_cfg *rc, int sentinel,
		char *err);
/*
 * Measure the clock again (after a clock source switch): e->pre.ti and
 * the harness's clock figures.  0, or -1 with err.
 */
int engine_reclock(struct engine *e, char *err);

/*
 * Begin a run of njobs jobs, rounds replicas each: with the sentinel, its
 * iterations are calibrated and its first point taken, in a worker.
 */
void engine_begin(struct engine *e, const struct engine_job *jobs, size_t njobs, int rounds);
/*
 * Measure the next round: one replica of every job that takes one
 * (a job that skipped or failed takes no more; a curve, which costs what
 * ten rows do, takes at most REPLICA_CURVE, spread over the rounds).
 * progress, when given, is called before each replica and for each one
 * skipped (measured 0), with arg.
 */
enum engine_state engine_round(struct engine *e, void (*progress)(void *arg, const struct engine_job *job, int measured),
			       void *arg);
/*
 * Whether, in a paired run's round, the pair k measures B before A: the
 * seed's draw, the same for the same seed, round and pair.
 */
int engine_b_first(uint64_t seed, int round, size_t k);
/*
 * The order of n sides (1..n) in a round of blocks, into order: a
 * permutation drawn from seed and the round, the same for the same seed
 * and round; with two sides, B first exactly when engine_b_first(seed,
 * round, 0) says so.
 */
void engine_side_order(uint64_t seed, int round, int n, int *order);
/*
 * Take the schedule's steps; between two of them (where nothing polls) a
 * Ctrl-Z is acted on, as it is between two replicas of a run.
 * ENGINE_DONE, ENGINE_INTERRUPTED or ENGINE_STOPPED.
 */
enum engine_state engine_steps(const struct engine_steps *s);
/*
 * The replicas job i takes in a whole run (the rounds; a curve's fewer):
 * what one stopped early fell short of.
 */
size_t engine_planned(const struct engine *e, size_t i);
/* Whether job i took a replica since the command last merged it; then marks it merged. */
int engine_fresh(struct engine *e, size_t i);
/* End the run: free its replicas (the timeline is handed over: *tl, *ntl, malloc'd). */
void engine_end(struct engine *e, struct sentinel_point **tl, size_t *ntl);

#endif
