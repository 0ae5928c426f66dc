/*
 * What a benchmark's figure is: its unit, which way is better, and how the
 * harness turns the time one operation took into it.  One table holds this
 * for every metric (metric.c), so that the harness, the registry's checks
 * and the reports look a metric up instead of each deciding for itself
 * which units are rates.
 */
#ifndef KB_METRIC_H
#define KB_METRIC_H

enum bench_better { BETTER_LOWER = 0, BETTER_HIGHER };

/* What one operation's time is turned into: a row of metric.c's table each. */
enum bench_metric {
	METRIC_US = 0,	/* microseconds per operation */
	METRIC_NS,	/* nanoseconds per operation */
	METRIC_MBPS,	/* MB/s (10^6 bytes) from ctx->bytes_per_iter */
	METRIC_MHZ,	/* a rate: millions of operations per second */
	METRIC_CALLS,	/* a rate: calls per second */
	METRIC_OPS,	/* a rate: operations per second (AIM9's, under its rows' own units) */
};

/* How t, the nanoseconds one operation took, becomes the figure. */
enum metric_form {
	METRIC_FORM_TIME,	/* t / scale: a time per operation */
	METRIC_FORM_RATE,	/* scale / t: operations per unit of time */
	METRIC_FORM_BANDWIDTH,	/* bytes moved by the operation * scale / t */
};

struct metric {
	const char *unit;		/* as results carry it: "us", "calls/s" */
	enum bench_better better;	/* a time is lower-better, a rate higher */
	enum metric_form form;
	/* The form's constant: for a time the nanoseconds in one unit, for a
	   rate or bandwidth what one per nanosecond is in the unit. */
	double scale;
};

/* The metric's row of the table, or NULL for a value that names none. */
const struct metric *metric_get(enum bench_metric m);

/*
 * The figure for one operation of `ns` nanoseconds that moved `bytes`
 * (read by a bandwidth only).  Copies' figures of a rate or bandwidth add
 * up; those of a time do not (metric_is_time).
 */
double metric_figure(const struct metric *m, double ns, double bytes);

/* Whether m's figures are times per operation, rather than per-time figures. */
int metric_is_time(const struct metric *m);

/*
 * The same for a stored result, which keeps only its unit's text and its
 * direction: the table's row with that unit decides.  A unit text no row
 * has (a row's own, such as "Signal Traps/second", or a timed job's "s")
 * is a time when smaller is better, a rate when bigger is.
 */
int metric_unit_is_time(const char *unit, enum bench_better better);

#endif
