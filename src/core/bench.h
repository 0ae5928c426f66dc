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

#include "core/err.h"

enum bench_status {
	BENCH_OK = 0,
	BENCH_SKIP,	/* cannot run here; ctx->err says why */
	BENCH_FAIL,	/* tried and the work did not happen; ctx->err says why */
};

enum bench_better { BETTER_LOWER = 0, BETTER_HIGHER };

/* What one iteration's time is turned into. */
enum bench_metric {
	METRIC_US = 0,	/* microseconds per iteration */
	METRIC_NS,	/* nanoseconds per iteration */
	METRIC_MBPS,	/* MB/s (10^6 bytes) from ctx->bytes_per_iter */
};

/* Suites an instance belongs to; a bit each. */
enum {
	SUITE_QUICK = 1u << 0,
	SUITE_STANDARD = 1u << 1,
	SUITE_FULL = 1u << 2,
	SUITE_LMBENCH = 1u << 3,
	SUITE_AIM9 = 1u << 4,
	SUITE_RATES = 1u << 5,
};
#define SUITE_SUMMARY (SUITE_QUICK | SUITE_STANDARD | SUITE_FULL | SUITE_LMBENCH)

/* Flags on a row. */
enum {
	/* Cheap enough that the harness's loop overhead matters: subtract it. */
	BENCH_CHEAP = 1u << 0,
};

/* Per-instance state, owned by the harness and lent to the benchmark. */
struct bench_ctx {
	void *priv;		/* the benchmark's own state, from setup to teardown */
	const char *tmpdir;	/* private directory; the runner removes it afterwards */
	double bytes_per_iter;	/* bandwidth benchmarks: bytes moved per iteration */
	char err[ERRBUF_LEN];	/* why it skipped or failed */
};

/*
 * One row of a family table.  The registry checks every row at start-up:
 * an id of lowercase words joined by dots, a run function, a summary, at
 * least one suite.
 */
struct bench {
	const char *id;			/* stable catalogue id, e.g. "sys.null" */
	enum bench_metric metric;	/* unit the figure is reported in */
	enum bench_better better;	/* METRIC_MBPS is higher-better, times lower */
	unsigned suites;		/* SUITE_* bits */
	unsigned flags;			/* BENCH_* bits */
	const char *summary;		/* one line: what it measures */
	/* NULL when supported here, else the reason (e.g. "built without libtirpc"). */
	const char *(*unsupported)(void);
	enum bench_status (*setup)(struct bench_ctx *ctx);		/* optional */
	enum bench_status (*run)(struct bench_ctx *ctx, uint64_t n);	/* n iterations */
	void (*teardown)(struct bench_ctx *ctx);			/* optional */
};

/* Fill ctx->err and return BENCH_FAIL; errnum 0 means no errno text. */
enum bench_status bench_fail(struct bench_ctx *ctx, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
enum bench_status bench_skip(struct bench_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

const char *bench_unit(const struct bench *b);
const char *bench_better_name(enum bench_better better);

#endif
