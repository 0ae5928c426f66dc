/*
 * THE contract between the harness and a benchmark.
 *
 * A benchmark never prints, never exits and never times itself.  It sets up,
 * performs exactly `n` iterations of its operation when the harness asks,
 * tears down, and says whether the work really happened.  All timing is in
 * the harness, so every benchmark is measured the same way.
 */
#ifndef KB_BENCH_H
#define KB_BENCH_H

#include <stdint.h>
#include <sys/types.h>

#include "core/err.h"
#include "core/metric.h"

enum bench_status {
	BENCH_OK = 0,
	BENCH_SKIP,	/* cannot run here; ctx->err says why */
	BENCH_FAIL,	/* tried and the work did not happen; ctx->err says why */
};

/* Suites an instance belongs to; a bit each. */
enum {
	SUITE_QUICK = 1u << 0,
	SUITE_STANDARD = 1u << 1,
	SUITE_FULL = 1u << 2,
	SUITE_LMBENCH = 1u << 3,
	SUITE_AIM9 = 1u << 4,
	SUITE_RATES = 1u << 5,
	/*
	 * Hidden: kbench clocks' clock calls, measured by that command under
	 * each clock source it switches to.  No --suite, glob or list names
	 * them (registry.c), so no run measures them under a source unsaid.
	 */
	SUITE_CLOCKS = 1u << 6,
	/* mmtests' default AIM9 list: page_test, brk_test, exec_test, fork_test. */
	SUITE_AIM9_SHORT = 1u << 7,
	/* The scalability curves (scale.*): a figure a task count, 1 to --max-tasks. */
	SUITE_SCALE = 1u << 8,
};
#define SUITE_SUMMARY (SUITE_QUICK | SUITE_STANDARD | SUITE_FULL | SUITE_LMBENCH)

/* Flags on a row. */
enum {
	/* Cheap enough that the harness's loop overhead matters: subtract it. */
	BENCH_CHEAP = 1u << 0,
	/* Between processes: takes --placement, its ends are pinned by it. */
	BENCH_PLACED = 1u << 1,
	/* Takes --msg-size (message or chunk size). */
	BENCH_MSG_SIZE = 1u << 2,
	/* Takes --size (buffer, file or mapping size). */
	BENCH_SIZED = 1u << 3,
	/*
	 * A distribution, not a level: each sample is one iteration, and its
	 * value is what the row saw of it (ctx->observed_ns: a wakeup's
	 * lateness past the deadline it set, which only it knows), not the
	 * iteration's time.  Sampling runs for the whole time budget, since a
	 * tail needs every sample it can get; the result carries the
	 * percentiles (values p50, p90, p99, p999; max is the samples').
	 */
	BENCH_OBSERVED = 1u << 4,
};

/*
 * Where the processes of a benchmark between processes run (DESIGN.md,
 * measurement point 9).  The numbers are stored nowhere; names are.
 */
enum placement {
	PLACE_NA = 0,	/* not a benchmark between processes */
	PLACE_NONE,	/* the scheduler chooses */
	PLACE_SAME,	/* every process of a copy on one CPU */
	PLACE_SPREAD,	/* neighbouring processes on different CPUs */
};

/* CPUs a placement chooses from; the first this many allowed ones. */
#define BENCH_MAX_CPUS 256
/* The other ends a copy's processes may have: a ring of 16 has 15. */
#define BENCH_MAX_PEERS 16
/* Parameters and side figures a benchmark stores with its result. */
#define BENCH_MAX_VALUES 12

/* One point of a curve: which series and where on it (a size in bytes). */
struct bench_point {
	char series[16];	/* "random", "page", "stride64", ... */
	double x;
};

/* A curve has at most this many points. */
#define BENCH_MAX_POINTS 256

struct result;
struct result_point;

/* One named parameter or side figure: a number, or a text when text[0]. */
struct bench_value {
	char key[24];		/* lowercase words joined by '_', e.g. "msg_size" */
	double num;
	char text[40];		/* longer texts are cut, ending in "..." (result_value_add) */
};

/*
 * Per-instance state, owned by the harness and lent to the benchmark.  With
 * --parallel P each copy has its own, in its own process.
 */
struct bench_ctx {
	void *priv;		/* the benchmark's own state, from setup to teardown */
	const void *arg;	/* the row's parameters, struct bench.arg */
	const char *tmpdir;	/* private directory; the runner removes it afterwards */
	double bytes_per_iter;	/* bandwidth benchmarks: bytes moved per iteration */
	double ops_per_iter;	/* operations in one iteration (a ring round: N
				   switches); the figure is per operation.  0 = 1 */
	size_t msg_size;	/* --msg-size in bytes, 0 = the benchmark's default */
	size_t size;		/* --size in bytes, 0 = the benchmark's default */
	unsigned suite;		/* the suite being run (SUITE_* bit), 0 = none named */
	const struct bench_point *point;	/* the curve point being measured, or NULL */
	/* Results finished earlier in this run, for a row that needs another. */
	const struct result *prior;
	size_t nprior;
	enum placement placement;
	int copy;		/* which of the --parallel copies, from 0 */
	int nends;		/* processes per copy, set in setup (for the record) */
	/*
	 * The other ends' processes, as peer_start made them: where each
	 * ran is read around every sample, so that a figure between
	 * processes says whether its ends shared a CPU (core/harness.c).
	 */
	pid_t peers[BENCH_MAX_PEERS];
	int npeers;
	int ncpus;		/* CPUs the placement maps ends onto */
	int cpus[BENCH_MAX_CPUS];
	size_t nvalues;
	struct bench_value values[BENCH_MAX_VALUES];
	double observed_ns;	/* BENCH_OBSERVED: what the row saw of the last
				   iteration, in ns */
	char err[ERRBUF_LEN];	/* why it skipped or failed */
};

/*
 * One row of a family table.  The registry checks every row at start-up:
 * an id of lowercase words joined by dots, a run function, a summary, at
 * least one suite.
 */
struct bench {
	const char *id;			/* stable catalogue id, e.g. "sys.null" */
	enum bench_metric metric;	/* what the figure is (core/metric.h) */
	enum bench_better better;	/* must be the metric's direction */
	/* The unit's text when not the metric's (AIM9's "Signal Traps/second"),
	   NULL for the metric's own; at most 63 characters, as results keep it. */
	const char *unit;
	unsigned suites;		/* SUITE_* bits */
	unsigned flags;			/* BENCH_* bits */
	/* Optional: the operations one iteration counts for, when setup does
	   not say (ctx->ops_per_iter): AIM9's factor per test.  0 = 1. */
	double ops;
	const char *summary;		/* one line: what it measures */
	/* NULL when supported here, else the reason (e.g. "built without libtirpc"). */
	const char *(*unsupported)(void);
	enum bench_status (*setup)(struct bench_ctx *ctx);		/* optional */
	enum bench_status (*run)(struct bench_ctx *ctx, uint64_t n);	/* n iterations */
	void (*teardown)(struct bench_ctx *ctx);			/* optional */
	/*
	 * Optional, untimed, before every timed call of run with the n it will
	 * get: undo the last call's work and lay out this one's (a fresh
	 * directory, n fresh pages to fault in).  Teardown undoes the last.
	 */
	enum bench_status (*prepare)(struct bench_ctx *ctx, uint64_t n);
	/*
	 * Optional: n iterations of the same work less the thing measured (a
	 * ring's summing and pipe calls without the switch).  The harness times
	 * it like run and subtracts its median, keeping the raw figure too.
	 */
	enum bench_status (*overhead)(struct bench_ctx *ctx, uint64_t n);
	/* Optional: the row's parameters (ring size, transport), lent as ctx->arg. */
	const void *arg;
	/*
	 * Optional: a curve.  Fills at most max points (they may depend on the
	 * machine and on ctx->suite) and returns how many; the harness then sets
	 * ctx->point and measures each point from setup to teardown, and the
	 * result's own figure is the last point's.  0 points: this time the row
	 * is measured as a single figure, with ctx->point NULL.
	 */
	size_t (*points)(struct bench_ctx *ctx, struct bench_point *pts, size_t max);
	/* Optional, after a curve's last point: read the points (find the cache
	 * levels) and record what was found with bench_value. */
	void (*curve_done)(struct bench_ctx *ctx, const struct result_point *pts, size_t n);
	/* Optional: the id of a row whose result this one reads (ctx->prior);
	 * a run that selects this row measures that one first. */
	const char *needs;
	/* A scalability row (src/bench/scale.c): the tasks it runs at once, which
	   run's --max-tasks selects by; 0 for every other row. */
	int tasks;
};

/* Fill ctx->err and return BENCH_FAIL; errnum 0 means no errno text. */
enum bench_status bench_fail(struct bench_ctx *ctx, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
enum bench_status bench_skip(struct bench_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The unit b's figures are in: the row's own text, else its metric's. */
const char *bench_unit(const struct bench *b);
const char *bench_better_name(enum bench_better better);

/* "none", "same", "spread"; "" for PLACE_NA. */
const char *place_name(enum placement p);
/* The placement named, or -1. */
int place_parse(const char *name, enum placement *out);

/*
 * The CPU that end `end` (0 = the harness's own process) of this copy runs
 * on under ctx's placement, or -1 when the scheduler chooses.
 */
int bench_cpu_for(const struct bench_ctx *ctx, int end);
/*
 * Pin the calling process as end `end`, and read the affinity back: 0, or
 * -1 with ctx->err filled when the pin did not take.
 */
int bench_place(struct bench_ctx *ctx, int end);

/* The result of `id` measured earlier in this run, or NULL. */
const struct result *bench_prior(const struct bench_ctx *ctx, const char *id);

/*
 * A buffer or file size: the size of the curve point being measured, else
 * --size when given, else well above the last-level cache (4x it, at least
 * 256 MiB), so that memory, not a cache, is measured.
 */
size_t bench_buffer_size(const struct bench_ctx *ctx);
/*
 * The points of a bandwidth row that takes --size: in the full suite
 * sizes from 4 KiB up in octaves to the row's own buffer size, the last
 * point, so that the result's figure is the one other suites give (series
 * "size"); in other suites none, a single figure.
 */
size_t bench_size_points(struct bench_ctx *ctx, struct bench_point *pts, size_t max);
/*
 * Skip, with the reason, when `bytes` would take more than half of the
 * memory available: the OOM killer must never be the one to say so.
 * BENCH_OK when it fits or the OS cannot say.
 */
enum bench_status bench_check_memory(struct bench_ctx *ctx, double bytes, const char *what);

/* Record a parameter or side figure with the result; a full table is a BUG. */
void bench_value(struct bench_ctx *ctx, const char *key, double num);
void bench_value_text(struct bench_ctx *ctx, const char *key, const char *text);

#endif
