/*
 * What a measured instance becomes: the figure, its precision, how the
 * sampling ended and what else was using the machine.  Shared by the
 * harness (which fills it), the store (which keeps it) and the reports.
 */
#ifndef KB_RESULT_H
#define KB_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "core/bench.h"

enum result_status {
	RES_OK = 0,
	RES_NOISY,	/* measured, but the CI missed the precision asked for */
	RES_SKIP,
	RES_FAIL,
};

enum stop_reason {
	STOP_NONE = 0,		/* never sampled (skip or fail) */
	STOP_PRECISION,		/* CI half-width within --precision */
	STOP_MAX_TIME,		/* --max-time ran out first */
	STOP_MAX_SAMPLES,	/* the sample cap ran out first */
};

/* Interference above this fraction of the other CPUs' time flags a result. */
#define RESULT_BUSY_THRESHOLD 0.25

/* One measured point of a curve: the median at x and its 95% CI. */
struct result_point {
	char series[16];
	double x;			/* where: a size in bytes */
	double y, lo, hi;		/* median and CI, in the result's unit */
	int noisy;			/* the CI missed the precision asked for */
};

/*
 * Where and when one sample was taken, beside its value: what is needed to
 * see a machine that changes under a run (issue 12).
 */
struct result_sample {
	double t;			/* end of the sample, seconds from the run's start */
	double steal_ns;		/* steal time of its CPU since the sample before
					   (tick resolution, 10 ms on Linux); NaN unknown */
	int cpu;			/* the CPU it ended on, -1 unknown */
	int replica;			/* which replica took it, from 0 */
};

/*
 * One replica of an instance: its own fresh process, set up, warmed up and
 * sampled at one moment of the run.  The replicas of an instance are
 * spread over the whole run, so that the interval between them holds the
 * machine's slow changes, which the samples of one replica cannot see.
 */
struct result_replica {
	double median, lo, hi;		/* of its samples, and their 95% CI */
	double fast;			/* its fast level: its samples' 5th percentile (95th
					   where bigger is better); NaN unknown */
	size_t n;			/* samples */
	double t0, t1;			/* first and last sample, seconds from the run's start */
	double sentinel_sys;		/* the sentinel around it: the mean of the points */
	double sentinel_user;		/* before and after, each operation in ns; NaN unknown */
	enum stop_reason stop;		/* how its sampling ended */
	double apart;			/* the share of its samples whose ends (a benchmark
					   between processes) ran on more than one CPU;
					   NaN unknown or not between processes */
};

/*
 * The sentinel: reference operations the harness times briefly just before
 * and just after every replica's samples, in the replica's own process and
 * on its CPU, so that the run has a timeline of the machine's own speed
 * where its figures were taken.  Two operations, because the states seen
 * on shared machines move one and not the other: a system call (getppid)
 * and a chain of dependent adds, which no kernel change touches.
 */
#define SENTINEL_SYS_ID "sys.null"	/* the rows timed: getppid */
#define SENTINEL_USER_ID "cpu.mhz"	/* and the adds */
struct sentinel_point {
	double t;			/* seconds from the run's start */
	int cpu;			/* where it was measured, -1 unknown */
	double sys_ns;			/* one getppid, ns */
	double user_ns;			/* one dependent add, ns */
};

/*
 * One copy of one run of a timed job (kbench time), beside the sample that
 * holds its real time: what the whole process tree used (wait4's rusage of
 * the copy and of every descendant reaped by kbench as subreaper) and when
 * it ran.  The figures are doubles so that "unknown" can be NaN.
 */
struct result_usage {
	int copy;			/* 1..copies */
	int status;			/* its wait status (0: exited 0) */
	double start;			/* seconds from the run's start (the barrier's
					   release), as samples' t is its finish */
	double user_s, sys_s;		/* CPU time of the whole tree */
	double maxrss_kb;		/* the largest resident set of any one process */
	double minflt, majflt;		/* page faults: minor, major (I/O) */
	double nvcsw, nivcsw;		/* context switches: voluntary (kernbench's
					   "sleeps"), involuntary */
	double inblock, oublock;	/* file system blocks read, written */
	double orphans;			/* descendants it left running, killed by kbench */
};

/*
 * One bucket of a distribution's log-linear histogram (stats/hist.h), its
 * bounds in the result's unit: lo <= value < hi.  A distribution's
 * percentiles are a few numbers of it; the buckets keep its whole shape
 * (a second mode, a tail's step) in a few hundred counts however many
 * wakeups there were, so that a stored run shows it as a fresh one does.
 */
struct result_bucket {
	double lo, hi;			/* hi NaN: the last bucket, unbounded */
	uint64_t count;			/* values that fell in it, above 0 */
};

struct result {
	char id[64];			/* catalogue id */
	char unit[64];			/* "us", "calls/s", a row's own text (AIM9's longest is 48) */
	enum bench_better better;
	enum result_status status;
	double level;			/* the figure quoted: the operation's cost in the
					   machine's fast state (stats_fast_level over the
					   replicas; a whole job's median, time and contest);
					   NaN in a result of an older kbench */
	double level_low, level_high;	/* its 95% interval, for the next run too */
	double slow_share;		/* the share of the replicas that fell in slower
					   spells of the machine, 0 to 1; NaN unknown */
	double slow_depth;		/* how much slower they were: their median over the
					   level, less 1 (0.3: 30% slower); 0 with none */
	double median;			/* the samples' median (over replicas: the median
					   of theirs), which mixes the machine's states */
	double ci_low, ci_high;		/* 95% CI of the median */
	double min, max, mean, stddev, cv, p5, p95;
	size_t n;			/* samples kept (warm-up excluded) */
	uint64_t iterations;		/* iterations per sample */
	enum stop_reason stop;
	double interference;		/* other work's share of the other CPUs, <0 unknown */
	double overhead;		/* per-iteration overhead subtracted, in unit */
	double wall_s;			/* time spent on the instance, setup included */
	enum placement placement;	/* PLACE_NA unless between processes */
	int parallel;			/* copies run at once (--parallel, time's
					   --copies), >= 1 */
	int jobs;			/* time's {jobs} value, an instance key like
					   placement; 0 when the result has none */
	double aggregate;		/* parallel > 1: all copies together, in unit
					   (time per operation of the whole, or total MB/s);
					   NaN otherwise */
	size_t nvalues;			/* parameters and side figures */
	struct bench_value values[BENCH_MAX_VALUES];
	char reason[256];		/* why skip or fail */
	double *samples;		/* n per-iteration values in unit, malloc'd */
	size_t npoints;			/* a curve's points, in the order measured */
	struct result_point *points;	/* malloc'd, NULL unless a curve */
	struct result_sample *where;	/* n, beside samples; NULL when not known
					   (an export from an older kbench) */
	struct result_usage *usage;	/* n, beside samples, for a timed job (time.*):
					   sample i is the real time of the copy and run
					   usage[i] describes; NULL otherwise */
	size_t nbuckets;		/* a distribution's (BENCH_OBSERVED) histogram: the
					   buckets that counted a value, in order */
	struct result_bucket *buckets;	/* malloc'd, NULL for a level or a result stored
					   before histograms were (its samples give it) */
	size_t nreplicas;		/* replicas behind the figure; 0 before the
					   run merged them (a single measurement) */
	struct result_replica *replicas;	/* malloc'd, in the order taken */
	struct sentinel_point around[2];	/* a replica: the sentinel just before and
					   just after its samples, where it ran; t NaN
					   when none was taken */
	double drift;			/* how far the sentinel moved while this was
					   sampled, relative; NaN unknown */
	int drifted;			/* drift above the precision asked for: the
					   machine, not only the figure, moved */
	double apart;			/* a benchmark between processes: the share of its
					   samples whose ends were seen on more than one
					   CPU (this process and every peer, just before
					   and just after the sample); NaN unknown */
	double pct_low[4], pct_high[4];	/* a distribution's: the 95% interval over its
					   replicas of each of hist.h's percentiles (p50 to
					   p99.9, result_percentile), made with them; 0 or
					   NaN unknown.  Copied with the result, never
					   stored: a table's merged row keeps no samples */
	double figured_at;		/* a distribution compared at a percentile (judge_pct_apply):
					   that percentile, its level and replicas then
					   that percentile's; 0 for its level.  Never stored */
	int64_t from_run;		/* in a label's merged row (judge_merge_labels):
					   the stored run whose values and points it shows;
					   0 otherwise (never stored) */
};

/* One stored run: a pass over a selection, under a label. */
struct run_info {
	int64_t id;			/* store row id, 0 before storing */
	char uuid[40];			/* 32 hex digits, the same in every database the
					   run is exported to; "" before storing */
	char set_uuid[40];		/* the uuid of the first run of its --runs set
					   (its own for a single run); "" before storing */
	char label[128];		/* what was measured, e.g. "Linux 6.18.44" */
	char started[32];		/* ISO 8601 UTC */
	char finished[32];		/* ISO 8601 UTC, "" while running or interrupted */
	char host[128];			/* hostname */
	char os[256];			/* "Linux 6.18.44" */
	double mhz;			/* measured clock rate, 0 unknown */
	char *sysinfo_json;		/* full sysinfo as JSON text, malloc'd or NULL */
	size_t nresults;
	struct result *results;		/* malloc'd array */
	size_t nmerged;			/* runs merged into this row (judge_merge_labels),
					   0 or 1 for a plain run */
	size_t nsentinel;		/* the machine's timeline through the run */
	struct sentinel_point *sentinel;	/* malloc'd, in time order, or NULL */
};

/* An empty result for b: its id, unit and direction, interference unknown. */
void result_init(struct result *r, const struct bench *b);
const char *result_status_name(enum result_status s);
const char *result_stop_name(enum stop_reason s);
int result_status_parse(const char *name, enum result_status *out);
int result_stop_parse(const char *name, enum stop_reason *out);
/* The value named key, or NULL. */
const struct bench_value *result_value(const struct result *r, const char *key);
/*
 * Add a value to r: a number, or a text when text is not NULL (num then
 * NaN by convention).  More than BENCH_MAX_VALUES is a programmer's
 * mistake (BUG): the drivers that add them add a fixed list.
 */
void result_value_add(struct result *r, const char *key, double num, const char *text);
/*
 * r's values as this kbench names them, from a store or an export an older
 * kbench wrote: a share once stored in percent ("machine_pct") becomes the
 * fraction it is now ("machine_share").
 */
void result_values_upgrade(struct result *r);
/*
 * Whether a and b are the same instance, the unit that merge and compare
 * put side by side: the same id, placement, copies and jobs (a pipe on one
 * CPU is not a pipe across two; make -j4 is not make -j48).
 */
int result_same_instance(const struct result *a, const struct result *b);
/*
 * Which statistic of a result stands for its run.  The fast level is what
 * every table quotes (level): the cost when the machine is not in the
 * way, which a kernel's change moves as it moves the median while a VM's
 * slow spells leave it alone; between sittings of one kernel here it
 * spreads 3 to 10 times less than the median for system calls and
 * latencies (bench/history_noise.py), so a history sees steps the median
 * hides.  A result of an older kbench has no level: its samples' 5th
 * percentile (the 95th where bigger is better) stands for it, and where
 * that is unknown too, its median.
 */
enum result_level { LEVEL_MEDIAN, LEVEL_FAST };
/* Whether r has a level of that kind (one stored by an older kbench has no fast level). */
int result_has_level(const struct result *r, enum result_level which);
/* r's level of that kind; its median where it has none. */
double result_level(const struct result *r, enum result_level which);
/*
 * Whether r has a level of its own: a cost or a rate, never 0, so that a
 * result made by zeroing (a test's, a report's own) or of an older kbench
 * has none.
 */
int result_level_known(const struct result *r);
/*
 * The figure a table quotes and its 95% interval: the level where r has
 * one, else its median and the median's interval.
 */
double result_figure(const struct result *r);
void result_figure_ci(const struct result *r, double *lo, double *hi);
/* A replica's figure: its fast level, or its median where it has none (an older kbench's). */
double result_replica_figure(const struct result_replica *rr);
/* The level taken as the median, for a whole job's runs (time, contest): no spells named. */
void result_level_is_median(struct result *r);
/*
 * A distribution's (a BENCH_OBSERVED result's) percentile p, 0 < p <= 100,
 * over every sample it kept (nearest rank, hist.h), and its interval over
 * the replicas: each replica's own percentile p, and the 95% interval of
 * their median (order statistics: their whole range with fewer than 6),
 * widened to take in the pooled value, which the interval is of.  -1
 * without samples; lo and hi NaN with fewer than two replicas known.
 */
int result_percentile(const struct result *r, double p, double *est, double *lo, double *hi);
/*
 * Each replica's percentile p into out[k] for replica k (k < max), NaN for
 * a replica without samples: how many replicas r has samples of, 0
 * without their places (where), -1 without memory.
 */
int result_replica_percentiles(const struct result *r, double p, double *out, size_t max);
/* r's histogram from its samples (a distribution's, in its unit): 0, or -1 without memory. */
int result_buckets_fill(struct result *r);
/* True when other work competed for the CPUs while sampling. */
int result_busy(const struct result *r);
void result_free(struct result *r);
void run_info_free(struct run_info *run);

#endif
