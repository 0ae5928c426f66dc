/*
 * Everything kbench shows a person or a script: the lmbench-style tables,
 * the footnotes on noisy or missing figures, sysinfo, and JSON.  Reports
 * read results; they never measure and never touch the database.  Only
 * src/report/ includes jansson.h.
 */
#ifndef KB_REPORT_H
#define KB_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "core/bench.h"
#include "core/result.h"
#include "core/sysinfo.h"

/*
 * lmbench's number convention for a cell `width` characters wide: as many
 * significant digits as fit (0.57, 16.2, 691., 1434), then thousands with a
 * K suffix (12.K).  Never wider than width; buf needs width + 1 bytes.
 */
void report_num(char *buf, int width, double v);
/*
 * Four significant digits, keeping trailing zeros but not a bare point:
 * "7.500", "2374"; whole numbers from 10000 on, never an exponent.  For
 * notes and lines, where a figure need not fit a column.
 */
void report_fig(char *buf, size_t size, double v);

/*
 * lmbench's summary tables, in its order: Basic system parameters;
 * Processor, Processes; Context switching; *Local* Communication latencies;
 * File & VM system latencies; *Local* Communication bandwidths; Memory
 * latencies.  One row per run (and placement) that has figures for a
 * table, each table followed by one line per noisy, busy, failed or skipped
 * figure saying which and why; then "Other results", the figures no table
 * has a column for.  A table without a figure is left out.
 */
void report_summary(FILE *out, const struct run_info *runs, size_t nruns);

/*
 * `kbench show`: every result of `id` in run (one per placement measured).
 * A curve is a table of sizes by series, the cache levels detected in it
 * next to the sizes the OS reports; any other result its figure, CI,
 * sampling and values, one per line.  Returns how many results were shown
 * (0: the run has none for id, and nothing was printed).
 */
int report_show_text(FILE *out, const struct run_info *run, const char *id);
/*
 * The same as JSON, in `summary --json`'s shape: {"kbench", "sysinfo",
 * "runs": [run]}, the run holding only the results of id, points, values
 * and samples (when loaded) included.  Returns how many results, or -1.
 */
int report_show_json(FILE *out, const struct run_info *run, const char *id);

/*
 * The machine description stored with a run (report_sysinfo_json's text)
 * read back into si: the names (os, release, version, arch, host,
 * cpu_model, clocksource, governor, smt, virt), ncpu_online, mhz, memory
 * and the caches; mitigations and the build fields are left empty.  0, or
 * -1 with si zeroed when json is NULL or not such an object.
 */
int report_sysinfo_parse(const char *json, struct sysinfo *si);

/* `kbench sysinfo` as text, aligned "key: value" lines. */
void report_sysinfo_text(FILE *out, const struct sysinfo *si);
/* The same as a JSON object text, malloc'd (caller frees); NULL on failure. */
char *report_sysinfo_json(const struct sysinfo *si);

/* One row of `kbench list`. */
struct report_list_row {
	const struct bench *bench;
	const char *suites;	/* "quick,standard,lmbench" */
	const char *reason;	/* NULL when supported here */
};
void report_list_text(FILE *out, const struct report_list_row *rows, size_t n);
/* JSON array of {id, unit, better, summary, suites[], supported, reason}. */
int report_list_json(FILE *out, const struct report_list_row *rows, size_t n);

/*
 * `kbench run --json`: {"kbench": version, "sysinfo": {...}, "runs": [{label,
 * started, host, results: [...]}]}.  sysinfo_json is the stored text.
 */
int report_runs_json(FILE *out, const char *sysinfo_json, const struct run_info *runs,
		     size_t nruns);

/* ------------------------------------------------------------------ */
/* compare (src/report/compare.c)                                      */
/* ------------------------------------------------------------------ */

#define REPORT_CMP_MAX_SIDES 8

/* One side of a comparison: a label's runs, or one run. */
struct report_cmp_side {
	const char *name;		/* as the user gave it */
	const struct run_info *runs;
	size_t nruns;
};

enum { CMP_TEST_NONE = 0, CMP_TEST_WELCH_RUNS, CMP_TEST_MW_SAMPLES };

/* One side's figure for one instance, and against the base. */
struct report_cmp_cell {
	int present;
	size_t nruns;			/* runs with a usable figure */
	double median, lo, hi;		/* median of run medians and its 95% CI */
	int noisy;			/* a run missed its precision */
	/* Others only: */
	double change;			/* median / base median - 1 */
	double ratio_lo, ratio_hi;	/* 95% CI of the ratio (Welch on runs), else NaN */
	int test;			/* CMP_TEST_* */
	double p, p_adj;		/* two-sided; adjusted over the table */
	int significant, better;
};

/* One instance, (id, placement, copies), in the order the base measured it. */
struct report_cmp_row {
	const struct result *key;	/* the base's first result of it */
	size_t section;			/* lmbench's table order */
	int common;			/* some other side has it too */
	struct report_cmp_cell cell[REPORT_CMP_MAX_SIDES];
};

/*
 * Compare sides[1..] against sides[0]: rows malloc'd.  threshold is the
 * smallest change called significant (0.02).  0, or -1 without memory or
 * with a bad number of sides.
 */
int report_compare_build(const struct report_cmp_side *sides, size_t nsides, double threshold,
			 struct report_cmp_row **rows, size_t *nrows);
void report_compare_text(FILE *out, const struct report_cmp_side *sides, size_t nsides,
			 const struct report_cmp_row *rows, size_t nrows, double threshold);

#endif
